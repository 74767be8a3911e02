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
  let names, shortNames, packageOf, packages, lowerNames, parent, frame, site, depth, own, total, firstKid, kids, recursive, count, grand, maxDepth;
  /** The view's extra metrics (`view.extra`: key, label, unit, own, left, grand, hot), sampled time say. */
  let extras = [];

  /**
   * Reads the names of `data` (the page's data element) and the contexts of `view`: `data` itself
   * for every thread, or the element of one thread group.
   */
  function load(data, view) {
    names = data.names;
    shortNames = data.short;
    packageOf = data.package;
    packages = data.packages;
    count = view.depth.length;
    depth = Int32Array.from(view.depth);
    frame = Int32Array.from(view.frame);
    // Each context's call site (` @ line 42`), only in profiles with call sites.
    site = view.site || null;
    own = { calls: Float64Array.from(view.calls), bytecodes: Float64Array.from(view.bytecodes) };
    total = { calls: Float64Array.from(own.calls), bytecodes: Float64Array.from(own.bytecodes) };
    for (let i = 0; i < view.left.length; i += 3) {
      total.calls[view.left[i]] += view.left[i + 1];
      total.bytecodes[view.left[i]] += view.left[i + 2];
    }
    // A thread group's view has none: groups keep calls and bytecodes alone.
    extras = view.extra || [];
    for (const m of extras) {
      own[m.key] = Float64Array.from(m.own);
      total[m.key] = Float64Array.from(own[m.key]);
      for (let i = 0; i < m.left.length; i += 2) total[m.key][m.left[i]] += m.left[i + 1];
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
      for (const m of extras) total[m.key][parent[i]] += total[m.key][i];
    }
    // Children, in the order written (by total in the report's metric), as one flat array.
    firstKid = new Int32Array(count + 1);
    for (let i = 1; i < count; i++) firstKid[parent[i] + 1] += 1;
    for (let i = 0; i < count; i++) firstKid[i + 1] += firstKid[i];
    const next = Int32Array.from(firstKid.subarray(0, count));
    kids = new Int32Array(Math.max(count - 1, 0));
    for (let i = 1; i < count; i++) kids[next[parent[i]]++] = i;
    grand = { calls: view.grand[0], bytecodes: view.grand[1] };
    for (const m of extras) grand[m.key] = m.grand;
    for (const option of $('metric').options) option.disabled = !(option.value in own);
    if (!(state.metric in own)) {
      state.metric = 'bytecodes';
      $('metric').value = state.metric;
    }
  }

  function children(id) {
    return kids.subarray(firstKid[id], firstKid[id + 1]);
  }

  // ---- State shared by the views. ----
  // `root`: the context whose subtree the tree shows (a test's), 0 for the whole profile.
  // `selected`: the tree's context that has the keyboard focus; `names`: 'short' or 'full'.
  const state = {
    metric: 'bytecodes', sort: 'total', names: 'short', query: '', matchFrame: null, matches: [], current: -1,
    view: 'tree', root: 0, selected: -1, regex: false, pattern: null, matched: null, orientation: 'icicle',
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
    for (const m of extras) add(`total ${m.label}`, `${format(m.grand)} ${m.unit}`);
    add('report', data.generator);
  }

  /** The note on what `--threshold` and `--max-depth` left out of `view`. */
  function noteHidden(data, view) {
    const [hidden, calls, bytecodes] = view.hidden;
    const note = $('note');
    note.hidden = hidden === 0;
    if (hidden === 0) return;
    const by = [];
    if (Number(data.threshold) > 0) by.push(`--threshold ${data.threshold}`);
    if (data.maxDepth !== null) by.push(`--max-depth ${data.maxDepth}`);
    note.textContent = `${format(hidden)} contexts left out by ${by.join(' and ')}: ` +
      `${format(calls)} calls (${percent(calls, grand.calls)}), ${format(bytecodes)} bytecodes ` +
      `(${percent(bytecodes, grand.bytecodes)}). Totals still include them.`;
  }

  // ---- Threads: every thread merged (the data element), or one thread group's own view. ----
  const threads = { data: null, views: [], shown: -1 };
  /** What the root stands for: every thread, or the group shown. */
  const rootLabel = () => (threads.shown < 0 ? 'all threads' : threads.data.threads[threads.shown][0]);

  /** Fills the thread switch from `data.threads` (name, threads, calls, bytecodes), if there are groups. */
  function loadThreads(data) {
    threads.data = data;
    const select = $('thread');
    select.append(new Option(`all threads (${format(data.contexts)} contexts)`, '-1'));
    data.threads.forEach(([name, count, calls, bytecodes], index) => {
      const shares = `${percent(bytecodes, data.grand[1])} of bytecodes, ${percent(calls, data.grand[0])} of calls`;
      const label = `${name} (${format(count)} ${count === 1 ? 'thread' : 'threads'}; ${shares})`;
      select.append(new Option(label, String(index)));
    });
    $('thread-box').hidden = data.threads.length === 0;
  }

  /** Shows thread group `index` alone (-1: every thread): every view starts anew on its contexts. */
  function openThread(index) {
    const data = threads.data;
    if (index >= 0 && !threads.views[index]) threads.views[index] = JSON.parse($(`jp-thread-${index}`).textContent);
    const view = index >= 0 ? threads.views[index] : data;
    threads.shown = index;
    load(data, view);
    noteHidden(data, view);
    expanded.clear();
    forced.clear();
    Object.assign(picked, { frame: -1, index: null });
    Object.assign(state, { root: 0, selected: -1, current: -1, matches: [] });
    flame.zoom = 0;
    hot.rows = [];
    loadHot(view);
    tests.rows = [];
    loadTests(view);
    renderTests();
    if (state.view === 'tests' && $('tab-tests').hidden) show('tree');
    openHotPath();
    renderHot();
    // Searches again in the new contexts; with no query, this renders the tree.
    const query = state.query;
    state.query = null;
    search(query || '');
    refresh();
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
    const at = siteOf(id);
    if (at) span.append(at);
  }

  /**
   * Appends `text`, the name of frame `f`, to `box` with the search's matches in it marked; all of
   * it when the frame matches in the form not shown (a package or a qualified type).
   */
  function appendMarked(box, text, f) {
    if (!state.matchFrame || !state.matchFrame[f]) {
      box.append(text);
      return;
    }
    const found = matchRanges(text);
    if (!found.length) {
      box.append(element('mark', '', text));
      return;
    }
    let at = 0;
    for (const [from, to] of found) {
      box.append(text.slice(at, from), element('mark', '', text.slice(from, to)));
      at = to;
    }
    box.append(text.slice(at));
  }

  /** Where the search matches `text`: [from, to) pairs, in order, none empty. */
  function matchRanges(text) {
    const found = [];
    if (state.pattern) {
      for (const match of text.matchAll(new RegExp(state.pattern.source, 'gi'))) {
        if (match[0].length) found.push([match.index, match.index + match[0].length]);
      }
      return found;
    }
    const lower = text.toLowerCase();
    for (let at = lower.indexOf(state.query); at >= 0; at = lower.indexOf(state.query, at + state.query.length)) {
      found.push([at, at + state.query.length]);
    }
    return found;
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
      case 'b':
        openMethod(frame[id]);
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

  // ---- Search: a case-insensitive substring of the frame names, or a regular expression. ----
  /** The query of the search box's `text`: a substring is matched in lower case. */
  const queryOf = (text) => (state.regex ? text.trim() : text.trim().toLowerCase());

  function search(text) {
    const query = queryOf(text);
    if (query === state.query) return;
    state.query = query;
    state.matches = [];
    state.current = -1;
    state.matched = null;
    state.pattern = null;
    forced.clear();
    let invalid = false;
    if (query && state.regex) {
      try {
        state.pattern = new RegExp(query, 'i');
      } catch {
        invalid = true;
      }
    }
    if (query && !invalid) {
      state.matchFrame = matchingFrames(query);
      // In the subtree the tree shows: contexts are depth first, so it is a range.
      const [from, to] = subtree(state.root);
      for (let i = from; i < to; i++) if (state.matchFrame[frame[i]]) state.matches.push(i);
      state.matched = matchedTotals(from, to);
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
    if (invalid) $('search-status').textContent = 'not a regular expression';
    if (state.matches.length) goTo(0);
    if (state.view === 'flame') drawFlame();
  }

  /** Which frames match `query`, in either form of their names (the full one holds the package and the qualified types). */
  function matchingFrames(query) {
    const matching = new Uint8Array(names.length);
    if (state.pattern) {
      names.forEach((name, f) => {
        if (state.pattern.test(name) || state.pattern.test(shortNames[f])) matching[f] = 1;
      });
    } else {
      if (!lowerNames) lowerNames = names.map((name, f) => `${name}\n${shortNames[f]}`.toLowerCase());
      lowerNames.forEach((name, f) => {
        if (name.includes(query)) matching[f] = 1;
      });
    }
    return matching;
  }

  /**
   * The totals under the matching contexts of positions [from, to): a match inside another match
   * is already in its total, so only the outermost matches count.
   */
  function matchedTotals(from, to) {
    const sum = { calls: 0, bytecodes: 0 };
    let cover = -1;
    for (let i = from; i < to; i++) {
      if (cover >= 0 && depth[i] > cover) continue;
      cover = -1;
      if (state.matchFrame[frame[i]]) {
        sum.calls += total.calls[i];
        sum.bytecodes += total.bytecodes[i];
        cover = depth[i];
      }
    }
    return sum;
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
      if (found) {
        const m = state.metric;
        text += `, ${percent(state.matched[m], total[m][state.root])} of ${m} (${format(state.matched[m])})`;
      }
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
    if (state.view === 'flame') showInGraph(state.matches[state.current]);
    status();
  }

  // ---- The graph: an icicle (callers above) or a flame graph (callers below). ----
  // `rows[row]`: x from, x to, context of each frame drawn in that row, `deepest` the last row.
  const flame = { zoom: 0, rows: [], width: 0, deepest: 0, pending: false };
  /** The y of the top of `row` in the orientation chosen. */
  const rowTop = (row) => (state.orientation === 'flame' ? flame.deepest - row : row) * ROW;

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
    if (id === 0) return rootLabel();
    const name = names[frame[id]];
    const test = testId(name);
    if (test !== null) {
      // `test ParserTest#large()`: the class's simple name and the test.
      const hash = test.indexOf('#');
      const className = hash >= 0 ? test.slice(0, hash) : test;
      return `${isClassLevel(test) ? 'test class' : 'test'} ${className.slice(className.lastIndexOf('.') + 1)}${hash >= 0 ? test.slice(hash) : ''}`;
    }
    return shownName(frame[id]) + siteOf(id);
  }

  /** What follows a context's name when it is split by call site: ` @ line 42`; else nothing. */
  function siteOf(id) {
    return site && site[id] ? ` @ ${site[id]}` : '';
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
    flame.deepest = deepest;
    const current = state.current >= 0 ? state.matches[state.current] : -1;
    const place = (id, x, w, row) => {
      const y = rowTop(row);
      context.fillStyle = frameColor(id, theme);
      context.fillRect(x, y, Math.max(w - 1, 0.5), ROW - 1);
      jpFrameLabel(context, charWidth, label(id), x, y + ROW / 2, w, theme.text);
      if (id === current) {
        // In the labels' colour, which stands out on every fill, magenta included.
        context.strokeStyle = theme.text;
        context.lineWidth = 2;
        context.strokeRect(x + 1, y + 1, Math.max(w - 3, 1), ROW - 3);
      }
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

  /**
   * Draws the graph with context `id` (a search match) outlined: zoomed to its caller when the
   * zoom leaves it out or too narrow to see, and scrolled to its row.
   */
  function showInGraph(id) {
    const values = total[state.metric];
    const width = Math.max($('flame-box').clientWidth - 2, 100);
    let inside = false;
    for (let at = id; at >= 0 && !inside; at = parent[at]) inside = at === flame.zoom;
    if (!inside || (values[flame.zoom] > 0 && (values[id] * width) / values[flame.zoom] < 3)) flame.zoom = Math.max(parent[id], 0);
    drawFlame();
    const box = $('flame-box');
    const y = rowTop(depth[id]);
    if (y < box.scrollTop || y + ROW > box.scrollTop + box.clientHeight) box.scrollTop = y - box.clientHeight / 2;
  }

  function hit(event) {
    const rect = $('flame').getBoundingClientRect();
    const x = event.clientX - rect.left;
    const at = Math.floor((event.clientY - rect.top) / ROW);
    const row = flame.rows[state.orientation === 'flame' ? flame.deepest - at : at];
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
    const name = element('div', 'tip-name', id === 0 ? rootLabel() : (recursive[id] ? 'R ' : '') + readableName(names[frame[id]]));
    if (id !== 0 && testId(names[frame[id]]) === null) {
      name.textContent = (recursive[id] ? 'R ' : '') + shownName(frame[id]) + siteOf(id);
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
    // Per extra metric, each method's self and total, in the same order.
    for (const m of data.extra || []) {
      hot.rows.forEach((row, index) => {
        row.self[m.key] = m.hot[2 * index];
        row.total[m.key] = m.hot[2 * index + 1];
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
      tr.tabIndex = 0;
      tr.addEventListener('click', () => openMethod(method.frame));
      tr.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') openMethod(method.frame);
      });
      fragment.append(tr);
    }
    body.append(fragment);
    const rest = hot.rows.length - hot.shown;
    const button = $('hot-more');
    button.hidden = rest === 0;
    button.textContent = `show ${format(Math.min(rest, CHUNK))} more of ${format(rest)} not shown`;
  }

  // ---- Callers: a method's callers and callees (merged over its contexts) and its back-traces. ----
  // Read from an index of the contexts by frame, built when the view is first needed.
  const picked = { frame: -1, index: null };

  /** The contexts of frame `f`, in depth-first order. */
  function contextsOf(f) {
    if (!picked.index) {
      const first = new Int32Array(names.length + 1);
      for (let i = 1; i < count; i++) first[frame[i] + 1] += 1;
      for (let g = 0; g < names.length; g++) first[g + 1] += first[g];
      const next = Int32Array.from(first.subarray(0, names.length));
      const ids = new Int32Array(Math.max(count - 1, 0));
      for (let i = 1; i < count; i++) ids[next[frame[i]]++] = i;
      picked.index = { first, ids };
    }
    return picked.index.ids.subarray(picked.index.first[f], picked.index.first[f + 1]);
  }

  /** Shows the callers, callees and back-traces of frame `f`. */
  function openMethod(f) {
    picked.frame = f;
    show('method');
    window.scrollTo(0, 0);
  }

  /** Appends frame `f`'s name as shown (-1: the top of a thread, which has no caller). */
  function appendFrame(box, f) {
    if (f < 0) {
      box.append(element('span', 'hint', '(top of a thread)'));
      return;
    }
    box.title = names[f];
    const test = testId(names[f]);
    if (test !== null) box.append(badge(test), test);
    else box.append(shownName(f));
    if (test === null) appendPackage(box, f);
  }

  /** Frames by name, the top of a thread (-1) first. */
  const compareFrames = (a, b) => (a < 0 || b < 0 ? a - b : compareNames(a, b));

  function renderMethod() {
    const f = picked.frame;
    $('method-none').hidden = f >= 0;
    $('method-body').hidden = f < 0;
    if (f < 0) return;
    const mine = contextsOf(f);
    // The method's total counts each path once: its contexts with no call of it above them.
    const outer = Array.from(mine).filter((id) => !recursive[id]);
    const sum = (list, values) => list.reduce((acc, id) => acc + values[id], 0);
    const whole = { calls: sum(outer, total.calls), bytecodes: sum(outer, total.bytecodes) };
    for (const m of extras) whole[m.key] = sum(outer, total[m.key]);
    const name = $('method-name');
    name.textContent = '';
    appendFrame(name, f);
    $('method-totals').textContent = `${format(sum(mine, own.calls))} calls in ${format(mine.length)} contexts; ` +
      `total ${format(whole.calls)} calls and ${format(whole.bytecodes)} bytecodes, ` +
      `self ${format(sum(mine, own.bytecodes))} bytecodes.`;
    const callers = new Map();
    const callees = new Map();
    const add = (map, g, id) => {
      const row = map.get(g) || { frame: g, calls: 0, bytecodes: 0 };
      row.calls += own.calls[id];
      row.bytecodes += total.bytecodes[id];
      for (const m of extras) row[m.key] = (row[m.key] || 0) + total[m.key][id];
      map.set(g, row);
    };
    for (const id of mine) {
      add(callers, frame[parent[id]], id);
      for (const kid of children(id)) add(callees, frame[kid], kid);
    }
    fillButterfly($('callers'), $('callers-more'), [...callers.values()], whole);
    fillButterfly($('callees'), $('callees-more'), [...callees.values()], whole);
    renderBackTraces(f, outer, whole);
  }

  /**
   * Fills a table of callers or callees, by the metric, CHUNK rows at a time (its button, `more`,
   * adds the next), each row moving the view to its method.
   */
  function fillButterfly(table, more, rows, whole) {
    const m = state.metric;
    rows.sort((a, b) => b[m] - a[m] || compareFrames(a.frame, b.frame));
    const body = table.tBodies[0];
    body.textContent = '';
    if (!rows.length) body.append(element('tr', 'hint', 'none'));
    let shown = 0;
    more.onclick = () => {
      shown = moreButterfly(body, rows, shown, whole);
      const rest = rows.length - shown;
      more.hidden = rest === 0;
      more.textContent = `show ${format(Math.min(rest, CHUNK))} more of ${format(rest)} not shown`;
    };
    more.onclick();
  }

  /** Adds rows [shown, shown + CHUNK) to a table of callers or callees; returns how many are shown. */
  function moreButterfly(body, rows, shown, whole) {
    const m = state.metric;
    const fragment = document.createDocumentFragment();
    const end = Math.min(shown + CHUNK, rows.length);
    for (const row of rows.slice(shown, end)) {
      const tr = element('tr');
      const name = element('td', 'method');
      appendFrame(name, row.frame);
      tr.append(element('td', 'num', format(row.calls)), element('td', 'num', format(row.bytecodes)),
        element('td', 'pct', percent(row[m], whole[m])), name);
      if (row.frame >= 0) {
        tr.tabIndex = 0;
        tr.addEventListener('click', () => openMethod(row.frame));
        tr.addEventListener('keydown', (event) => {
          if (event.key === 'Enter') openMethod(row.frame);
        });
      }
      fragment.append(tr);
    }
    body.append(fragment);
    return end;
  }

  // A back-trace node stands for the contexts of the method whose path holds it: `origins` those
  // contexts, `at` the context this node's frame is on each of their paths.
  function renderBackTraces(f, origins, whole) {
    const box = $('backtraces');
    box.textContent = '';
    const root = { frame: f, origins, at: Int32Array.from(origins), level: 1 };
    box.append(traceElement(root, whole, true));
  }

  /** The callers one level out from `node`: its paths grouped by the frame of their next caller. */
  function callersOf(node) {
    const groups = new Map();
    node.at.forEach((at, i) => {
      const up = parent[at];
      if (up < 0) return;
      // The root's frame is -1: the paths that start the thread with the node's frame.
      const group = groups.get(frame[up]) || { frame: frame[up], origins: [], at: [], level: node.level + 1 };
      group.origins.push(node.origins[i]);
      group.at.push(up);
      groups.set(frame[up], group);
    });
    return [...groups.values()];
  }

  function traceElement(node, whole, open) {
    const m = state.metric;
    const value = node.origins.reduce((acc, id) => acc + total[m][id], 0);
    const item = element('div', 'node');
    item.setAttribute('role', 'treeitem');
    item.setAttribute('aria-level', String(node.level));
    const row = element('div', 'row');
    const leaf = node.at.every((at) => parent[at] < 0);
    const arrow = element('span', 'toggle', leaf ? '' : '▸');
    const bar = element('span', 'bar');
    const fill = element('span');
    fill.style.width = `${whole[m] > 0 ? (value * 100) / whole[m] : 0}%`;
    bar.append(fill);
    const name = element('span', 'name');
    name.style.paddingLeft = `${10 + indent(node.level)}px`;
    appendFrame(name, node.frame);
    row.append(arrow, element('span', 'num', format(value)), element('span', 'pct', percent(value, whole[m])), bar, name);
    item.append(row);
    if (leaf) return item;
    item.setAttribute('aria-expanded', 'false');
    let kids = null;
    const toggleTrace = () => {
      if (!kids) {
        kids = element('div', 'kids');
        kids.setAttribute('role', 'group');
        const sorted = callersOf(node).map((kid) => ({ kid, value: kid.origins.reduce((acc, id) => acc + total[m][id], 0) }));
        sorted.sort((a, b) => b.value - a.value || compareFrames(a.kid.frame, b.kid.frame));
        for (const { kid } of sorted.slice(0, CHUNK)) kids.append(traceElement(kid, whole, false));
        if (sorted.length > CHUNK) kids.append(element('div', 'row left', `(${format(sorted.length - CHUNK)} more callers not shown)`));
        item.append(kids);
      } else {
        kids.hidden = !kids.hidden;
      }
      item.setAttribute('aria-expanded', kids.hidden ? 'false' : 'true');
      arrow.textContent = kids.hidden ? '▸' : '▾';
    };
    row.addEventListener('click', toggleTrace);
    row.tabIndex = 0;
    row.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' && event.key !== ' ') return;
      event.preventDefault();
      toggleTrace();
    });
    if (open) toggleTrace();
    return item;
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

  // ---- Source: the hot methods' per-line counts in a gutter beside their source (`data.source`). ----
  let sourceMethods = [];

  function loadSource(data) {
    sourceMethods = data.source || [];
    $('tab-source').hidden = sourceMethods.length === 0;
  }

  /** The rows of a method: its source window's lines, then counted lines outside it, in line order. */
  function sourceRows(method) {
    const counts = new Map();
    for (let i = 0; i < method.counts.length; i += 2) counts.set(method.counts[i], method.counts[i + 1]);
    const text = method.text || [];
    const rows = text.map((line, i) => ({ line: method.first + i, text: line }));
    const inWindow = (line) => text.length > 0 && line >= method.first && line < method.first + text.length;
    for (const line of counts.keys()) if (!inWindow(line)) rows.push({ line, text: null });
    rows.sort((a, b) => a.line - b.line);
    return rows.map((row) => ({ ...row, bytecodes: counts.has(row.line) ? counts.get(row.line) : null }));
  }

  function renderSource() {
    const box = $('source');
    box.textContent = '';
    for (const method of sourceMethods) {
      const section = element('section', 'source-method');
      const title = element('h2', 'source-name', shownName(method.frame));
      title.title = names[method.frame];
      appendPackage(title, method.frame);
      const lineCount = method.counts.length / 2;
      const facts = `${format(method.bytecodes)} bytecodes, ${format(lineCount)} line${lineCount === 1 ? '' : 's'}`;
      section.append(title, element('p', 'hint', method.file ? `${facts}, ${method.file}` : facts));
      if (method.note) section.append(element('p', 'source-note', method.note));
      let hottest = 0;
      for (let i = 1; i < method.counts.length; i += 2) hottest = Math.max(hottest, method.counts[i]);
      const table = element('table', 'source-lines');
      const body = element('tbody');
      for (const row of sourceRows(method)) {
        const tr = element('tr', row.bytecodes === null ? 'uncounted' : 'counted');
        tr.dataset.line = row.line;
        const bar = element('td', 'heat');
        if (row.bytecodes !== null) {
          const fill = element('span');
          fill.style.width = `${hottest > 0 ? Math.max(2, (row.bytecodes * 100) / hottest) : 0}%`;
          bar.append(fill);
          tr.style.setProperty('--heat', (hottest > 0 ? row.bytecodes / hottest : 0).toFixed(3));
        }
        const code = element('td', row.text === null ? 'code missing' : 'code', row.text === null ? '(no source for this line)' : row.text);
        tr.append(
          element('td', 'num line-no', String(row.line)),
          element('td', 'num', row.bytecodes === null ? '' : format(row.bytecodes)),
          element('td', 'pct', row.bytecodes === null ? '' : percent(row.bytecodes, method.bytecodes)),
          bar, code,
        );
        body.append(tr);
      }
      table.append(body);
      section.append(table);
      box.append(section);
    }
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
    method: { render: () => { if (state.view === 'method') renderMethod(); }, shown: () => renderMethod() },
    tests: { render: () => {} },
    source: { render: () => { if (state.view === 'source') renderSource(); }, shown: () => renderSource() },
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
    status();
  }

  function start() {
    const began = performance.now();
    const data = JSON.parse($('jp-data').textContent);
    load(data, data);
    const parsed = performance.now();
    for (const m of extras) $('metric').append(new Option(m.label, m.key));
    state.metric = data.metric in own ? data.metric : 'bytecodes';
    $('metric').value = state.metric;
    header(data);
    noteHidden(data, data);
    loadThreads(data);
    loadHot(data);
    loadTests(data);
    loadSource(data);
    // Tests are ranked in the exact counts.
    tests.key = state.metric === 'calls' ? 'calls' : 'bytecodes';
    renderTests();
    openHotPath();
    renderTree();
    renderHot();
    for (const tab of document.querySelectorAll('#tabs button')) tab.addEventListener('click', () => show(tab.dataset.view));
    $('thread').addEventListener('change', (event) => openThread(Number(event.target.value)));
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
      } else if ((event.key === 'n' || event.key === 'N') && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
        // The next or the previous search match, in the tree or the graph.
        goTo(state.current + (event.key === 'N' ? state.matches.length - 1 : 1));
      } else if (event.key === 'b' && !typing && state.view === 'flame' && state.current >= 0) {
        // The callers of the match stepped to (the tree's rows take b themselves).
        openMethod(frame[state.matches[state.current]]);
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
      if (queryOf(input.value) !== state.query) search(input.value);
      else goTo(state.current + (event.shiftKey ? state.matches.length - 1 : 1));
    });
    $('regex').addEventListener('change', (event) => {
      state.regex = event.target.checked;
      state.query = null;
      search(input.value);
    });
    $('orientation').addEventListener('change', (event) => {
      state.orientation = event.target.value;
      drawFlame();
    });
    const canvas = $('flame');
    canvas.addEventListener('contextmenu', (event) => {
      const id = hit(event);
      if (id <= 0) return;
      event.preventDefault();
      openMethod(frame[id]);
    });
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
    window.jpReport = { contexts: count, parseMs: parsed - began, readyMs: performance.now() - began, rootLabel };
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
