'use strict';
// Reads the timeline's data element and draws the summary and the grid of the top methods (or
// contexts) over the intervals. Names only ever go into text nodes (textContent), never into markup.
(function () {
  const $ = (id) => document.getElementById(id);
  const BAR_HEIGHT = 60;
  const data = JSON.parse($('jp-data').textContent);
  $('title').textContent = data.title;
  const names = data.names;
  const count = data.number.length;
  // `names`: 'short' or 'full', the form the data gives both of.
  const state = { metric: data.metric, names: data.nameStyle === 'full' ? 'full' : 'short', rows: 'methods' };
  const isTest = (name) => name.startsWith('[test] ');
  /** Frame `f`'s name in the form chosen, without its package; a test by its test id. */
  const shownName = (f) => (isTest(names[f]) ? names[f].slice(7) : state.names === 'full' ? names[f] : data.short[f]);
  /** Frame `f`'s package when the short form is shown, else ''. */
  const shownPackage = (f) => (state.names === 'full' ? '' : data.packages[data.package[f]]);
  const format = (value) => Math.round(value).toLocaleString('en-US');
  const share = (value, whole) => (whole === 0 ? '0.0%' : `${((value * 100) / whole).toFixed(1)}%`);
  const element = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const ran = getComputedStyle(document.documentElement).getPropertyValue('--ran').trim();

  function summary() {
    const box = $('summary');
    box.textContent = '';
    const add = (term, value) => box.append(element('dt', '', term), element('dd', '', value));
    for (const [key, value] of data.meta) add(key, value);
    add('snapshots', format(count));
    for (const metric of ['calls', 'bytecodes']) add(metric, format(data[metric].reduce((a, b) => a + b, 0)));
  }

  /** When and why interval `i`'s snapshot was written. */
  const intervalLabel = (i) => {
    const elapsed = data.elapsed[i] === null ? '' : ` at ${format(data.elapsed[i])} ms`;
    return `snapshot ${data.number[i]}${elapsed} (${data.trigger[i]})`;
  };

  /** The grid's rows in the form chosen: each a label's parts and its values per interval. */
  function rows() {
    const table = data[state.rows];
    const values = table[state.metric];
    const labels = state.rows === 'methods'
      ? table.frame.map((f) => [shownName(f), shownPackage(f)])
      : table.path.map((path) => [path.map(shownName).join(' › '), '']);
    return labels.map((label, r) => ({ label, values: values.slice(r * count, (r + 1) * count) }));
  }

  const tooltip = $('tooltip');
  function showTip(event, text) {
    tooltip.textContent = text;
    tooltip.hidden = false;
    tooltip.style.left = `${Math.min(event.clientX + 12, window.innerWidth - 320)}px`;
    tooltip.style.top = `${event.clientY + 12}px`;
  }

  function grid() {
    const totals = data[state.metric];
    const max = Math.max(1, ...totals);
    const head = $('grid').tHead;
    head.textContent = '';
    const top = head.insertRow();
    top.append(element('th', '', `${state.rows} by ${data.metric}; cells: ${state.metric}`));
    for (let i = 0; i < count; i += 1) {
      const th = element('th', 'interval');
      const bar = element('div', 'bar');
      bar.style.height = `${Math.max(1, Math.round((totals[i] * BAR_HEIGHT) / max))}px`;
      th.append(bar, element('div', '', String(data.number[i])));
      th.dataset.tip = `${intervalLabel(i)}\n${format(totals[i])} ${state.metric}`;
      top.append(th);
    }
    const body = $('grid').tBodies[0];
    body.textContent = '';
    const shown = rows();
    for (const row of shown) {
      const tr = body.insertRow();
      const name = element('td', 'name', row.label[0]);
      if (row.label[1]) name.append(' ', element('span', 'pkg', row.label[1]));
      tr.append(name);
      row.values.forEach((value, i) => {
        const cell = element('td', 'cell');
        if (value > 0) cell.style.background = `rgba(${ran}, ${0.15 + (0.85 * value) / Math.max(1, totals[i])})`;
        cell.dataset.tip = `${row.label[0]}\n${intervalLabel(i)}\n${format(value)} ${state.metric}, ${share(value, totals[i])} of the interval`;
        tr.append(cell);
      });
    }
    const note = $('grid-note');
    note.hidden = shown.length !== 0;
    note.textContent = 'Nothing ran in these intervals.';
  }

  $('grid').addEventListener('mousemove', (event) => {
    const target = event.target.closest('[data-tip]');
    if (target) showTip(event, target.dataset.tip);
    else tooltip.hidden = true;
  });
  $('grid').addEventListener('mouseleave', () => { tooltip.hidden = true; });
  for (const [id, key] of [['metric', 'metric'], ['names', 'names'], ['rows', 'rows']]) {
    $(id).value = state[key];
    $(id).addEventListener('change', () => {
      state[key] = $(id).value;
      grid();
    });
  }
  summary();
  grid();
  $('loading').hidden = true;
  document.body.dataset.ready = 'true';
})();
