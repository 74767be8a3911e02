// JP's HTML report: reads the profile from the #jp-data element and draws the call tree, the
// icicle graph, the hot-methods table and the tests table. Names only ever go into text nodes and
// the canvas. Each view is drawn by its own function, registered in `views` (see `show`).
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  /** Rows of the tree built at a time, and hot methods listed at a time. */
  const CHUNK = 200;
  /** How many search matches get their paths expanded at once. */
  const REVEAL = 50;
  /** Height of a frame in the graph, in CSS pixels, and the most rows drawn. */
  const ROW = 17;
  const MAX_ROWS = 900;
  /** Beyond this depth the tree's indentation stops growing, as in the text report. */
  const MAX_INDENT = 40;

  const format = (value) => value.toLocaleString('en-US');
  const percent = (value, whole) => (whole > 0 ? ((value * 100) / whole).toFixed(1) : '0.0') + '%';
  const element = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };

  // ---- Test frames: `[test] <test id>`, a test's top-level context (docs/profile-format.md). ----
  const TEST_PREFIX = '[test] ';
  /** The test id of a test frame's name, or null for a method. */
  const testId = (name) => (name.startsWith(TEST_PREFIX) ? name.slice(TEST_PREFIX.length) : null);
  /** A class's own work has a class name for its test id, a test `<class>#<test>`. */
  const isClassLevel = (id) => !id.includes('#');
  /** A frame's name as shown in text: a test frame as `test <id>` or `test class <id>`. */
  function readableName(name) {
    const id = testId(name);
    if (id === null) return name;
    return `${isClassLevel(id) ? 'test class' : 'test'} ${id}`;
  }

  // ---- Names: both forms come from the report (`names`: full, `short` and its package). ----
  /** Frame `f`'s name in the form chosen (`state.names`), without its package. */
  const shownName = (f) => (state.names === 'full' ? names[f] : shortNames[f]);
  /** Frame `f`'s package when the short form is shown, else ''. */
  const shownPackage = (f) => (state.names === 'full' ? '' : packages[packageOf[f]]);
  /** Appends frame `f`'s package to `box`, muted, when the short form is shown. */
  function appendPackage(box, f) {
    const pkg = shownPackage(f);
    if (pkg) box.append(element('span', 'pkg', ` ${pkg}`));
  }
  /** The badge put before a test id. */
  const badge = (id) => (isClassLevel(id) ? element('span', 'badge class', 'test class') : element('span', 'badge', 'test'));

  // ---- The data: contexts depth first, the root at 0 with depth 0 and frame -1. ----
  let names, shortNames, packageOf, packages, lowerNames, parent, frame, depth, own, total, firstKid, kids, recursive, count, grand, maxDepth;

  function load() {
    const data = JSON.parse($('jp-data').textContent);
    names = data.names;
    shortNames = data.short;
    packageOf = data.package;
    packages = data.packages;
    count = data.depth.length;
    depth = Int32Array.from(data.depth);
    frame = Int32Array.from(data.frame);
    own = { calls: Float64Array.from(data.calls), bytecodes: Float64Array.from(data.bytecodes) };
    total = { calls: Float64Array.from(own.calls), bytecodes: Float64Array.from(own.bytecodes) };
    for (let i = 0; i < data.left.length; i += 3) {
      total.calls[data.left[i]] += data.left[i + 1];
      total.bytecodes[data.left[i]] += data.left[i + 2];
    }
    maxDepth = 0;
    for (let i = 0; i < count; i++) if (depth[i] > maxDepth) maxDepth = depth[i];
    // Parents from depths; recursion from how often each frame is on the path.
    parent = new Int32Array(count);
    recursive = new Uint8Array(count);
    const path = new Int32Array(maxDepth + 1);
    const onPath = new Int32Array(names.length);
    let top = 0;
    parent[0] = -1;
    for (let i = 1; i < count; i++) {
      const d = depth[i];
      while (top >= d) {
        if (top > 0) onPath[frame[path[top]]] -= 1;
        top -= 1;
      }
      parent[i] = path[d - 1];
      recursive[i] = onPath[frame[i]] > 0 ? 1 : 0;
      onPath[frame[i]] += 1;
      path[d] = i;
      top = d;
    }
    for (let i = count - 1; i > 0; i--) {
      total.calls[parent[i]] += total.calls[i];
      total.bytecodes[parent[i]] += total.bytecodes[i];
    }
    // Children, in the order written (by total in the report's metric), as one flat array.
    firstKid = new Int32Array(count + 1);
    for (let i = 1; i < count; i++) firstKid[parent[i] + 1] += 1;
    for (let i = 0; i < count; i++) firstKid[i + 1] += firstKid[i];
    const next = Int32Array.from(firstKid.subarray(0, count));
    kids = new Int32Array(Math.max(count - 1, 0));
    for (let i = 1; i < count; i++) kids[next[parent[i]]++] = i;
    grand = { calls: data.grand[0], bytecodes: data.grand[1] };
    return data;
  }

  function children(id) {
    return kids.subarray(firstKid[id], firstKid[id + 1]);
  }

  // ---- State shared by the views. ----
  // `root`: the context whose subtree the tree shows (a test's), 0 for the whole profile.
  // `selected`: the tree's context that has the keyboard focus; `names`: 'short' or 'full'.
  const state = {
    metric: 'bytecodes', sort: 'total', names: 'short', query: '', matchFrame: null, matches: [], current: -1,
    view: 'tree', root: 0, selected: -1,
  };

  // ---- Header ----
  function header(data) {
    $('title').textContent = data.title;
    const list = $('meta');
    const add = (key, value) => {
      const item = element('div');
      item.append(element('dt', '', key), element('dd', '', value));
      item.title = `${key}: ${value}`;
      list.append(item);
    };
    for (const [key, value] of data.meta) if (key !== 'command') add(key, value);
    add('files merged', format(data.files));
    add('contexts', format(data.contexts));
    add('total calls', format(grand.calls));
    add('total bytecodes', format(grand.bytecodes));
    add('report', data.generator);
    const [hidden, calls, bytecodes] = data.hidden;
    if (hidden > 0) {
      const by = [];
      if (Number(data.threshold) > 0) by.push(`--threshold ${data.threshold}`);
      if (data.maxDepth !== null) by.push(`--max-depth ${data.maxDepth}`);
      const note = $('note');
      note.hidden = false;
      note.textContent = `${format(hidden)} contexts left out by ${by.join(' and ')}: ` +
        `${format(calls)} calls (${percent(calls, grand.calls)}), ${format(bytecodes)} bytecodes ` +
        `(${percent(bytecodes, grand.bytecodes)}). Totals still include them.`;
    }
  }

  // ---- The call tree: rows built on expand, siblings CHUNK at a time. ----
  const expanded = new Set();
  /** Contexts that must be built even beyond the first chunk (the paths to search matches). */
  const forced = new Set();
  /** The built element of each context. */
  const built = new Map();

  function sortedChildren(id) {
    const list = Array.from(children(id));
    const values = state.sort === 'self' ? own[state.metric] : total[state.metric];
    list.sort((a, b) => values[b] - values[a] || compareNames(frame[a], frame[b]));
    return list;
  }

  function compareNames(a, b) {
    return names[a] < names[b] ? -1 : names[a] > names[b] ? 1 : 0;
  }

  function renderTree() {
    built.clear();
    const tree = $('tree');
    tree.textContent = '';
    $('tree-scope').hidden = state.root === 0;
    if (state.root === 0) {
      fillList(0, tree);
    } else {
      // Rooted at a context: that context alone at the top, so that its own totals show.
      const name = names[frame[state.root]];
      $('tree-scope-name').textContent = `Call tree of ${readableName(name)}`;
      Object.assign(tree, { list: [state.root], shown: 0, moreButton: null, leftLine: null });
      showMore(tree, 1);
    }
    // One row is always in the tab order: the selected one, else the first.
    const first = tree.querySelector('.node');
    if (!built.has(state.selected) && first) select(Number(first.dataset.id));
  }

  /** Builds the children of `id` into `box`: the first chunk, and any that must be shown. */
  function fillList(id, box) {
    box.list = sortedChildren(id);
    box.shown = 0;
    box.moreButton = null;
    box.leftLine = null;
    let needed = Math.min(CHUNK, box.list.length);
    if (forced.size) {
      box.list.forEach((kid, index) => {
        if (forced.has(kid)) needed = Math.max(needed, index + 1);
      });
    }
    showMore(box, needed);
    const left = total[state.metric][id] - own[state.metric][id] -
      box.list.reduce((sum, kid) => sum + total[state.metric][kid], 0);
    if (left > 0) {
      const line = element('div', 'row left');
      line.style.paddingLeft = `${indent(depth[id] + 1) + 16}px`;
      line.textContent = `(left out by --threshold or --max-depth: ${format(left)} ${state.metric}, ${percent(left, grand[state.metric])})`;
      box.append(line);
      box.leftLine = line;
    }
  }

  /** Builds the rows of `box` up to index `upTo` of its list, and says how many are not built. */
  function showMore(box, upTo) {
    const fragment = document.createDocumentFragment();
    while (box.shown < upTo && box.shown < box.list.length) fragment.append(nodeElement(box.list[box.shown++]));
    box.insertBefore(fragment, box.moreButton || box.leftLine || null);
    const rest = box.list.length - box.shown;
    if (rest > 0) {
      if (!box.moreButton) {
        const button = element('button', 'more');
        button.type = 'button';
        button.addEventListener('click', () => showMore(box, box.shown + CHUNK));
        box.insertBefore(button, box.leftLine || null);
        box.moreButton = button;
      }
      box.moreButton.textContent = `show ${format(Math.min(rest, CHUNK))} more of ${format(rest)} not shown`;
    } else if (box.moreButton) {
      box.moreButton.remove();
      box.moreButton = null;
    }
  }

  function indent(d) {
    return Math.min(d - 1, MAX_INDENT) * 12;
  }

  function nodeElement(id) {
    const node = element('div', 'node');
    node.setAttribute('role', 'treeitem');
    node.setAttribute('aria-level', String(depth[id] - depth[state.root] + (state.root === 0 ? 0 : 1)));
    node.setAttribute('aria-selected', id === state.selected ? 'true' : 'false');
    node.dataset.id = id;
    // The treeitem takes the focus (one in the tab order: the selected one), so that assistive
    // technology reads its state with it.
    node.tabIndex = id === state.selected ? 0 : -1;
    const row = element('div', 'row');
    row.addEventListener('click', () => select(id));
    const leaf = firstKid[id] === firstKid[id + 1] && total.calls[id] === own.calls[id] && total.bytecodes[id] === own.bytecodes[id];
    row.append(element('span', 'toggle', leaf ? '' : expanded.has(id) ? '▾' : '▸'));
    const m = state.metric;
    const g = grand[m];
    row.append(element('span', 'num', format(total[m][id])), element('span', 'pct', percent(total[m][id], g)));
    const bar = element('span', 'bar');
    const fill = element('span');
    fill.style.width = `${g > 0 ? (total[m][id] * 100) / g : 0}%`;
    bar.append(fill);
    row.append(bar, element('span', 'num', format(own[m][id])), element('span', 'pct', percent(own[m][id], g)));
    const name = element('span', 'name');
    name.style.paddingLeft = `${10 + indent(depth[id])}px`;
    fillName(name, id);
    row.append(name);
    node.append(row);
    if (!leaf) {
      node.setAttribute('aria-expanded', expanded.has(id) ? 'true' : 'false');
      row.addEventListener('click', () => toggle(id));
      if (expanded.has(id)) openKids(node, id);
    }
    built.set(id, node);
    return node;
  }

  /** A frame's name, with the matches of the search marked. */
  function fillName(span, id) {
    span.textContent = '';
    if (depth[id] > MAX_INDENT + 1) span.append(element('span', 'depth', `[depth ${format(depth[id])}] `));
    if (recursive[id]) span.append(element('span', 'rec', 'R '));
    const f = frame[id];
    span.title = names[f];
    // A test frame: a badge, then its test id, where the search marks its matches.
    const test = testId(span.title);
    if (test !== null) span.append(badge(test));
    appendMarked(span, test === null ? shownName(f) : test, f);
    appendPackage(span, f);
  }

  /**
   * Appends `text`, the name of frame `f`, to `box` with the search's matches in it marked; all of
   * it when the frame matches in the form not shown (a package or a qualified type).
   */
  function appendMarked(box, text, f) {
    if (!state.query || !state.matchFrame[f]) {
      box.append(text);
      return;
    }
    const lower = text.toLowerCase();
    if (!lower.includes(state.query)) {
      box.append(element('mark', '', text));
      return;
    }
    let at = 0;
    for (let found = lower.indexOf(state.query); found >= 0; found = lower.indexOf(state.query, at)) {
      box.append(text.slice(at, found), element('mark', '', text.slice(found, found + state.query.length)));
      at = found + state.query.length;
    }
    box.append(text.slice(at));
  }

  function openKids(node, id) {
    let box = node.querySelector(':scope > .kids');
    if (!box) {
      box = element('div', 'kids');
      box.setAttribute('role', 'group');
      node.append(box);
      fillList(id, box);
    }
    box.hidden = false;
  }

  function toggle(id) {
    const node = built.get(id);
    if (!node) return;
    const open = !expanded.has(id);
    if (open) {
      expanded.add(id);
      openKids(node, id);
    } else {
      expanded.delete(id);
      node.querySelector(':scope > .kids').hidden = true;
    }
    node.setAttribute('aria-expanded', open ? 'true' : 'false');
    node.firstChild.firstChild.textContent = open ? '▾' : '▸';
  }

  // ---- The tree from the keyboard: one row in the tab order (the selected one), arrows move. ----
  /** Makes context `id` the tree's selected row; focuses it when `focus`. */
  function select(id, focus) {
    const before = built.get(state.selected);
    if (before) {
      before.setAttribute('aria-selected', 'false');
      before.tabIndex = -1;
    }
    state.selected = id;
    const node = built.get(id);
    if (!node) return;
    node.setAttribute('aria-selected', 'true');
    node.tabIndex = 0;
    if (focus) {
      node.focus({ preventScroll: true });
      node.firstChild.scrollIntoView({ block: 'nearest' });
    }
  }

  /** The rows the tree shows (built, under no collapsed context), in order. */
  function visibleRows() {
    return Array.from($('tree').querySelectorAll('.node > .row')).filter((row) => row.offsetParent !== null);
  }

  function treeKey(event) {
    const node = event.target;
    if (!node.classList.contains('node')) return;
    const id = Number(node.dataset.id);
    const open = expanded.has(id);
    const parentNode = node.parentElement.closest('.node');
    const step = (by) => {
      const rows = visibleRows();
      const next = rows[rows.indexOf(node.firstChild) + by];
      if (next) select(Number(next.parentElement.dataset.id), true);
    };
    switch (event.key) {
      case 'ArrowDown': step(1); break;
      case 'ArrowUp': step(-1); break;
      case 'ArrowRight':
        if (!node.hasAttribute('aria-expanded')) break;
        if (!open) toggle(id);
        else step(1);
        break;
      case 'ArrowLeft':
        if (open) toggle(id);
        else if (parentNode) select(Number(parentNode.dataset.id), true);
        break;
      case 'Home': select(Number(visibleRows()[0].parentElement.dataset.id), true); break;
      case 'End': select(Number(visibleRows().pop().parentElement.dataset.id), true); break;
      case ' ':
        if (node.hasAttribute('aria-expanded')) toggle(id);
        break;
      case 'Enter':
        // Opens the context in the flame graph, zoomed to it.
        flame.zoom = id;
        show('flame');
        break;
      default: return;
    }
    event.preventDefault();
  }

  /** Builds and expands the path to `id`, returning its element. */
  function reveal(id) {
    const path = [];
    for (let at = id; at > 0; at = parent[at]) {
      path.push(at);
      if (at === state.root) break;
    }
    if (state.root !== 0 && path[path.length - 1] !== state.root) return null;
    path.reverse();
    let box = $('tree');
    for (const at of path) {
      if (!built.has(at)) {
        const index = box.list.indexOf(at);
        if (index < 0) return null;
        showMore(box, index + 1);
      }
      if (at === id) break;
      if (!expanded.has(at)) toggle(at);
      box = built.get(at).querySelector(':scope > .kids');
    }
    return built.get(id) || null;
  }

  /** Opens the hottest path while it holds most of its parent. */
  function openHotPath() {
    let at = state.root;
    if (at !== 0) expanded.add(at);
    for (let level = 0; level < 12; level++) {
      const list = sortedChildren(at);
      if (!list.length) break;
      const next = list[0];
      if (level > 0 && total[state.metric][next] * 2 < total[state.metric][at]) break;
      if (firstKid[next] === firstKid[next + 1]) break;
      expanded.add(next);
      at = next;
    }
  }

  // ---- Search: a case-insensitive substring of the frame names. ----
  function search(text) {
    const query = text.trim().toLowerCase();
    if (query === state.query) return;
    state.query = query;
    state.matches = [];
    state.current = -1;
    forced.clear();
    if (query) {
      // Either form: the full one holds the package and the qualified types.
      if (!lowerNames) lowerNames = names.map((name, f) => `${name}\n${shortNames[f]}`.toLowerCase());
      state.matchFrame = new Uint8Array(names.length);
      let frames = 0;
      lowerNames.forEach((name, index) => {
        if (name.includes(query)) {
          state.matchFrame[index] = 1;
          frames += 1;
        }
      });
      // In the subtree the tree shows: contexts are depth first, so it is a range.
      const [from, to] = subtree(state.root);
      if (frames) for (let i = from; i < to; i++) if (state.matchFrame[frame[i]]) state.matches.push(i);
      expanded.clear();
      for (const match of state.matches.slice(0, REVEAL)) {
        forced.add(match);
        for (let at = parent[match]; at > 0; at = parent[at]) {
          expanded.add(at);
          forced.add(at);
        }
      }
    } else {
      state.matchFrame = null;
    }
    renderTree();
    status();
    if (state.matches.length) goTo(0);
    if (state.view === 'flame') drawFlame();
  }

  /** The range of positions of the contexts below `id` (`id` too, unless it is the root). */
  function subtree(id) {
    let end = id + 1;
    while (end < count && depth[end] > depth[id]) end += 1;
    return [id === 0 ? 1 : id, end];
  }

  function status() {
    const found = state.matches.length;
    let text = '';
    if (state.query) {
      text = found === 0 ? 'no matches' : `${format(found)} ${found === 1 ? 'context matches' : 'contexts match'}`;
      if (found > REVEAL) text += `; the first ${REVEAL} are expanded, ${format(found - REVEAL)} more with Enter`;
      if (state.current >= 0) text += ` (at ${format(state.current + 1)})`;
    }
    $('search-status').textContent = text;
  }

  /** Esc in the search box: back to the tree, at the current match or the selected row. */
  function leaveSearch() {
    show('tree');
    const at = state.current >= 0 ? state.matches[state.current] : state.selected;
    if (at >= 0 && reveal(at)) select(at, true);
    else {
      const first = visibleRows()[0];
      if (first) select(Number(first.parentElement.dataset.id), true);
    }
  }

  function goTo(index) {
    if (!state.matches.length) return;
    state.current = index % state.matches.length;
    document.querySelectorAll('.node.current').forEach((node) => node.classList.remove('current'));
    const node = reveal(state.matches[state.current]);
    if (node) {
      node.classList.add('current');
      if (state.view === 'tree') node.scrollIntoView({ block: 'center' });
    }
    status();
  }

  // ---- The icicle graph ----
  const flame = { zoom: 0, rows: [], width: 0, pending: false };

  function ancestors(id) {
    const list = [];
    for (let at = parent[id]; at >= 0; at = parent[at]) list.push(at);
    return list.reverse();
  }

  /** A frame's fill: warm hues spread by its name, as light as the theme's frames are. */
  function frameColor(id, theme) {
    if (id === 0) return theme.root;
    if (state.matchFrame && state.matchFrame[frame[id]]) return theme.match;
    let hash = 2166136261;
    const name = names[frame[id]];
    for (let i = 0; i < name.length; i += 3) hash = Math.imul(hash ^ name.charCodeAt(i), 16777619);
    const spread = (hash >>> 0) % 1000;
    return `hsl(${10 + (spread % 45)}, ${70 + (spread % 20)}%, ${theme.lightness + ((spread >> 4) % 14)}%)`;
  }

  function label(id) {
    if (id === 0) return 'all threads';
    const name = names[frame[id]];
    const test = testId(name);
    if (test !== null) {
      // `test ParserTest#large()`: the class's simple name and the test.
      const hash = test.indexOf('#');
      const className = hash >= 0 ? test.slice(0, hash) : test;
      return `${isClassLevel(test) ? 'test class' : 'test'} ${className.slice(className.lastIndexOf('.') + 1)}${hash >= 0 ? test.slice(hash) : ''}`;
    }
    return shownName(frame[id]);
  }

  function drawFlame() {
    const box = $('flame-box');
    const canvas = $('flame');
    const width = Math.max(box.clientWidth - 2, 100);
    const metric = state.metric;
    const values = total[metric];
    const zoom = flame.zoom;
    const above = ancestors(zoom);
    const scale = values[zoom] > 0 ? width / values[zoom] : 0;
    // Which rows hold a frame wide enough to draw, to size the canvas.
    const rects = [];
    const stack = [[zoom, 0, above.length]];
    let deepest = above.length;
    let cut = false;
    while (stack.length) {
      const [id, x, row] = stack.pop();
      const w = values[id] * scale;
      if (row >= MAX_ROWS) {
        cut = true;
        continue;
      }
      rects.push(id, x, w, row);
      if (row > deepest) deepest = row;
      let at = x;
      for (const kid of children(id)) {
        const kw = values[kid] * scale;
        if (kw >= 1) stack.push([kid, at, row + 1]);
        at += kw;
      }
    }
    const height = (deepest + 1) * ROW;
    const { context, charWidth } = jpCanvas(canvas, width, height);
    const theme = jpTheme();
    flame.rows = [];
    const place = (id, x, w, row) => {
      context.fillStyle = frameColor(id, theme);
      context.fillRect(x, row * ROW, Math.max(w - 1, 0.5), ROW - 1);
      jpFrameLabel(context, charWidth, label(id), x, row * ROW + ROW / 2, w, theme.text);
      (flame.rows[row] || (flame.rows[row] = [])).push(x, x + w, id);
    };
    above.forEach((id, row) => place(id, 0, width, row));
    for (let i = 0; i < rects.length; i += 4) place(rects[i], rects[i + 1], rects[i + 2], rects[i + 3]);
    // Rows are filled depth first; hit tests search them by x.
    for (const row of flame.rows) if (row) sortTriples(row);
    flame.width = width;
    const note = $('flame-note');
    note.hidden = !cut;
    note.textContent = cut ? `Frames deeper than ${MAX_ROWS} rows are not drawn; click a deep frame to zoom in.` : '';
    crumbs(above);
  }

  function sortTriples(row) {
    const triples = [];
    for (let i = 0; i < row.length; i += 3) triples.push([row[i], row[i + 1], row[i + 2]]);
    triples.sort((a, b) => a[0] - b[0]);
    row.length = 0;
    for (const triple of triples) row.push(...triple);
  }

  function crumbs(above) {
    const box = $('crumbs');
    box.textContent = '';
    if (flame.zoom === 0) {
      box.append(element('span', 'hint', 'Whole profile.'));
      return;
    }
    const reset = element('button', '', 'Reset zoom');
    reset.type = 'button';
    reset.id = 'flame-reset';
    reset.addEventListener('click', () => zoomTo(0));
    box.append(reset);
    for (const id of [...above.slice(1), flame.zoom]) {
      box.append(element('span', 'hint', '›'));
      const crumb = element('button', 'crumb', label(id));
      crumb.type = 'button';
      crumb.title = readableName(names[frame[id]]);
      crumb.addEventListener('click', () => zoomTo(id));
      box.append(crumb);
    }
  }

  function zoomTo(id) {
    flame.zoom = id;
    drawFlame();
  }

  function hit(event) {
    const rect = $('flame').getBoundingClientRect();
    const x = event.clientX - rect.left;
    const row = flame.rows[Math.floor((event.clientY - rect.top) / ROW)];
    if (!row) return -1;
    let low = 0;
    let high = row.length / 3 - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (row[middle * 3 + 1] <= x) low = middle + 1;
      else if (row[middle * 3] > x) high = middle - 1;
      else return row[middle * 3 + 2];
    }
    return -1;
  }

  function tooltip(event) {
    const tip = $('tooltip');
    const id = hit(event);
    if (id < 0) {
      tip.hidden = true;
      return;
    }
    const m = state.metric;
    tip.textContent = '';
    const name = element('div', 'tip-name', id === 0 ? 'all threads' : (recursive[id] ? 'R ' : '') + readableName(names[frame[id]]));
    if (id !== 0 && testId(names[frame[id]]) === null) {
      name.textContent = (recursive[id] ? 'R ' : '') + shownName(frame[id]);
      appendPackage(name, frame[id]);
    }
    tip.append(name);
    const line = (what, value) => {
      let text = `${what}: ${format(value)} ${m} (${percent(value, grand[m])} of all`;
      if (flame.zoom !== 0) text += `, ${percent(value, total[m][flame.zoom])} of the zoomed frame`;
      tip.append(element('div', '', `${text})`));
    };
    line('total', total[m][id]);
    line('self', own[m][id]);
    if (id !== 0) tip.append(element('div', '', `depth ${format(depth[id])}`));
    tip.hidden = false;
    const x = Math.min(event.clientX + 14, window.innerWidth - tip.offsetWidth - 8);
    const y = event.clientY + 16 + tip.offsetHeight > window.innerHeight ? event.clientY - tip.offsetHeight - 10 : event.clientY + 16;
    tip.style.left = `${Math.max(x, 0)}px`;
    tip.style.top = `${Math.max(y, 0)}px`;
  }

  function scheduleFlame() {
    if (flame.pending || state.view !== 'flame') return;
    flame.pending = true;
    requestAnimationFrame(() => {
      flame.pending = false;
      drawFlame();
    });
  }

  // ---- Hot methods ----
  const hot = { rows: [], key: 'self', shown: 0 };

  function loadHot(data) {
    const list = data.hot;
    for (let i = 0; i < list.length; i += 7) {
      hot.rows.push({
        frame: list[i], contexts: list[i + 1],
        self: { calls: list[i + 2], bytecodes: list[i + 3] },
        total: { calls: list[i + 4], bytecodes: list[i + 5] },
        recursive: list[i + 6] === 1,
      });
    }
  }

  function renderHot() {
    const m = state.metric;
    const key = hot.key;
    const other = key === 'self' ? 'total' : 'self';
    hot.rows.sort((a, b) => b[key][m] - a[key][m] || b[other][m] - a[other][m] || compareNames(a.frame, b.frame));
    document.querySelectorAll('#hot th.sortable').forEach((th) => {
      if (th.dataset.key === key) th.setAttribute('aria-sort', 'descending');
      else th.removeAttribute('aria-sort');
    });
    $('hot').tBodies[0].textContent = '';
    hot.shown = 0;
    moreHot();
  }

  function hotName(method) {
    const cell = element('td', 'method', method.recursive ? 'R ' : '');
    cell.title = names[method.frame];
    const test = testId(names[method.frame]);
    appendMarked(cell, test === null ? shownName(method.frame) : readableName(names[method.frame]), method.frame);
    appendPackage(cell, method.frame);
    return cell;
  }

  function moreHot() {
    const m = state.metric;
    const body = $('hot').tBodies[0];
    const fragment = document.createDocumentFragment();
    const end = Math.min(hot.shown + CHUNK, hot.rows.length);
    for (; hot.shown < end; hot.shown++) {
      const method = hot.rows[hot.shown];
      const tr = element('tr');
      tr.append(
        element('td', 'num', format(method.self[m])), element('td', 'pct', percent(method.self[m], grand[m])),
        element('td', 'num', format(method.total[m])), element('td', 'pct', percent(method.total[m], grand[m])),
        element('td', 'num', format(method.self.calls)), element('td', 'num', format(method.contexts)),
        hotName(method),
      );
      fragment.append(tr);
    }
    body.append(fragment);
    const rest = hot.rows.length - hot.shown;
    const button = $('hot-more');
    button.hidden = rest === 0;
    button.textContent = `show ${format(Math.min(rest, CHUNK))} more of ${format(rest)} not shown`;
  }

  // ---- Tests: ranked by bytecodes or calls; a row opens the tree and the graph at its context. ----
  const tests = { rows: [], key: 'bytecodes', shown: 0 };

  function loadTests(data) {
    // Per test, by bytecodes: frame, position (0: left out of the page), calls, bytecodes, rank by calls.
    const list = data.tests;
    for (let i = 0; i < list.length; i += 5) {
      tests.rows.push({
        frame: list[i], id: list[i + 1], calls: list[i + 2], bytecodes: list[i + 3],
        rank: { bytecodes: i / 5 + 1, calls: list[i + 4] },
      });
    }
    $('tab-tests').hidden = tests.rows.length === 0;
  }

  function renderTests() {
    const key = tests.key;
    tests.rows.sort((a, b) => a.rank[key] - b.rank[key]);
    document.querySelectorAll('#tests th.sortable').forEach((th) => {
      if (th.dataset.key === key) th.setAttribute('aria-sort', 'descending');
      else th.removeAttribute('aria-sort');
    });
    $('tests').tBodies[0].textContent = '';
    tests.shown = 0;
    moreTests();
  }

  function moreTests() {
    const key = tests.key;
    const fragment = document.createDocumentFragment();
    const end = Math.min(tests.shown + CHUNK, tests.rows.length);
    for (; tests.shown < end; tests.shown++) {
      const test = tests.rows[tests.shown];
      const tr = element('tr');
      const id = testId(names[test.frame]);
      const name = element('td', 'method');
      name.append(badge(id), id);
      tr.append(
        element('td', 'num', format(test.rank[key])),
        element('td', 'num', format(test.bytecodes)), element('td', 'pct', percent(test.bytecodes, grand.bytecodes)),
        element('td', 'num', format(test.calls)), element('td', 'pct', percent(test.calls, grand.calls)),
        name,
      );
      if (test.id > 0) {
        tr.dataset.id = test.id;
        tr.tabIndex = 0;
        tr.addEventListener('click', () => focusContext(test.id));
        tr.addEventListener('keydown', (event) => {
          if (event.key === 'Enter') focusContext(test.id);
        });
      } else {
        tr.className = 'left-out';
        tr.title = 'Left out of this page by --threshold or --max-depth';
      }
      fragment.append(tr);
    }
    $('tests').tBodies[0].append(fragment);
    const rest = tests.rows.length - tests.shown;
    const button = $('tests-more');
    button.hidden = rest === 0;
    button.textContent = `show ${format(Math.min(rest, CHUNK))} more of ${format(rest)} not shown`;
  }

  /** Shows the call tree of context `id` alone (0: the whole profile) and zooms the graph to it. */
  function focusContext(id) {
    state.root = id;
    expanded.clear();
    openHotPath();
    flame.zoom = id;
    show('tree');
    window.scrollTo(0, 0);
    // Searches again in the new scope (and scrolls to the first match); with no query, this
    // renders the tree.
    const query = state.query;
    state.query = null;
    search(query);
  }

  // ---- Views and controls ----
  /**
   * The views, by the `data-view` of their tab: `render` draws the view again after a change of
   * metric, names or theme (a view not shown may wait until `shown`), `shown` when its tab opens.
   */
  const views = {
    tree: { render: () => { renderTree(); if (state.current >= 0) goTo(state.current); } },
    flame: { render: () => { if (state.view === 'flame') drawFlame(); }, shown: () => drawFlame() },
    hot: { render: () => renderHot() },
    tests: { render: () => {} },
  };

  function show(view) {
    state.view = view;
    for (const tab of document.querySelectorAll('#tabs button')) {
      const selected = tab.dataset.view === view;
      tab.setAttribute('aria-selected', selected ? 'true' : 'false');
      $(`view-${tab.dataset.view}`).hidden = !selected;
    }
    if (view !== 'flame') $('tooltip').hidden = true;
    if (views[view].shown) views[view].shown();
  }

  function refresh() {
    for (const view of Object.values(views)) view.render();
  }

  function start() {
    const began = performance.now();
    const data = load();
    const parsed = performance.now();
    state.metric = data.metric === 'calls' ? 'calls' : 'bytecodes';
    $('metric').value = state.metric;
    header(data);
    loadHot(data);
    loadTests(data);
    tests.key = state.metric;
    renderTests();
    openHotPath();
    renderTree();
    renderHot();
    for (const tab of document.querySelectorAll('#tabs button')) tab.addEventListener('click', () => show(tab.dataset.view));
    $('metric').addEventListener('change', (event) => {
      state.metric = event.target.value;
      refresh();
    });
    state.names = data.nameStyle === 'full' ? 'full' : 'short';
    $('names').value = state.names;
    $('names').addEventListener('change', (event) => {
      state.names = event.target.value;
      refresh();
    });
    $('tree').addEventListener('keydown', treeKey);
    document.addEventListener('keydown', (event) => {
      const typing = event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement;
      if (event.key === '/' && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        $('search').focus();
        $('search').select();
      } else if (event.key === 'Escape') {
        $('tooltip').hidden = true;
        if (event.target === $('search')) leaveSearch();
      }
    });
    window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', scheduleFlame);
    $('sort').addEventListener('change', (event) => {
      state.sort = event.target.value;
      renderTree();
      if (state.current >= 0) goTo(state.current);
    });
    let typing = 0;
    const input = $('search');
    input.addEventListener('input', () => {
      clearTimeout(typing);
      typing = setTimeout(() => search(input.value), 200);
    });
    input.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter') return;
      clearTimeout(typing);
      const query = input.value.trim().toLowerCase();
      if (query !== state.query) search(input.value);
      else goTo(state.current + (event.shiftKey ? state.matches.length - 1 : 1));
    });
    const canvas = $('flame');
    canvas.addEventListener('mousemove', tooltip);
    canvas.addEventListener('mouseleave', () => {
      $('tooltip').hidden = true;
    });
    canvas.addEventListener('click', (event) => {
      const id = hit(event);
      if (id >= 0) zoomTo(id);
    });
    window.addEventListener('resize', scheduleFlame);
    document.querySelectorAll('#hot th.sortable').forEach((th) => th.addEventListener('click', () => {
      hot.key = th.dataset.key;
      renderHot();
    }));
    $('hot-more').addEventListener('click', moreHot);
    document.querySelectorAll('#tests th.sortable').forEach((th) => th.addEventListener('click', () => {
      tests.key = th.dataset.key;
      renderTests();
    }));
    $('tree-all').addEventListener('click', () => focusContext(0));
    $('tests-more').addEventListener('click', moreTests);
    $('loading').hidden = true;
    show('tree');
    document.body.dataset.ready = 'true';
    window.jpReport = { contexts: count, parseMs: parsed - began, readyMs: performance.now() - began };
  }

  // Let the browser paint "Loading" before a large profile is read.
  requestAnimationFrame(() => setTimeout(() => {
    try {
      start();
    } catch (error) {
      $('loading').textContent = `This report could not be shown: ${error.message}`;
      throw error;
    }
  }, 0));
})();
