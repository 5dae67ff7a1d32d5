// web/src/axis.js, the charts' tick and x-range hooks (run by axis.test.sh).
// 1. In node: tick labels are distinct for distinct ticks (a step of 0.0005 reads 0.0010 0.0015, not
//    0.001 0.002); the y range of values constant but for rounding spans from 0, others are as
//    uPlot pads them; on ranges where uPlot 1.6.32's tick loop never ends (a range a few ulps wide, the step
//    1e-16 it picks there) the hooks give a short finite list; on ordinary ranges the same ticks as
//    uPlot's loop (written out below, capped, as the reference); bad arguments give no ticks.
// 2. In Debian's chromium, the real uPlot: a chart of one point at 5 s zoomed to [5, 5] (what
//    "Follow live" does with one row) raises "Invalid array length" with uPlot's own hooks, and
//    draws, without any page error, with ours.
//    uPlot's own failure is the loop pushing ticks until the array is too long: about 15 s of
//    chromium's CPU. It runs when node_modules holds another uPlot than 1.6.32 (the version it
//    was seen to fail in, and the one web/package.json pins: a new one may have fixed it, and then
//    axis.js can go), or with --canary.
// Usage: node axis_check.js [--no-browser] [--canary]. Exit 0: all good; 1: a check failed
// (reasons on stderr).
'use strict';
const path = require('path');
const fs = require('fs');
const src = process.env.SOCMON_SRC || path.join(__dirname, '..', '..');
const axis = require(path.join(src, 'web', 'src', 'axis.js'));

let failed = 0, checked = 0;
function check(cond, what) {
  checked++;
  if (!cond) { failed++; console.error('axis_check: FAIL: ' + what); }
}
const same = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);

// uPlot 1.6.32's numAxisSplits with its helpers, as the reference; `cap` stops the loop that in
// uPlot has no end (returns null then)
function fixFloat(v) { return Number.parseFloat(v.toPrecision(15)); }
function roundDec(val, dec) {
  if (Number.isInteger(val)) return val;
  const p = Math.pow(10, dec);
  return Math.round(val * p * (1 + Number.EPSILON)) / p;
}
function uplotSplits(min, max, incr, dec, cap) {
  const out = [];
  let val = roundDec(fixFloat(Math.ceil(fixFloat(min / incr)) * incr), dec);
  for (; val <= max; val = roundDec(val + incr, dec)) {
    if (out.length >= cap) return null;
    out.push(Object.is(val, -0) ? 0 : val);
  }
  return out;
}

// ---- 1. the degenerate ranges ----
const ulp5 = 5 + 8.881784197001252e-16;   // the next double after 5
check(uplotSplits(5, 5, 1e-16, 16, 1e6) === null, "the reference loop ends on [5, 5] by 1e-16 (it should not: uPlot's bug)");
check(uplotSplits(5, ulp5, 1e-16, 16, 1e6) === null, 'the reference loop ends on [5, 5+ulp] by 1e-16');
check(same(axis.ticks(5, 5, 1e-16), [5]), '[5, 5] by 1e-16: ' + JSON.stringify(axis.ticks(5, 5, 1e-16)));
check(same(axis.ticks(5, ulp5, 1e-16), [5, ulp5]), '[5, 5+ulp] by 1e-16: ' + JSON.stringify(axis.ticks(5, ulp5, 1e-16)));
check(same(axis.ticks(6e7, 6e7 + 1e-8, 1e-9), [6e7, 6e7 + 1e-8]), '[6e7, 6e7+1e-8] by 1e-9: ' + JSON.stringify(axis.ticks(6e7, 6e7 + 1e-8, 1e-9)));
check(axis.ticks(0, 1e6, 1e-3).length === 2, 'a million ticks are capped to the ends');
for (const bad of [[0, 1, 0], [0, 1, -1], [0, 1, NaN], [NaN, 1, 0.1], [0, Infinity, 1], [1, 0, 0.1], [null, 1, 0.1]])
  check(same(axis.ticks(bad[0], bad[1], bad[2]), []), 'no ticks for ' + JSON.stringify(bad) + ': ' + JSON.stringify(axis.ticks(...bad)));
// ends on a tick whose quotient falls just short ((0.7 - 0.1) / 0.1 = 5.999999999999999), or
// starts on one just over (1.1 / 0.1 = 11.000000000000002)
for (const [a, b, i, d] of [[0.1, 0.7, 0.1, 1], [1.1, 1.5, 0.1, 1], [0.3, 0.9, 0.3, 1]])
  check(same(axis.ticks(a, b, i), uplotSplits(a, b, i, d, 100)), '[' + a + ', ' + b + '] by ' + i + ': ' +
    JSON.stringify(axis.ticks(a, b, i)) + ', uPlot ' + JSON.stringify(uplotSplits(a, b, i, d, 100)));
check(same(axis.ticks(0, 1, 0.25, true), [0, 0.25, 0.5, 0.75, 1]), 'forceMin from 0 by 0.25');
check(same(axis.ticks(-1e-17, 1e-17, 0.1), [0]) && !Object.is(axis.ticks(-0.05, 0.05, 0.1)[0], -0), 'no -0 tick');

// ---- 1b. ordinary ranges: the same ticks as uPlot ----
// the steps uPlot picks from (1, 2, 2.5, 5 times a power of ten) with their decimals
const steps = [];
for (let e = -9; e < 10; e++) for (const m of [1, 2, 2.5, 5]) {
  const incr = Number(m + 'e' + e);
  steps.push([incr, Math.max(0, -e) + (m === 2.5 && e < 1 ? 1 : 0)]);
}
let seed = 12345;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
let compared = 0, mismatches = 0;
for (let n = 0; n < 20000; n++) {
  const [incr, dec] = steps[Math.floor(rnd() * steps.length)];
  // from 2 to 40 ticks, starting anywhere within +-1000 steps of 0, sometimes on a tick exactly
  const span = incr * (1 + rnd() * 39);
  const min = rnd() < 0.3 ? roundDec(Math.round((rnd() - 0.5) * 2000) * incr, dec) : (rnd() - 0.5) * 2000 * incr;
  const max = min + span;
  const ref = uplotSplits(min, max, incr, dec, 1e5);
  if (ref === null) continue;
  compared++;
  const got = axis.ticks(min, max, incr);
  if (!same(got, ref)) {
    if (mismatches++ < 5) console.error('axis_check: [' + min + ', ' + max + '] by ' + incr + ': ' + JSON.stringify(got) + ', uPlot ' + JSON.stringify(ref));
  }
}
check(compared > 19000 && mismatches === 0, mismatches + ' of ' + compared + ' ordinary ranges tick differently from uPlot');

// ---- 1c. the x range ----
const r = axis.xRange(null, 5, 5);
check(r[0] < 5 && r[1] > 5 && Math.abs(r[1] - r[0] - 1e-5) < 1e-12, 'one instant at 5 s widens to +-5 us: ' + JSON.stringify(r));
check(same(axis.xRange(null, 0, 0), [-1e-6, 1e-6]), 'one instant at 0 widens to +-1 us: ' + JSON.stringify(axis.xRange(null, 0, 0)));
check(same(axis.xRange(null, 1.5, 2.5), [1.5, 2.5]), 'an ordinary range stays: ' + JSON.stringify(axis.xRange(null, 1.5, 2.5)));
check(same(axis.xRange(null, null, null), [null, null]), 'no data stays no range');

// ---- 1d. tick labels: distinct for distinct ticks (uPlot's own keep 3 decimals) ----
const distinct = (a) => new Set(a).size === a.length;
for (const [min, max, incr, k] of [[0, 0.008, 0.0005, 1], [0.0011, 0.0024, 0.0001, 1], [0, 2.5e-5, 2.5e-6, 1e3],
  [1e6, 1.003e6, 500, 1], [0, 1e5, 2.5e4, 1], [-0.003, 0.003, 0.0025, 1]]) {
  const t = axis.ticks(min, max, incr);
  for (const o of [{}, { group: true }, { compact: true }]) {
    const l = axis.labels(t, incr, k, o);
    check(t.length > 1 && distinct(l), 'labels of ticks ' + JSON.stringify(t) + ' by ' + incr + ' x' + k + ' ' + JSON.stringify(o) + ': ' + l.join(' '));
  }
}
check(axis.labels([0.001, 0.0015, 0.002], 0.0005).join(' ') === '0.0010 0.0015 0.0020', 'the step\'s decimals: ' + axis.labels([0.001, 0.0015, 0.002], 0.0005).join(' '));
check(axis.labels([0, 5000, 10000], 5000, 1, { group: true }).join(' ') === '0 5,000 10,000', 'grouped: ' + axis.labels([0, 5000, 10000], 5000, 1, { group: true }).join(' '));
check(axis.labels([0, 25000, 50000], 25000, 1, { compact: true }).join(' ') === '0 25K 50K', 'compact: ' + axis.labels([0, 25000, 50000], 25000, 1, { compact: true }).join(' '));

// ---- 1e. the y range: a constant but for rounding spans from 0, anything else as uPlot pads it ----
global.uPlot = require(path.join(process.env.SOCMON_WEB_MODULES || path.join(src, 'web', 'node_modules'), 'uplot'));
for (const [lo, hi] of [[249.99, 250.01], [250, 250], [49.9999, 50.0001], [-3.0001, -3], [1e-9, 1e-9 * (1 + 1e-4)]]) {
  const [a, b] = axis.yRange(null, lo, hi), mag = Math.max(Math.abs(lo), Math.abs(hi));
  check(a <= Math.min(0, lo) && b >= Math.max(0, hi) && b - a >= mag, 'a constant ' + lo + '..' + hi + ' spans from 0: ' + JSON.stringify([a, b]));
}
for (const [lo, hi] of [[10, 90], [249, 251], [0, 1e-12], [-5, 5]])
  check(same(axis.yRange(null, lo, hi), uPlot.rangeNum(lo, hi, 0.1, true)), lo + '..' + hi + ' as uPlot pads it: ' + JSON.stringify(axis.yRange(null, lo, hi)));
check(same(axis.yRange(null, null, null), [null, null]), 'no data: no y range');

console.log('axis_check: node: ' + checked + ' checks, ' + compared + ' ordinary ranges compared with uPlot\'s loop');

// ---- 2. the real uPlot in chromium ----
async function browser() {
  const modules = process.env.SOCMON_WEB_MODULES || path.join(src, 'web', 'node_modules');
  const { chromium } = require(path.join(modules, 'playwright-core'));
  const b = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium' });
  try {
    const page = await b.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const uplot = fs.readFileSync(path.join(modules, 'uplot', 'dist', 'uPlot.iife.min.js'), 'utf8');
    const axisSrc = fs.readFileSync(path.join(src, 'web', 'src', 'axis.js'), 'utf8');
    await page.setContent('<!DOCTYPE html><html><body><div id="c"></div><script>' + uplot + '</script><script>' +
      axisSrc + '</script></body></html>');
    // one chart of one point at 5 s, then the x range set to [5, 5]; commits run in microtasks,
    // so errors arrive as page errors after a frame
    const run = async (ours) => {
      errors.length = 0;
      const res = await page.evaluate(async (ours) => {
        const opts = { width: 600, height: 220, series: [{}, { stroke: 'red' }], scales: { x: { time: false } }, axes: [{}, {}] };
        if (ours) {
          opts.scales.x.range = window.socmonAxis.xRange;
          opts.axes = [{ splits: window.socmonAxis.splits }, { splits: window.socmonAxis.splits }];
        }
        const u = new uPlot(opts, [[5], [3]], document.getElementById('c'));
        await new Promise((r) => setTimeout(r, 50));
        u.setScale('x', { min: 5, max: 5 });
        await new Promise((r) => setTimeout(r, 50));
        const out = { x: [u.scales.x.min, u.scales.x.max], ticks: (u.axes[0]._splits || []).length, pos: u.valToPos(5, 'x') };
        u.destroy();
        return out;
      }, ours);
      return { res: res, errors: errors.slice() };
    };
    const version = JSON.parse(fs.readFileSync(path.join(modules, 'uplot', 'package.json'), 'utf8')).version;
    const canary = process.argv.includes('--canary') || version !== '1.6.32';
    const theirs = canary ? await run(false) : { errors: ['Invalid array length (uPlot 1.6.32, seen before; --canary runs it)'] };
    check(theirs.errors.some((e) => /Invalid array length/.test(e)),
      'uPlot ' + version + '\'s own ticks on [5, 5] did not fail (the bug this works around is gone? then axis.js can go): ' + JSON.stringify(theirs));
    const ours = await run(true);
    check(ours.errors.length === 0, 'page errors with axis.js: ' + ours.errors.join('; '));
    check(ours.res.x[0] < 5 && ours.res.x[1] > 5 && ours.res.ticks >= 1 && ours.res.pos > 0 && ours.res.pos < 600,
      'with axis.js the point at 5 s is inside a widened range with ticks: ' + JSON.stringify(ours.res));
    console.log('axis_check: chromium: uPlot\'s ticks on [5, 5]: ' + (theirs.errors[0] || 'no error') + '; with axis.js: x ' +
      JSON.stringify(ours.res.x) + ', ' + ours.res.ticks + ' ticks, no page error');
  } finally {
    await b.close();
  }
}

(process.argv.includes('--no-browser') ? Promise.resolve() : browser())
  .catch((e) => { failed++; console.error('axis_check: chromium: ' + e.message); })
  .then(() => {
    if (failed) { console.error('axis_check: ' + failed + ' of ' + checked + ' checks failed'); process.exitCode = 1; }
    else console.log('axis_check: all ' + checked + ' checks passed');
  });
