/* The ESP tile-grid heat map: one canvas per quantity (NoC injections, NoC backpressure), one
 * cell per tile at its place in the grid (info.layout, export/web_json.c), coloured by the
 * quantity's rate (per second: the interval's count over its length, labelled as units.js says
 * rates, like the counter charts) in one interval: the latest row live, or the row under the charts' cursor.
 * The plane picker chooses one NoC plane (counter deltas: live, socmon.js subscribes to that
 * plane's counters) or all planes (the per-tile metrics noc_injections and noc_backpressure).
 * A plain canvas, not uPlot: a grid is not a time series. */
(function () {
  'use strict';

  // viridis, sampled: dark (little) to yellow (much); readable in grey, safe for colour blindness
  const STOPS = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
  const EMPTY = '#d9d9d9';

  function colour(f) {
    f = Math.max(0, Math.min(1, f)) * (STOPS.length - 1);
    const i = Math.min(STOPS.length - 2, Math.floor(f)), t = f - i;
    const c = STOPS[i].map((v, k) => Math.round(v + (STOPS[i + 1][k] - v) * t));
    return 'rgb(' + c.join(',') + ')';
  }

  function el(tag, attrs, parent) {
    const e = document.createElement(tag);
    Object.assign(e, attrs || {});
    if (parent) parent.appendChild(e);
    return e;
  }

  const U = window.socmonUnits;
  const KINDS = [
    { key: 'inj', title: 'NoC injections', unit: U.rate('flits'), metric: 'noc_injections', counter: (p) => ['noc_inj_p' + p] },
    { key: 'bp', title: 'NoC backpressure (input-FIFO-full cycles, model only)', unit: U.rate('cycles'), metric: 'noc_backpressure',
      counter: (p, dirs) => dirs.map((d) => 'noc_stop_p' + p + '_' + d) },
  ];

  // store: socmon.js's columns {xs, m: [cols], d: Map(name -> col), dt: [ms]}; opts.onPlane(p)
  // is called when the user picks a plane (p: 'all' or a number).
  window.socmonHeatmap = function (root, info, store, opts) {
    const lay = info.layout, tiles = lay.tiles;
    const metricIdx = new Map(info.metrics.map((m, i) => [m.name, i]));
    const dirs = [...new Set(info.counters.map((c) => (c.counter.match(/^noc_stop_p0_(\w+)$/) || [])[1]).filter(Boolean))];
    const H = { plane: 'all', idx: null, values: {}, max: {} };
    root.hidden = false;
    const head = el('div', { className: 'heat-head' }, root);
    el('h2', { textContent: 'NoC per tile' }, head);
    const lab = el('label', { textContent: 'plane ' }, head);
    const pick = el('select', { id: 'plane' }, lab);
    el('option', { value: 'all', textContent: 'all planes' }, pick);
    for (let p = 0; p < (lay.planes || 0); p++) el('option', { value: String(p), textContent: 'plane ' + p }, pick);
    const when = el('span', { className: 'heat-when' }, head);
    const row = el('div', { className: 'heat-row' }, root);
    const tip = el('div', { className: 'heat-tip', hidden: true }, root);
    const panes = KINDS.map((k) => {
      const box = el('figure', { className: 'heat-pane' }, row);
      el('figcaption', { textContent: k.title + ' (' + k.unit + ')' }, box);
      const cv = el('canvas', { className: 'heat-grid' }, box);
      const leg = el('div', { className: 'heat-legend' }, box);
      const bar = el('canvas', { className: 'heat-bar', width: 200, height: 12 }, leg);
      const lo = el('span', { textContent: '0' }, leg), hi = el('span', { textContent: '' }, leg);
      const g = bar.getContext('2d');
      for (let x = 0; x < bar.width; x++) { g.fillStyle = colour(x / (bar.width - 1)); g.fillRect(x, 0, 1, bar.height); }
      cv.addEventListener('mousemove', (ev) => hover(k, cv, ev));
      cv.addEventListener('mouseleave', () => { tip.hidden = true; });
      return { kind: k, cv: cv, hi: hi, lo: lo };
    });
    pick.addEventListener('change', () => {
      H.plane = pick.value === 'all' ? 'all' : Number(pick.value);
      H.max = {};
      if (opts.onPlane) opts.onPlane(H.plane);
      draw(H.idx);
    });

    // The columns a tile's value sums, for a kind and plane: [['m', index] | ['d', name], ...]
    function sources(k, inst) {
      if (H.plane === 'all') {
        const i = metricIdx.get(inst + '.' + k.metric);
        return i === undefined ? [] : [['m', i]];
      }
      return k.counter(H.plane, dirs).map((c) => ['d', inst + '.' + c]);
    }

    // A tile's rate in row i (per second of the interval), or null: no such monitor or no data.
    function value(k, inst, i) {
      const dt = store.dt[i];
      if (!dt) return null;
      let sum = null;
      for (const [kind, key] of sources(k, inst)) {
        const col = kind === 'm' ? store.m[key] : store.d.get(key);
        const v = col ? col[i] : null;
        if (v !== null && v !== undefined && isFinite(v)) sum = (sum || 0) + v;
      }
      return sum === null ? null : sum / (dt / 1e3);
    }

    // The largest rate of any tile over all rows held: the colour scale, so colours compare
    // over time. Scanned incrementally (a live page adds rows, never changes them).
    function maxOf(k) {
      const key = k.key + ':' + H.plane;
      const c = H.max[key] || (H.max[key] = { n: 0, max: 0 });
      if (c.n > store.xs.length) { c.n = 0; c.max = 0; }
      for (; c.n < store.xs.length; c.n++)
        for (const t of tiles) {
          const v = value(k, t.instance, c.n);
          if (v !== null && v > c.max) c.max = v;
        }
      return c.max;
    }

    const fmt = U.sig3;

    function drawPane(p, i) {
      const k = p.kind, cv = p.cv, dpr = window.devicePixelRatio || 1;
      const cell = Math.max(28, Math.min(72, Math.floor(360 / Math.max(lay.cols, lay.rows))));
      const w = lay.cols * cell, h = lay.rows * cell;
      if (cv.width !== w * dpr) { cv.width = w * dpr; cv.height = h * dpr; cv.style.width = w + 'px'; cv.style.height = h + 'px'; }
      const g = cv.getContext('2d');
      g.setTransform(dpr, 0, 0, dpr, 0, 0);
      g.clearRect(0, 0, w, h);
      const max = maxOf(k);
      p.hi.textContent = fmt(max) + ' ' + k.unit;
      H.values[k.key] = {};
      g.font = Math.max(9, Math.floor(cell / 5)) + 'px sans-serif';
      g.textAlign = 'center';
      for (const t of tiles) {
        const v = i === null ? null : value(k, t.instance, i);
        H.values[k.key][t.instance] = v;
        const f = v === null ? null : max > 0 ? v / max : 0;
        g.fillStyle = f === null ? EMPTY : colour(f);
        g.fillRect(t.x * cell + 1, t.y * cell + 1, cell - 2, cell - 2);
        g.fillStyle = f !== null && f < 0.6 ? '#fff' : '#111';
        g.fillText(t.instance.replace('tile', 't'), t.x * cell + cell / 2, t.y * cell + cell / 2 - 2);
        g.fillText(t.type, t.x * cell + cell / 2, t.y * cell + cell / 2 + cell / 4);
      }
      p.cell = cell;
    }

    function hover(k, cv, ev) {
      const p = panes.find((q) => q.cv === cv), r = cv.getBoundingClientRect();
      const x = Math.floor((ev.clientX - r.left) / p.cell), y = Math.floor((ev.clientY - r.top) / p.cell);
      const t = tiles.find((q) => q.x === x && q.y === y);
      if (!t) { tip.hidden = true; return; }
      const v = (H.values[k.key] || {})[t.instance];
      tip.textContent = t.instance + ' (' + t.type + ', x ' + t.x + ', y ' + t.y + '): ' +
        (v === null || v === undefined ? 'no data' : fmt(v) + ' ' + k.unit);
      tip.hidden = false;
      const rr = root.getBoundingClientRect();
      tip.style.left = (ev.clientX - rr.left + 12) + 'px';
      tip.style.top = (ev.clientY - rr.top + 12) + 'px';
    }

    // Shows row i (null: nothing to show yet).
    function draw(i) {
      H.idx = i;
      when.textContent = i === null ? 'no data yet' : 'interval ending at ' + U.time(store.xs[i]) + (opts.hint ? opts.hint(i) : '');
      panes.forEach((p) => drawPane(p, i));
    }

    H.draw = draw;
    H.reset = () => { H.max = {}; };
    draw(null);
    return H;
  };
})();
