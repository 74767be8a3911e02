'use strict';
// Shared by the report's and the diff's pages (written before each page's own script): the
// icicle graph's canvas, sized for the device's pixel ratio, and the frame labels drawn on it.

/** Sizes `canvas` to `width` x `height` CSS pixels and clears it; its context and a character's width. */
const jpCanvas = (canvas, width, height) => {
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  const context = canvas.getContext('2d');
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  context.clearRect(0, 0, width, height);
  context.font = '11px ui-monospace, "DejaVu Sans Mono", monospace';
  context.textBaseline = 'middle';
  return { context, charWidth: context.measureText('m').width || 7 };
};

/**
 * The graph's colours in the page's theme, from its style sheet (which follows
 * `prefers-color-scheme`): `text` for labels, `root` for the top frame, `match` for a search's
 * match, `same` for an unchanged frame of the diff, `lightness` (a percentage) for frame fills,
 * `base` the colour (r, g, b) that the diff's frames fade to.
 */
const jpTheme = () => {
  const style = getComputedStyle(document.documentElement);
  const value = (name) => style.getPropertyValue(name).trim();
  return {
    text: value('--frame-text'), root: value('--frame-root'), match: value('--frame-match'), same: value('--same'),
    lightness: Number(value('--frame-lightness')), base: value('--frame-base').split(',').map(Number),
  };
};

/** Writes `text` in `color` in a frame at `x` of width `w` centred on `y`, cut with an ellipsis to fit; nothing in a narrow frame. */
const jpFrameLabel = (context, charWidth, text, x, y, w, color) => {
  if (w <= 3 * charWidth) return;
  const fits = Math.floor((w - 6) / charWidth);
  const shown = text.length > fits ? `${text.slice(0, Math.max(fits - 1, 1))}…` : text;
  context.fillStyle = color;
  context.fillText(shown, x + 3, y);
};
