/* socmon's flame graph of a program's call tree: report --html of a recording that carries a
 * profile (record -t ibex -- prog.elf). src/export/fmt_html.c writes the tree into the object
 * window.SOCMON_PROFILE ({program, events, event, funcs, nodes: [[parent, func, calls, trap,
 * [self per event]]], total}) and inlines this file after it; without a profile neither is in the
 * page. Each frame is a call-tree node, as wide as its inclusive count of the chosen event (self
 * plus everything it called), its callees on top of it, in name order (flamegraph.pl's layout).
 * Frames are HTML elements whose text is the function's name (set as text, never as markup), so
 * find-in-page and the search box see them. Click a frame to zoom into it (it fills the width,
 * its callers stay below it, dimmed; a click on one of them, on "all", Reset zoom or Escape zooms
 * back out); the search box highlights the frames whose names match and says how much of the
 * total they hold (a frame inside another matching frame counted once). window.socmonFlame
 * exposes the state to the tests (tests/web/check_page.js). */
(function () {
  'use strict';

  const P = window.SOCMON_PROFILE;
  if (!P || !P.nodes || !P.nodes.length) return;
  const ROW = 17;       // px per row of frames
  const MIN_PX = 0.5;   // a frame narrower than this at the current zoom is not drawn

  const N = P.nodes.length;
  const parent = new Int32Array(N), depth = new Int32Array(N);
  const kids = Array.from({ length: N }, () => []);
  let maxDepth = 0;
  for (let i = 1; i < N; i++) {   // parents come first
    parent[i] = P.nodes[i][0];
    kids[parent[i]].push(i);
    depth[i] = depth[parent[i]] + 1;
    if (depth[i] > maxDepth) maxDepth = depth[i];
  }
  const name = (i) => (i === 0 ? 'all' : String(P.funcs[P.nodes[i][1]]));
  const byName = (a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : P.nodes[a][3] - P.nodes[b][3]);
  kids.forEach((k) => k.sort(byName));

  const F = window.socmonFlame = {
    ready: false, zoom: 0, event: P.event || 0, total: 0, drawn: 0, hidden: 0, clipped: 0, match: null,
    name, depth: maxDepth, nodes: N,
  };
  let incl = new Float64Array(N), x0 = new Float64Array(N), w = new Float64Array(N);
  let matched = new Uint8Array(N);

  const fmtN = (v) => Number(v).toLocaleString('en');
  const pct = (v, of) => (of ? (100 * v / of).toFixed(2) : '0.00') + '%';

  // Inclusive counts of event ev from the tree's self counts, and each frame's place: [x0, x0 + w)
  // as a fraction of the root's width. A frame that counts less than nothing (a program that
  // writes its own counters) gets no width, and callees wider than their caller are clipped to it.
  function layout(ev) {
    incl = new Float64Array(N);
    for (let i = 0; i < N; i++) incl[i] = Number(P.nodes[i][4][ev]);
    for (let i = N - 1; i > 0; i--) incl[parent[i]] += incl[i];
    F.total = incl[0];
    F.incl = incl;
    x0 = new Float64Array(N);
    w = new Float64Array(N);
    F.clipped = 0;
    if (!(incl[0] > 0)) return;
    w[0] = 1;
    for (let i = 0; i < N; i++) {
      let x = x0[i];
      const end = x0[i] + w[i];
      for (const c of kids[i]) {
        let cw = incl[c] > 0 ? incl[c] / incl[0] : 0;
        if (incl[c] < 0 || x + cw > end * (1 + 1e-12)) { cw = Math.max(0, Math.min(cw, end - x)); F.clipped++; }
        x0[c] = x;
        w[c] = cw;
        x += cw;
      }
    }
  }

  // hue from the name: warm for functions, blue for trap handlers' frames
  function colour(i) {
    if (i === 0) return 'hsl(0, 0%, 82%)';
    const s = name(i);
    let h = 0;
    for (let k = 0; k < s.length; k++) h = (h * 31 + s.charCodeAt(k)) >>> 0;
    const trap = P.nodes[i][3];
    return 'hsl(' + ((trap ? 195 : 8) + (h % 45)) + ', 75%, ' + (60 + ((h >> 8) % 14)) + '%)';
  }

  function tip(i) {
    const ev = P.events[F.event];
    const n = P.nodes[i];
    let t = name(i) + '\n' + fmtN(incl[i]) + ' ' + ev + ' (' + pct(incl[i], F.total) + ' of all)';
    if (i) t += ', self ' + fmtN(n[4][F.event]) + '\n' + fmtN(n[2]) + (n[2] === 1 ? ' call' : ' calls') +
      (n[3] ? ', entered by a trap' : '');
    return t;
  }

  // ---- the section ----

  const el = (tag, props) => Object.assign(document.createElement(tag), props || {});
  let graph, found, reset, search, pick;

  function build() {
    const sec = el('section', { id: 'flame' });
    const head = el('div', { className: 'flame-head' });
    head.appendChild(el('h2', { textContent: 'Flame graph: ' + (P.program || 'the program') }));
    const lab = el('label', { textContent: 'Width ' });
    pick = el('select', { id: 'flame-event' });
    P.events.forEach((e, k) => pick.appendChild(el('option', { value: String(k), textContent: e })));
    pick.value = String(F.event);
    lab.appendChild(pick);
    head.appendChild(lab);
    search = el('input', { type: 'search', id: 'flame-search', placeholder: 'search functions (text, or /regex/)' });
    search.setAttribute('aria-label', 'search functions');
    head.appendChild(search);
    reset = el('button', { type: 'button', id: 'flame-reset', textContent: 'Reset zoom', disabled: true });
    head.appendChild(reset);
    found = el('span', { id: 'flame-found', className: 'flame-found' });
    found.setAttribute('role', 'status');
    head.appendChild(found);
    sec.appendChild(head);
    sec.appendChild(el('p', {
      className: 'flame-help', textContent: 'The call tree: each frame as wide as its inclusive count (itself and ' +
        'everything it called), its callees on top. Click a frame to zoom into it; Reset zoom, Escape or a click ' +
        'on a frame below zooms out. Hover for the counts.',
    }));
    const note = el('p', { className: 'flame-help', id: 'flame-note' });
    sec.appendChild(note);
    graph = el('div', { className: 'flame-graph', id: 'flame-graph' });
    sec.appendChild(graph);
    (document.querySelector('main') || document.body).appendChild(sec);

    graph.addEventListener('click', (e) => {
      const f = e.target.closest('.frame');
      if (f) zoomTo(Number(f.dataset.node));
    });
    reset.addEventListener('click', () => zoomTo(0));
    document.addEventListener('keydown', (e) => { if (e.key === 'Escape' && F.zoom) zoomTo(0); });
    search.addEventListener('input', () => { mark(); render(); });
    pick.addEventListener('change', () => { F.event = Number(pick.value); relayout(); });
    let pending = 0;
    window.addEventListener('resize', () => { clearTimeout(pending); pending = setTimeout(render, 100); });
  }

  function notes() {
    const t = [];
    const ev = P.events[F.event];
    if (!(F.total > 0)) t.push('No frame counted any ' + ev + ': nothing to draw for this event.');
    else if (P.total && Number(P.total[F.event]) !== F.total)
      t.push('The call tree holds ' + fmtN(F.total) + ' ' + ev + ', the whole-program counter ' +
        fmtN(P.total[F.event]) + ': the profile does not add up.');
    if (F.clipped) t.push((F.clipped === 1 ? '1 frame counts' : F.clipped + ' frames count') + ' less than nothing ' +
      'or more than its caller (a program that writes its own counters does that): clipped to fit.');
    document.getElementById('flame-note').textContent = t.join(' ');
  }

  function relayout() {
    layout(F.event);
    notes();
    mark();
    render();
  }

  function zoomTo(i) {
    F.zoom = i >= 0 && i < N && w[i] > 0 ? i : 0;
    reset.disabled = F.zoom === 0;
    render();
  }

  // The frames whose names match the search; their share of the total, each counted once.
  function mark() {
    const q = search.value;
    matched = new Uint8Array(N);
    F.match = null;
    if (!q) { found.textContent = ''; return; }
    let test;
    if (q.length > 2 && q[0] === '/' && q[q.length - 1] === '/') {
      let re;
      try { re = new RegExp(q.slice(1, -1)); } catch (e) { found.textContent = 'not a regular expression: ' + e.message; return; }
      test = (s) => re.test(s);
    } else {
      const lq = q.toLowerCase();
      test = (s) => s.toLowerCase().includes(lq);
    }
    const under = new Uint8Array(N);   // inside a matching frame (itself included)
    const funcs = new Set();
    let frames = 0, value = 0;
    for (let i = 1; i < N; i++) {
      if (test(name(i))) {
        matched[i] = 1;
        frames++;
        funcs.add(P.nodes[i][1]);
        if (!under[parent[i]]) value += incl[i];
      }
      under[i] = under[parent[i]] || matched[i];
    }
    F.match = { frames, functions: funcs.size, value, share: F.total > 0 ? value / F.total : 0 };
    found.textContent = frames ? frames + ' frame' + (frames > 1 ? 's' : '') + ' of ' + funcs.size + ' function' +
      (funcs.size > 1 ? 's' : '') + ' match: ' + fmtN(value) + ' ' + P.events[F.event] + ', ' + pct(value, F.total) +
      ' of all' : 'no function matches';
  }

  function render() {
    const W = graph.clientWidth || 1000;
    const z = F.zoom, zx = x0[z], zw = w[z] || 1;
    const anc = new Uint8Array(N);
    for (let a = z; ; a = parent[a]) { anc[a] = 1; if (a === 0) break; }
    const within = new Uint8Array(N);
    within[z] = 1;
    const show = [];
    let hidden = 0, deepest = 0;
    for (let i = 0; i < N; i++) {
      if (i > z && within[parent[i]]) within[i] = 1;
      let left, width;
      if (anc[i]) { left = 0; width = 1; } else if (within[i]) { left = (x0[i] - zx) / zw; width = w[i] / zw; } else continue;
      if (!(F.total > 0) || width * W < MIN_PX) { if (w[i] > 0) hidden++; continue; }
      show.push([i, left, width]);
      if (depth[i] > deepest) deepest = depth[i];
    }
    const frag = document.createDocumentFragment();
    for (const [i, left, width] of show) {
      const d = document.createElement('div');
      d.className = 'frame' + (anc[i] && i !== z ? ' ancestor' : '') + (i === z && z ? ' zoomed' : '') +
        (matched[i] ? ' match' : '');
      d.style.left = (100 * left) + '%';
      d.style.width = (100 * width) + '%';
      d.style.top = ((deepest - depth[i]) * ROW) + 'px';
      d.style.background = colour(i);
      d.dataset.node = String(i);
      d.textContent = name(i);
      d.title = tip(i);
      frag.appendChild(d);
    }
    graph.textContent = '';
    graph.style.height = ((deepest + 1) * ROW) + 'px';
    graph.appendChild(frag);
    F.drawn = show.length;
    F.hidden = hidden;
  }

  function start() {
    build();
    relayout();
    F.ready = true;
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
