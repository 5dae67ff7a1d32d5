/* What a chart's legend and lines say when nobody hovers:
 *   - the legend gives each series' last, mean and max over the time range in view (the cursor
 *     off the chart), so a reader gets the numbers without hunting for them with the mouse;
 *     hovering gives the value at the cursor, as before;
 *   - series whose values are all identical (idle tiles, two planes nobody uses), or so close
 *     that their lines coincide (within TOL of the chart's value range, under a pixel), would be
 *     drawn one over the other, and the reader would see one line where the legend lists
 *     several: each later one of a group gets its own dash pattern (and markers where the points
 *     are few enough to see), so the one below shows through.
 * socmon.js builds the uPlot options with these; window.socmonLegend. */
(function () {
  'use strict';

  const U = window.socmonUnits;
  // the 2nd, 3rd, ... series of an identical group; the first keeps its solid line
  const DASHES = [[8, 4], [2, 3], [12, 3, 2, 3], [4, 4], [1, 5], [16, 4]];
  const TOL = 0.002;   // of the chart's value range: under one pixel of a 220 px chart

  // last, mean and max of series sidx over the x range in view (finite values only)
  function stats(u, sidx) {
    const xs = u.data[0], ys = u.data[sidx] || [];
    const lo = u.scales.x.min, hi = u.scales.x.max;
    let n = 0, sum = 0, max = -Infinity, last = null;
    for (let i = 0; i < xs.length; i++) {
      if (lo !== null && lo !== undefined && (xs[i] < lo || xs[i] > hi)) continue;
      const v = ys[i];
      if (v === null || v === undefined || !isFinite(v)) continue;
      n++; sum += v; last = v;
      if (v > max) max = v;
    }
    return n ? { n: n, last: last, mean: sum / n, max: max } : { n: 0, last: null, mean: null, max: null };
  }

  // The legend text of a series with the cursor away: "last 1.2k · mean 950 · max 2.3k MB/s".
  // empty (optional): what to say instead of "no data in view" while the page has no row at all
  // (a live page before the first sample: it is waiting, not empty), or null.
  function summary(u, sidx, unit, labels, empty) {
    const st = stats(u, sidx);
    if (!st.n) return (!u.data[0].length && empty && empty()) || 'no data in view';
    if (labels) return 'last ' + (labels[st.last] || U.sig3(st.last));
    return 'last ' + U.sig3(st.last) + ' · mean ' + U.sig3(st.mean) + ' · max ' + U.sig3(st.max) + (unit ? ' ' + unit : '');
  }

  // A series' legend value: at the cursor (hover(v)) or, with no cursor, the summary.
  function value(unit, labels, hover, empty) {
    return (u, v, sidx, idx) => (idx === null || idx === undefined ? summary(u, sidx, unit, labels, empty) : hover(v));
  }

  // Whether two columns draw the same line: gaps at the same points, values within tol.
  function same(a, b, tol) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      const x = a[i] === undefined ? null : a[i], y = b[i] === undefined ? null : b[i];
      if (x === y) continue;
      if (x === null || y === null) return false;
      if (Number.isFinite(x) && Number.isFinite(y) ? Math.abs(x - y) > tol : !(Number.isNaN(x) && Number.isNaN(y))) return false;
    }
    return true;
  }

  // For each column, how many earlier columns draw the same line (0: it is drawn as is). Pairwise,
  // each comparison stopping at the first difference: a chart's few dozen series at most.
  function ranks(cols) {
    let lo = Infinity, hi = -Infinity;
    for (const c of cols) for (const v of c) if (Number.isFinite(v)) { if (v < lo) lo = v; if (v > hi) hi = v; }
    const tol = hi > lo ? TOL * (hi - lo) : 0;
    return cols.map((c, i) => {
      let r = 0;
      for (let j = 0; j < i; j++) if (same(cols[j], c, tol)) r++;
      return r;
    });
  }

  // Points are drawn where they are far enough apart to see: one per 10 px of plot (uPlot's own
  // rule, about), one per 4 px for a series drawn over an identical one.
  function showPoints(u, si) {
    const idxs = u.series[0].idxs;
    if (!idxs) return false;
    const n = idxs[1] - idxs[0] + 1, w = u.bbox.width / (window.devicePixelRatio || 1);
    return n <= w / (u.series[si].smnRank ? 4 : 10);
  }

  // Sets the dash of uPlot series objects from the columns (the options before the chart exists,
  // u.series after: uPlot reads dash at every draw); series[0] is the x series. Returns whether
  // any changed (then markers(u) redraws the legend's).
  function distinguish(series, cols) {
    const r = ranks(cols);
    let changed = false;
    r.forEach((rank, k) => {
      const s = series[k + 1];
      if (!s || s.smnRank === rank) return;
      changed = true;
      s.smnRank = rank;
      s.dash = rank ? DASHES[(rank - 1) % DASHES.length] : undefined;
    });
    return changed;
  }

  // The legend's markers drawn as their lines are: dashed for a series over an identical one.
  function markers(u) {
    const rows = u.root.querySelectorAll('.u-legend .u-series');
    u.series.forEach((s, i) => {
      const mark = i && rows[i] && rows[i].querySelector('.u-marker');
      if (mark) mark.style.borderStyle = s.smnRank ? 'dashed' : 'solid';
    });
  }

  // uPlot hooks: a zoom or new data with the cursor off the chart refreshes the summaries
  // (uPlot itself refreshes the legend on those only while the cursor is on the chart).
  function refresh(u) {
    if (u.cursor.idx === null || u.cursor.idx === undefined || u.cursor.left < 0) u.setLegend({ idx: null }, false);
  }

  window.socmonLegend = { stats: stats, summary: summary, value: value, ranks: ranks, distinguish: distinguish, markers: markers,
    showPoints: showPoints, refresh: refresh, DASHES: DASHES };
})();
