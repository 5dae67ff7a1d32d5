/* How the page writes numbers, times and units, in one place so the charts, their legends, the
 * heat map and the summary table say the same thing in the same words:
 *   - numbers to 3 significant digits, with k/M/G/T past a thousand (1.23M, 456, 0.0123);
 *   - times to 3 significant digits in a unit that suits them (200 µs, 8.25 ms, 1.5 s);
 *   - a metric that counts events in each interval (packets, cycles, ...) is "per interval (T)",
 *     a counter's delta over its interval's length is "/s". docs/charts.md lists the units.
 * Loaded before socmon.js; node can require it (tests/web/units_check.js). */
(function (root) {
  'use strict';

  // Metric units that count events in one interval: their values depend on the interval's
  // length, so their labels name it. The metric files' other units are rates, ratios, shares,
  // times or names (metrics/*.json): they read the same at any interval.
  const COUNTS = new Set(['packets', 'flits', 'cycles', 'messages', 'accesses', 'invocations', 'txns', 'transactions',
    'instructions', 'events', 'bytes', 'beats', 'faults', 'misses', 'hits']);

  const SUFFIX = [[1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k']];

  // toPrecision(3) without the zeros it pads with: 8.25, 2, 0.5, 1.23e-7
  function prec3(v) {
    const s = v.toPrecision(3);
    return s.includes('e') ? expo(v) : trim(s);
  }

  // 5e-5, 1.23e15: a mantissa of 3 significant digits
  function expo(v) {
    const [m, e] = v.toExponential(2).split('e');
    return trim(m) + 'e' + e.replace('+', '');
  }

  function trim(s) {
    return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
  }

  // A number as a person reads it at once: 3 significant digits, k/M/G/T above a thousand.
  function sig3(v) {
    if (v === null || v === undefined || !isFinite(v)) return '–';
    if (v === 0) return '0';
    const a = Math.abs(v);
    if (a >= 1e15 || a < 1e-4) return expo(v);
    for (const [k, s] of SUFFIX) {
      // 999.7k rounds to 1000k: that is 1M
      if (a >= k * 0.9995) {
        const r = Number((v / k).toPrecision(3));
        if (Math.abs(r) < 1000) return prec3(r) + s;
      }
    }
    return prec3(Number(v.toPrecision(3)));
  }

  // A time in seconds: 3 significant digits in ns, µs, ms or s (what a header shows).
  function time(sec) {
    if (sec === null || sec === undefined || !isFinite(sec)) return '–';
    const a = Math.abs(sec);
    // the unit is chosen on the rounded value: 999.96 µs is 1 ms, not 1000 µs
    const r = a === 0 ? 0 : Number(a.toPrecision(3));
    const unit = r === 0 ? [1, 's'] : r < 1e-6 ? [1e-9, 'ns'] : r < 1e-3 ? [1e-6, 'µs'] : r < 1 ? [1e-3, 'ms'] : [1, 's'];
    return (sec < 0 ? '-' : '') + prec3(r / unit[0]) + ' ' + unit[1];
  }

  // Whether a metric (its unit, and its definition's name when known) counts events per
  // interval. An average or a latency in a count's unit (Zynq's avg_wr_latency, in cycles) is a
  // per-event figure: it does not grow with the interval.
  function isCount(unit, name) {
    if (name && /(^|_)(avg|mean)(_|$)|latency/i.test(name)) return false;
    return COUNTS.has(String(unit || '').trim());
  }

  // A metric's unit as a chart's axis and title say it: "packets per interval (200 µs)" for a
  // count (intervalNs: the length of one row of the page; name: the metric's definition), else
  // the unit as it is.
  function chartUnit(unit, intervalNs, name) {
    if (!isCount(unit, name)) return unit || '';
    return unit + ' ' + perInterval(intervalNs);
  }

  function perInterval(intervalNs) {
    return 'per interval' + (intervalNs > 0 ? ' (' + time(intervalNs / 1e9) + ')' : '');
  }

  // The unit of a count divided by its interval's length: the heat map and counter charts.
  function rate(unit) {
    return (unit || 'events') + '/s';
  }

  const api = { sig3: sig3, time: time, isCount: isCount, chartUnit: chartUnit, perInterval: perInterval, rate: rate };
  if (typeof module === 'object' && module.exports) module.exports = api;
  else root.socmonUnits = api;
})(typeof window !== 'undefined' ? window : this);
