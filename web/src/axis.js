/* The tick positions of every chart axis (uPlot's `splits` hook), their labels (`labels`: as many
 * decimals as the step needs, so no two ticks read alike), the x range of a chart whose
 * points all sit at one time, and the y range of values that are constant but for rounding. Why not uPlot's own: uPlot 1.6.32 steps from the first tick with
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

  // The y scale's range hook. uPlot pads a y range to its data; values that differ only in their
  // last digits (Zynq's APM latency, 250 ns give or take 0.01 ns of rounding) then fill the chart
  // on a 0.04 ns scale, and a constant looks like jitter. Values whose spread is at most FLAT of
  // their magnitude are drawn as the constant they are, on the range uPlot gives an exact constant
  // (from 0 to about twice the value); any other range as uPlot pads it.
  const FLAT = 1e-3;
  function yRange(u, min, max) {
    const P = typeof uPlot !== 'undefined' ? uPlot : root.uPlot;   // node tests set a global uPlot
    if (min === null || max === null || min === undefined || max === undefined || !Number.isFinite(min) || !Number.isFinite(max))
      return [null, null];
    const mag = Math.max(Math.abs(min), Math.abs(max));
    if (max - min <= FLAT * mag) {
      const mid = (min + max) / 2;
      return P.rangeNum(mid, mid, 0.1, true);
    }
    return P.rangeNum(min, max, 0.1, true);
  }

  // Decimals that tell ticks `step` apart: 0.0005 -> 4. uPlot's own labels keep at most 3
  // (Intl's default), so ticks 0.0005 apart read "0.001 0.001 0.002" on a short run or a zoom.
  function decimals(step) {
    return step > 0 && Number.isFinite(step) ? Math.max(0, Math.min(9, Math.ceil(-Math.log10(step) - 1e-9))) : 0;
  }

  const compact = typeof Intl === 'object' ? new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 2 }) : null;

  // The labels of ticks `splits`, `step` apart, each value times k (an axis in ms: 1e3): with the
  // step's decimals (grouped digits with o.group: "12,500"), or with o.compact, values of 1e4 and
  // more as "12.5K" while those stay distinct (1,000,000 and 1,000,500 both read "1M": then not).
  // Distinct ticks always get distinct labels, as far as 9 decimals can tell them apart.
  function labels(splits, step, k, o) {
    const m = k || 1, opt = o || {}, dec = decimals(step * m);
    const fixed = splits.map((v) => (v === null || v === undefined ? '' : opt.group
      ? (v * m).toLocaleString('en-US', { minimumFractionDigits: dec, maximumFractionDigits: dec }) : (v * m).toFixed(dec)));
    if (!opt.compact || !compact || !splits.some((v) => Math.abs(v * m) >= 1e4)) return fixed;
    const short = splits.map((v, i) => (v === null || v === undefined ? '' : Math.abs(v * m) >= 1e4 ? compact.format(v * m) : fixed[i]));
    return new Set(short).size === new Set(fixed).size ? short : fixed;
  }

  const api = { ticks: ticks, splits: splits, xRange: xRange, yRange: yRange, FLAT: FLAT, decimals: decimals, labels: labels, MAX_TICKS: MAX_TICKS };
  if (typeof module === 'object' && module.exports) module.exports = api;
  else root.socmonAxis = api;
})(typeof window !== 'undefined' ? window : this);
