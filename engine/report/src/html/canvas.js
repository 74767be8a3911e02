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

/** Writes `text` in a frame at `x` of width `w` centred on `y`, cut with an ellipsis to fit; nothing in a narrow frame. */
const jpFrameLabel = (context, charWidth, text, x, y, w) => {
  if (w <= 3 * charWidth) return;
  const fits = Math.floor((w - 6) / charWidth);
  const shown = text.length > fits ? `${text.slice(0, Math.max(fits - 1, 1))}…` : text;
  context.fillStyle = '#1d2330';
  context.fillText(shown, x + 3, y);
};
