'use strict';
// Reads the diff's data element and draws the summary, the differential icicle graph and the
// tables. Names only ever go into text nodes (textContent) and the canvas, never into markup.
(function () {
  const $ = (id) => document.getElementById(id);
  const ROW = 18;
  // A canvas cannot be much taller than 16,000 pixels; deeper frames are reached by zooming.
  const MAX_ROWS = 900;
  const MAX_ABOVE = 40;
  const data = JSON.parse($('jp-data').textContent);
  $('title').textContent = data.title;
  const names = data.names;
  const count = data.depth.length;
  // Every metric of the diff (calls, bytecodes and an extra one, if any) by name: own values of each side.
  const own = {};
  data.metrics.forEach((metric, k) => { own[metric] = [data.base[k], data.new[k]]; });
  // `names`: 'short' or 'full', the form the report's data gives both of.
  const state = { metric: data.metric, zoom: 0, names: data.nameStyle === 'full' ? 'full' : 'short' };
  const isTest = (name) => name.startsWith('[test] ');
  /** Frame `f`'s name in the form chosen, without its package; a test by its test id. */
  const shownName = (f) => (isTest(names[f]) ? names[f].slice(7) : state.names === 'full' ? names[f] : data.short[f]);
  /** Frame `f`'s package when the short form is shown, else ''. */
  const shownPackage = (f) => (state.names === 'full' ? '' : data.packages[data.package[f]]);

  // Parents, children and subtree totals from the depth-first arrays.
  const parent = new Int32Array(count);
  const kids = Array.from({ length: count }, () => []);
  const total = {};
  {
    const path = [0];
    for (let i = 1; i < count; i += 1) {
      const depth = data.depth[i];
      path.length = depth;
      parent[i] = path[depth - 1];
      kids[parent[i]].push(i);
      path.push(i);
    }
    for (const metric of data.metrics) {
      const base = Float64Array.from(own[metric][0]);
      const fresh = Float64Array.from(own[metric][1]);
      for (let i = count - 1; i > 0; i -= 1) {
        base[parent[i]] += base[i];
        fresh[parent[i]] += fresh[i];
      }
      total[metric] = [base, fresh];
    }
  }

  const format = (value) => Math.round(value).toLocaleString('en-US');
  const signed = (value) => (value > 0 ? '+' : value < 0 ? '-' : '') + format(Math.abs(value));
  const percent = (base, fresh) => {
    if (fresh === base) return '0.0%';
    if (base === 0) return 'new';
    const value = ((fresh - base) * 100) / base;
    return `${value >= 0 ? '+' : ''}${value.toFixed(1)}%`;
  };
  const status = (present, base, fresh) =>
    present === 2 ? 'added' : present === 1 ? 'removed' : base === fresh ? 'unchanged' : 'changed';
  const element = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };

  function summary() {
    const box = $('summary');
    box.textContent = '';
    const add = (term, value) => {
      box.append(element('dt', '', term), element('dd', '', value));
    };
    add('profiles', `base ${data.files[0]}, new ${data.files[1]}`);
    for (const metric of data.metrics) {
      const [base, fresh] = [total[metric][0][0], total[metric][1][0]];
      add(`total ${metric}`, `${format(base)} → ${format(fresh)} (${signed(fresh - base)}, ${percent(base, fresh)})`);
    }
    if (data.filter !== null) add('filter', `frames containing "${data.filter}"`);
  }

  // Own change of every context in the metric, and the largest one, for the colours.
  function ownDelta(metric) {
    const [base, fresh] = own[metric];
    let largest = 0;
    const delta = new Float64Array(count);
    for (let i = 1; i < count; i += 1) {
      delta[i] = fresh[i] - base[i];
      largest = Math.max(largest, Math.abs(delta[i]));
    }
    return { delta, largest };
  }

  /** Red for growth, blue for shrinkage, faded towards the theme's base colour for small changes. */
  function color(delta, largest, theme) {
    if (delta === 0 || largest === 0) return theme.same;
    // sqrt: small changes stay visible next to a large one.
    const t = 0.25 + 0.75 * Math.sqrt(Math.abs(delta) / largest);
    const [r, g, b] = delta > 0 ? [214, 39, 40] : [31, 95, 191];
    const mix = (channel, base) => Math.round(base + (channel - base) * t);
    return `rgb(${mix(r, theme.base[0])},${mix(g, theme.base[1])},${mix(b, theme.base[2])})`;
  }

  function label(id) {
    if (id === 0) return 'all threads';
    const name = names[data.frame[id]];
    return isTest(name) ? name : shownName(data.frame[id]);
  }

  const flame = { rows: [], width: 0 };

  function draw() {
    const box = $('flame-box');
    const canvas = $('flame');
    const width = Math.max(box.clientWidth - 2, 100);
    const [base, fresh] = total[state.metric];
    const size = (id) => base[id] + fresh[id];
    const { delta, largest } = ownDelta(state.metric);
    const above = [];
    for (let id = state.zoom; id !== 0; id = parent[id]) above.unshift(id);
    above.unshift(0);
    above.pop();
    // Deep in a recursion, the root and the nearest callers stand for the whole path above.
    if (above.length > MAX_ABOVE) above.splice(1, above.length - MAX_ABOVE);
    const scale = size(state.zoom) > 0 ? width / size(state.zoom) : 0;
    const rects = [];
    const stack = [[state.zoom, 0, above.length]];
    let deepest = above.length;
    let cut = false;
    while (stack.length) {
      const [id, x, row] = stack.pop();
      if (row >= MAX_ROWS) {
        cut = true;
        continue;
      }
      rects.push(id, x, size(id) * scale, row);
      deepest = Math.max(deepest, row);
      let at = x;
      for (const kid of kids[id]) {
        const w = size(kid) * scale;
        if (w >= 1) stack.push([kid, at, row + 1]);
        at += w;
      }
    }
    const height = (deepest + 1) * ROW;
    const { context, charWidth } = jpCanvas(canvas, width, height);
    const theme = jpTheme();
    flame.rows = [];
    const place = (id, x, w, row) => {
      context.fillStyle = color(delta[id], largest, theme);
      context.fillRect(x, row * ROW, Math.max(w - 1, 0.5), ROW - 1);
      jpFrameLabel(context, charWidth, label(id), x, row * ROW + ROW / 2, w, theme.text);
      (flame.rows[row] || (flame.rows[row] = [])).push([x, x + w, id]);
    };
    above.forEach((id, row) => place(id, 0, width, row));
    for (let i = 0; i < rects.length; i += 4) place(rects[i], rects[i + 1], rects[i + 2], rects[i + 3]);
    flame.width = width;
    const note = $('flame-note');
    note.hidden = !cut;
    note.textContent = cut ? `Frames deeper than ${MAX_ROWS} rows are not drawn; click a deep frame to zoom in.` : '';
  }

  function hit(event) {
    const rect = $('flame').getBoundingClientRect();
    const x = event.clientX - rect.left;
    const row = flame.rows[Math.floor((event.clientY - rect.top) / ROW)];
    if (!row) return -1;
    const found = row.find(([from, to]) => x >= from && x < to);
    return found ? found[2] : -1;
  }

  function details(id) {
    const metric = state.metric;
    const [ownBase, ownNew] = [own[metric][0][id], own[metric][1][id]];
    const [base, fresh] = [total[metric][0][id], total[metric][1][id]];
    const f = data.frame[id];
    const pkg = id === 0 ? '' : shownPackage(f);
    const lines = [id === 0 ? 'all threads' : `${label(id)}${pkg ? ` (${pkg})` : ''}`];
    if (id !== 0) lines.push(`status: ${status(data.present[id], ownBase, ownNew)}`);
    lines.push(`own ${metric}: base ${format(ownBase)}, new ${format(ownNew)}, change ${signed(ownNew - ownBase)} (${percent(ownBase, ownNew)})`);
    lines.push(`subtree ${metric}: base ${format(base)}, new ${format(fresh)}, change ${signed(fresh - base)} (${percent(base, fresh)})`);
    return lines.join('\n');
  }

  function table(id, rows, left, what) {
    const body = $(id).querySelector('tbody');
    body.textContent = '';
    // A row is its frame, its presence, its value in each metric on the base side, then on the new side.
    const metrics = data.metrics.length;
    const k = data.metrics.indexOf(state.metric);
    const entries = [];
    for (let i = 0; i < rows.length; i += 2 + 2 * metrics) {
      entries.push({ frame: rows[i], present: rows[i + 1], base: rows[i + 2 + k], fresh: rows[i + 2 + metrics + k] });
    }
    entries.sort((a, b) => Math.abs(b.fresh - b.base) - Math.abs(a.fresh - a.base));
    for (const entry of entries) {
      const tr = element('tr');
      const kind = status(entry.present, entry.base, entry.fresh);
      const change = entry.fresh - entry.base;
      const name = element('td', 'name', shownName(entry.frame));
      name.title = names[entry.frame];
      if (shownPackage(entry.frame)) name.append(element('span', 'pkg', ` ${shownPackage(entry.frame)}`));
      tr.append(
        element('td', kind, kind),
        element('td', 'num', format(entry.base)),
        element('td', 'num', format(entry.fresh)),
        element('td', `num ${change > 0 ? 'up' : change < 0 ? 'down' : ''}`, signed(change)),
        element('td', 'num', percent(entry.base, entry.fresh)),
        name,
      );
      body.append(tr);
    }
    if (entries.length === 0) {
      const tr = element('tr');
      const td = element('td', 'hint', `No ${what} changed.`);
      td.colSpan = 6;
      tr.append(td);
      body.append(tr);
    }
    const note = $(`${id}-note`);
    note.hidden = left === 0;
    note.textContent = left === 0 ? '' : `${left} more changed ${what}s left out by --threshold or --limit (ranked by ${data.metric}).`;
  }

  function render() {
    draw();
    table('methods', data.methods, data.methodsLeft, 'method');
    if (data.tested) table('tests', data.tests, data.testsLeft, 'test');
  }

  const canvas = $('flame');
  const tooltip = $('tooltip');
  canvas.addEventListener('mousemove', (event) => {
    const id = hit(event);
    tooltip.hidden = id < 0;
    if (id < 0) return;
    tooltip.textContent = details(id);
    tooltip.style.left = `${Math.min(event.clientX + 14, window.innerWidth - 660)}px`;
    tooltip.style.top = `${event.clientY + 14}px`;
  });
  canvas.addEventListener('mouseleave', () => { tooltip.hidden = true; });
  canvas.addEventListener('click', (event) => {
    const id = hit(event);
    if (id < 0) return;
    state.zoom = id === state.zoom ? parent[id] : id;
    draw();
  });
  for (const metric of data.metrics.slice(2)) {
    const option = element('option', '', metric);
    option.value = metric;
    $('metric').append(option);
  }
  $('metric').value = state.metric;
  $('metric').addEventListener('change', (event) => {
    state.metric = event.target.value;
    render();
  });
  $('names').value = state.names;
  $('names').addEventListener('change', (event) => {
    state.names = event.target.value;
    render();
  });
  window.addEventListener('resize', draw);
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', draw);

  summary();
  $('tests-section').hidden = !data.tested;
  $('loading').hidden = true;
  render();
  document.body.dataset.ready = 'true';
  window.jpDiff = { contexts: count, zoom: () => state.zoom };
}());
