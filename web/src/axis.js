/* The tick positions of every chart axis (uPlot's `splits` hook) and the x range of a chart whose
 * points all sit at one time. Why not uPlot's own: uPlot 1.6.32 steps from the first tick with
 * `val = round(val + incr)` while val <= max, and on a range a few ulps wide (one point at 5 s, a
 * zoom to [5, 5]) it picks incr = 1e-16, where 5 + 1e-16 rounds back to 5: the loop never ends
 * until the array is too long ("Invalid array length"), and that chart never draws again. Here
 * tick k is k * incr, so the count is known before the first push, and a range too narrow to
 * step through gets its ends as ticks. docs/charts.md says more.
 * Loaded before socmon.js (it needs window.socmonAxis); node can require it (tests/web/axis_check.js). */
(function (root) {
  'use strict';

  const MAX_TICKS = 1000;   // uPlot asks for one tick per 30-50 px: a screen never needs this many

  // decimals of a step such as 0.25 or 1e-7, as uPlot's own table gives them (at most 20, toFixed's
  // guaranteed range)
  function stepDecimals(incr) {
    let d = 0;
    while (d < 20 && Math.abs(Math.round(incr * Math.pow(10, d)) - incr * Math.pow(10, d)) > 1e-9 * incr * Math.pow(10, d)) d++;
    return d;
  }

  function roundTo(v, dec) {
    const m = Math.pow(10, dec);
    const r = Math.round(v * m * (1 + Number.EPSILON)) / m;
    return Object.is(r, -0) ? 0 : r;
  }

  // Ticks in [min, max] at the multiples of incr (forceMin: at min + k*incr, uPlot's ordinal axes).
  function ticks(min, max, incr, forceMin) {
    if (!(Number.isFinite(min) && Number.isFinite(max) && Number.isFinite(incr)) || incr <= 0 || max < min) return [];
    // a step below a few ulps of the values cannot be added to them: the range's ends instead
    const ulp = Math.max(Math.abs(min), Math.abs(max)) * Number.EPSILON;
    if (incr <= 4 * ulp) return min === max ? [min] : [min, max];
    const dec = stepDecimals(incr);
    // min / incr of 11.000000000000002 is tick 11, not 12 (uPlot snaps such ratios the same way)
    const r = min / incr;
    const first = forceMin ? min : roundTo(Math.ceil(r - 1e-9 * Math.max(1, Math.abs(r))) * incr, dec);
    const n = Math.floor((max - first) / incr + 1e-9) + 1;
    if (!(n >= 1)) return [];
    if (n > MAX_TICKS) return [min, max];
    const out = [];
    for (let k = 0; k < n; k++) {
      const v = forceMin ? first + k * incr : roundTo(first + k * incr, dec);
      if (v > max) break;
      out.push(v);
    }
    return out;
  }

  // uPlot's axis hook: (u, axisIdx, scaleMin, scaleMax, foundIncr, foundSpace, forceMin)
  function splits(u, axisIdx, min, max, incr, space, forceMin) {
    return ticks(min, max, incr, forceMin);
  }

  // The x scale's range hook: a range of (nearly) no width, one point or a zoom onto one instant,
  // widens to a millionth of its value (a microsecond at least) on each side, so the point sits
  // in the middle of the chart instead of at a division by zero.
  function xRange(u, min, max) {
    if (min === null || max === null || !Number.isFinite(min) || !Number.isFinite(max)) return [min, max];
    const span = max - min, mag = Math.max(Math.abs(min), Math.abs(max));
    if (span > 64 * mag * Number.EPSILON && span > 0) return [min, max];
    const pad = Math.max(mag * 1e-6, 1e-6);
    const mid = (min + max) / 2;
    return [mid - pad, mid + pad];
  }

  const api = { ticks: ticks, splits: splits, xRange: xRange, MAX_TICKS: MAX_TICKS };
  if (typeof module === 'object' && module.exports) module.exports = api;
  else root.socmonAxis = api;
})(typeof window !== 'undefined' ? window : this);
