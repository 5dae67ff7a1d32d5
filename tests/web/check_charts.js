// Checks that a report page's charts read at once (issue 28, item 8), in Debian's chromium through
// playwright-core, on what a user sees (the DOM), against the page's own data:
//   - legends: with the cursor off the charts each series' legend says "last X · mean Y · max Z
//     unit", and the numbers equal the last, mean and max of the series' values in view (3
//     significant digits); after a zoom they follow the zoomed range; hovering shows the value at
//     the cursor instead, leaving the chart brings the summary back;
//   - identical series: in every chart, series with identical values get distinct dash patterns
//     (one of them may be solid); --identical N: at least N such groups must exist;
//   - per interval / per second: a chart of a count metric (packets, cycles, ...) says "per
//     interval (T)" with T the rows' interval, in its title and y axis; a counter chart added with
//     the picker says UNIT/s, and the heat map says the same "packets/s" and "cycles/s" and shows
//     that rate: the tile's count over its interval's length in seconds;
//   - summary: main's first element is the summary; its totals give the run's length (rounded),
//     and each counter's total (the sum of the rows' deltas over its instances); each metric's
//     value over the run in its unit, and the max of its rows ("per interval" for a count) under
//     the intervals' own heading (report_html checks the run's values against report --summary);
//     findings as many rows as the document has (--findings N, 0:
//     no findings table), each with its text and evidence numbers;
//   - header times (facts, status, the heat map's "interval ending at") have at most 3
//     significant digits;
//   - a chart whose values are constant but for rounding (their spread at most 0.1 % of their
//     magnitude: Zynq's APM latency, 250 ns +- 0.01) has a y range at least as wide as its values
//     are large, not one that blows the rounding up to the chart's height; every tick label of
//     every axis differs from the others (--flat N: at least N such constant charts).
// Usage: node check_charts.js URL SCREENSHOT.png [--identical N] [--findings N] [--add-counter NAME]
//   (without --findings: as many findings rows as the page's document has)
'use strict';
const path = require('path');
const modules = process.env.SOCMON_WEB_MODULES || path.join(__dirname, '..', '..', 'web', 'node_modules');
const { chromium } = require(path.join(modules, 'playwright-core'));

const [url, shot, ...args] = process.argv.slice(2);
const opt = (name, def) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : def; };
const wantIdentical = Number(opt('--identical', 0));
// --findings N: the table must have N rows; without it, as many as the document has (0: no table)
const wantFindings = opt('--findings', null) === null ? null : Number(opt('--findings', null));
const addCounter = opt('--add-counter', null);
const wantFlat = Number(opt('--flat', 0));
// the metric files' units that count events per interval (metrics/*.json), written out here so
// the check does not lean on the page's own list
const COUNT_UNITS = ['packets', 'flits', 'beats', 'cycles', 'messages', 'accesses', 'invocations', 'txns'];
// an average or latency in such a unit (Zynq's avg_wr_latency, cycles) is not a count
const countMetric = (unit, name) => COUNT_UNITS.includes(unit) && !/avg|latency/.test(name);

let failed = 0;
function fail(msg) { console.error('check_charts: ' + msg); failed++; }

// "1.23k" -> 1230; "5e-5" -> 5e-5
function parseNum(s) {
  const m = /^(-?[0-9.]+(?:e[-+]?\d+)?)([kMGT]?)$/.exec(s);
  return m ? Number(m[1]) * { '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12 }[m[2]] : NaN;
}
// a number written exactly with grouped digits ("150,910", "19.58"); NaN for "151k"
function exactNum(s) {
  return /^-?\d{1,3}(,\d{3})*(\.\d+)?$/.test(s) ? Number(s.replace(/,/g, '')) : NaN;
}
// a number written to 3 significant digits: within half a unit of its third digit
function near(got, want) {
  return Math.abs(got - want) <= 0.00501 * Math.abs(want) + 1e-300;
}
function sigDigits(numText) {
  return numText.replace(/^-/, '').replace('.', '').replace(/^0+/, '').length;
}
// a time as the test expects the page to write it: 3 significant digits, unit by size
function timeText(sec) {
  const r = Number(sec.toPrecision(3));
  const [k, u] = r < 1e-6 ? [1e-9, 'ns'] : r < 1e-3 ? [1e-6, 'µs'] : r < 1 ? [1e-3, 'ms'] : [1, 's'];
  return String(Number((r / k).toPrecision(3))) + ' ' + u;
}

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const problems = [];
  try {
    const page = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
    page.on('console', (m) => { if (m.type() === 'error') problems.push('console error: ' + m.text()); });
    page.on('pageerror', (e) => problems.push('page error: ' + e.message));
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => window.socmon && window.socmon.ready, null, { timeout: 20000 });
    await page.mouse.move(2, 2);
    await checkLegends(page, 'the full run');
    await checkIdentical(page);
    await checkUnits(page);
    await checkSummary(page);
    await checkHeader(page);
    await checkScales(page, 'the full run');
    // zoom into the middle third of the first chart, leave it: the legends follow the zoom
    await page.locator('#charts .chart .u-over').first().scrollIntoViewIfNeeded();
    const over = await page.locator('#charts .chart .u-over').first().boundingBox();
    const y = over.y + over.height / 2;
    await page.mouse.move(over.x + over.width / 3, y);
    // hovering: the legend shows the value under the cursor, not the summary
    const hover = await page.evaluate(() => window.socmon.charts[0].u.root.querySelectorAll('.u-legend .u-series')[1]
      .querySelector('.u-value').textContent);
    if (/^last /.test(hover)) fail('hovering a chart, its legend still shows the summary: ' + hover);
    await page.mouse.down();
    await page.mouse.move(over.x + 2 * over.width / 3, y, { steps: 5 });
    await page.mouse.up();
    await page.mouse.move(2, 2);
    const range = await page.evaluate(() => { const s = window.socmon.charts[0].u.scales.x; return [s.min, s.max]; });
    const full = await page.evaluate(() => { const x = window.socmon.xs; return [x[0], x[x.length - 1]]; });
    if (!(range[0] > full[0] && range[1] < full[1])) fail('the drag did not zoom: x ' + range + ' of ' + full);
    await checkLegends(page, 'the zoom ' + range.map((v) => v.toPrecision(3)).join('..') + ' s');
    await checkScales(page, 'the zoom');
    if (addCounter) await checkCounterChart(page);
    await page.screenshot({ path: shot, fullPage: true });
  } catch (e) {
    fail(e.stack || String(e));
  }
  await browser.close();
  for (const p of problems) fail(p);
  console.log('check_charts: ' + url.replace(/^.*\//, '') + ': ' + (failed ? failed + ' failures' : 'all good'));
  process.exitCode = failed ? 1 : 0;
})();

async function checkLegends(page, what) {
  const charts = await page.evaluate(() => window.socmon.charts.map((c) => {
    const u = c.u, lo = u.scales.x.min, hi = u.scales.x.max, rows = u.root.querySelectorAll('.u-legend .u-series');
    return {
      title: c.spec.title, labels: !!c.spec.labels,
      series: u.series.slice(1).map((s, k) => {
        const vals = [];
        u.data[0].forEach((x, i) => {
          const v = u.data[k + 1][i];
          if (x >= lo && x <= hi && v !== null && v !== undefined && isFinite(v)) vals.push(v);
        });
        return { label: s.label, text: rows[k + 1].querySelector('.u-value').textContent, vals: vals };
      }),
    };
  }));
  let checked = 0;
  for (const c of charts) {
    for (const s of c.series) {
      const where = '"' + c.title + '" series ' + s.label + ' (' + what + ')';
      if (!s.vals.length) { if (s.text !== 'no data in view') fail(where + ': no values in view, legend "' + s.text + '"'); continue; }
      if (c.labels) { if (!/^last \S/.test(s.text)) fail(where + ': legend "' + s.text + '"'); continue; }
      const m = /^last (\S+) · mean (\S+) · max (\S+)(?: .+)?$/.exec(s.text);
      if (!m) { fail(where + ': the legend says "' + s.text + '", not last/mean/max'); continue; }
      const want = [s.vals[s.vals.length - 1], s.vals.reduce((a, b) => a + b, 0) / s.vals.length, Math.max(...s.vals)];
      ['last', 'mean', 'max'].forEach((name, i) => {
        const got = parseNum(m[i + 1]);
        if (!near(got, want[i])) fail(where + ': ' + name + ' ' + m[i + 1] + ', the data in view give ' + want[i]);
        if (sigDigits(m[i + 1].replace(/e.*$|[kMGT]$/, '')) > 3) fail(where + ': ' + name + ' ' + m[i + 1] + ' has more than 3 significant digits');
      });
      checked++;
    }
  }
  if (!checked) fail('no legend checked (' + what + ')');
  console.log('check_charts: legends (' + what + '): ' + checked + ' series show last/mean/max of the data in view');
}

async function checkIdentical(page) {
  const groups = await page.evaluate(() => window.socmon.charts.flatMap((c) => {
    const cols = c.u.data.slice(1), out = [], used = new Set();
    cols.forEach((a, i) => {
      if (used.has(i)) return;
      const g = [i];
      for (let j = i + 1; j < cols.length; j++) if (!used.has(j) && a.length === cols[j].length && a.every((v, k) => v === cols[j][k])) g.push(j);
      if (g.length > 1) {
        g.forEach((k) => used.add(k));
        out.push({ title: c.spec.title, members: g.map((k) => ({ label: c.u.series[k + 1].label, dash: JSON.stringify(c.u.series[k + 1].dash || []),
          marker: c.u.root.querySelectorAll('.u-legend .u-series')[k + 1].querySelector('.u-marker').style.borderStyle })) });
      }
    });
    return out;
  }));
  for (const g of groups) {
    const dashes = g.members.map((m) => m.dash);
    if (new Set(dashes).size !== dashes.length)
      fail('"' + g.title + '": identical series ' + g.members.map((m) => m.label + ' dash ' + m.dash).join(', ') + ' are not told apart');
    if (g.members.slice(1).some((m) => m.marker !== 'dashed')) fail('"' + g.title + '": a dashed series has a solid legend marker');
  }
  if (groups.length < wantIdentical) fail('expected at least ' + wantIdentical + ' groups of identical series, found ' + groups.length);
  console.log('check_charts: ' + groups.length + ' groups of identical series, each drawn with distinct dashes: ' +
    groups.slice(0, 3).map((g) => g.title.slice(0, 24) + ': ' + g.members.map((m) => m.label + ' ' + m.dash).join(' / ')).join('; '));
}

async function checkUnits(page) {
  const s = await page.evaluate(() => ({
    interval: window.socmon.info.interval_ns * ((window.SOCMON_DATA && window.SOCMON_DATA.merge) || 1),
    charts: window.socmon.charts.map((c) => ({ title: c.spec.title, unit: c.spec.unit, labels: !!c.spec.labels,
      metric: c.spec.series[0].m !== undefined ? window.socmon.info.metrics[c.spec.series[0].m].metric : '',
      caption: c.box.querySelector('figcaption').textContent, axis: c.u.axes[1].label })),
    heat: [...document.querySelectorAll('#heat figcaption')].map((f) => f.textContent),
  }));
  const per = 'per interval (' + timeText(s.interval / 1e9) + ')';
  let counts = 0;
  for (const c of s.charts) {
    if (c.labels) continue;
    const isCount = countMetric(c.unit, c.metric);
    if (isCount) {
      counts++;
      if (!c.caption.includes(c.unit + ' ' + per) || c.axis !== c.unit + ' ' + per)
        fail('"' + c.title + '" counts ' + c.unit + ' per interval, but says "' + c.caption + '" / axis "' + c.axis + '" (expected "' + per + '")');
    } else if (/per interval/.test(c.caption + c.axis)) fail('"' + c.title + '" (' + c.unit + ') is not a count but says per interval');
  }
  console.log('check_charts: ' + counts + ' charts of counts say "' + per + '"');
  if (s.heat.length) {
    const want = ['NoC injections (flits/s)', 'NoC backpressure (input-FIFO-full cycles, model only) (cycles/s)'];
    if (JSON.stringify(s.heat) !== JSON.stringify(want)) fail('the heat map says ' + JSON.stringify(s.heat) + ', expected ' + JSON.stringify(want));
    // its values are the tile's count over its interval in seconds (all planes: the metric)
    const bad = await page.evaluate(() => {
      const S = window.socmon, H = S.heat, i = H.idx, out = [];
      S.info.metrics.forEach((m, k) => {
        if (m.metric !== 'noc_injections') return;
        const want = S.m[k][i] / (S.dt[i] / 1e3), got = H.values.inj[m.instance];
        if (!(Math.abs(got - want) <= 1e-9 * Math.abs(want))) out.push(m.instance + ': ' + got + ' shown, ' + want + ' flits/s in the data');
      });
      return out;
    });
    if (bad.length) fail('heat map values are not per second: ' + bad.slice(0, 3).join('; '));
    else console.log('check_charts: the heat map says ' + s.heat.join(', ') + ' and shows counts per second');
  }
}

async function checkCounterChart(page) {
  const n0 = await page.evaluate(() => window.socmon.charts.length);
  await page.selectOption('#picker', 'c:' + addCounter);
  await page.waitForFunction((n) => window.socmon.charts.length > n, n0, { timeout: 5000 });
  const c = await page.evaluate((n) => {
    const ch = window.socmon.charts[n], unit = window.socmon.info.counters.find((x) => x.name === ch.spec.counter).unit;
    return { unit: unit, caption: ch.box.querySelector('figcaption').firstChild.textContent, axis: ch.u.axes[1].label,
      heat: [...document.querySelectorAll('#heat figcaption')].map((f) => f.textContent) };
  }, n0);
  if (!c.caption.endsWith('(' + c.unit + '/s)') || c.axis !== c.unit + '/s') fail('counter chart ' + addCounter + ' says "' + c.caption + '", axis "' + c.axis + '"');
  if (c.heat.length && !c.heat.some((h) => h.includes('(' + c.unit + '/s)'))) fail('counter chart in ' + c.unit + '/s, the heat map says ' + c.heat.join(', '));
  console.log('check_charts: counter chart ' + addCounter + ': "' + c.caption + '", axis "' + c.axis + '"');
}

async function checkSummary(page) {
  const s = await page.evaluate(() => {
    const D = window.SOCMON_DATA, main = document.querySelector('main');
    const first = [...main.children].find((e) => !e.hidden);
    const cell = (tab, name, k) => { const r = document.querySelector('#summary table.' + tab + ' tr[data-name="' + name + '"]'); return r ? r.children[k].textContent : null; };
    const sums = {};
    D.counters.forEach((n, k) => {
      const c = D.info.counters.find((x) => x.name === n);
      sums[c.counter] = (sums[c.counter] || 0) + D.rows.reduce((a, r) => a + r.d[k], 0);
    });
    // per metric result: the intervals' max (its column); the run's value is report_html's check
    const mets = D.info.metrics.map((m, k) => {
      let n = 0, max = -Infinity;
      for (const r of D.rows) { const v = r.m[k]; if (v !== null && isFinite(v)) { n++; max = Math.max(max, v); } }
      return { name: m.name, def: m.metric, labels: !!m.labels, n: n, unit: m.unit, max: max, run: (D.run.metrics || [])[k],
        got: [cell('metrics', m.name, 1), cell('metrics', m.name, 2)] };
    });
    return {
      first: first ? first.id : null, visible: !!document.querySelector('#summary table.totals') && document.querySelector('#summary').offsetHeight > 0,
      elapsed: D.rows.reduce((a, r) => a + r.dt_ns, 0), elapsedText: cell('totals', 'elapsed', 1),
      totals: Object.keys(sums).map((k) => ({ name: k, want: sums[k], got: cell('totals', k, 1) })),
      interval: D.info.interval_ns * (D.merge || 1),
      metrics: mets,
      findings: D.findings || [],
      frows: [...document.querySelectorAll('#summary table.findings tbody tr')].map((r) => [...r.children].map((c) => c.textContent)),
    };
  });
  if (s.first !== 'summary' || !s.visible) fail('the page does not open with the summary (first: ' + s.first + ')');
  if (s.elapsedText !== timeText(s.elapsed / 1e9)) fail('summary run length "' + s.elapsedText + '", the rows span ' + s.elapsed + ' ns');
  let nt = 0, nm = 0;
  for (const t of s.totals) {
    if (t.want === 0) { if (t.got !== null) fail('counter ' + t.name + ' stayed 0 but has a row'); continue; }
    // exact, with grouped digits, as the terminal's tables write a count (issue 37, item 13)
    const got = t.got === null ? NaN : exactNum(t.got.split(' ')[0]);
    if (got !== t.want) fail('summary total of ' + t.name + ' "' + t.got + '", the deltas add up to ' + t.want);
    else nt++;
  }
  for (const m of s.metrics) {
    if (m.labels || !m.n) continue;
    // the run's value is in the metric's own unit; the intervals' max says "per interval" for a count
    const runUnit = (m.got[0] || '').split(' ').slice(1).join(' ');
    const maxText = /^max (\S+) ?(.*)$/.exec(m.got[1] || '');
    const wantUnit = countMetric(m.unit, m.def) ? m.unit + ' per interval (' + timeText(s.interval / 1e9) + ')' : m.unit;
    if (m.run !== null && runUnit !== m.unit) fail('summary of metric ' + m.name + ' over the run says "' + m.got[0] + '", expected the unit ' + m.unit);
    if (!maxText || maxText[2] !== wantUnit) fail('summary of metric ' + m.name + ': intervals "' + m.got[1] + '", expected "max N ' + wantUnit + '"');
    else if (!near(parseNum(maxText[1]), m.max)) fail('summary of metric ' + m.name + ': ' + JSON.stringify(m.got) + ', the rows give max ' + m.max);
    else nm++;
  }
  if (!nt || !nm) fail('the summary checked ' + nt + ' totals and ' + nm + ' metrics');
  const nf = wantFindings === null ? s.findings.length : wantFindings;
  if (s.findings.length !== nf || s.frows.length !== nf)
    fail('expected ' + nf + ' findings, the document has ' + s.findings.length + ', the table ' + s.frows.length);
  s.findings.forEach((f, i) => {
    const r = s.frows[i] || [];
    if (r[0] !== f.target || r[1] !== f.finding) fail('finding ' + i + ' reads ' + JSON.stringify(r));
    for (const [k, v] of Object.entries(f.evidence || {})) {
      const m = new RegExp('(?:^|, )' + k + ' ([^,\\s]+)').exec(r[2] || '');
      // evidence is mostly numbers, written as the tables write them (a count exact and grouped,
      // a fraction to 2 decimals, 3 below 1), sometimes a name (plane3)
      const m2 = new RegExp('(?:^|, )' + k + ' ((?:[^,\\s]|,(?=\\d{3}(?:\\D|$)))+)').exec(r[2] || '');
      const ok = typeof v !== 'number' ? !!m && m[1] === String(v)
        : !!m2 && (Number.isInteger(v) ? exactNum(m2[1]) === v
          : Math.abs(exactNum(m2[1]) - v) <= 0.5 * Math.pow(10, -(Math.abs(v) >= 1 ? 2 : 3)) + 1e-12);
      if (!ok) fail('finding ' + i + ': evidence ' + k + ' ' + v + ' reads "' + r[2] + '"');
    }
  });
  console.log('check_charts: summary: run ' + s.elapsedText + ', ' + nt + ' counter totals and ' + nm + ' metrics match the data, ' +
    s.frows.length + ' findings');
}

// Constant charts get a sensible y range; no axis repeats a tick label (see the header).
async function checkScales(page, what) {
  const charts = await page.evaluate(() => window.socmon.charts.map((c) => {
    const u = c.u, lo = u.scales.x.min, hi = u.scales.x.max;
    let min = Infinity, max = -Infinity;
    u.data.slice(1).forEach((s) => s.forEach((v, i) => {
      const x = u.data[0][i];
      if (v !== null && v !== undefined && isFinite(v) && x >= lo && x <= hi) { min = Math.min(min, v); max = Math.max(max, v); }
    }));
    return { title: c.spec.title, labels: !!c.spec.labels, min: min, max: max, y: [u.scales.y.min, u.scales.y.max],
      ticks: u.axes.map((a) => (a._values || []).map(String)) };
  }));
  let flat = 0;
  for (const c of charts) {
    c.ticks.forEach((t, k) => {
      if (new Set(t).size !== t.length) fail(what + ': chart "' + c.title + '": the ' + (k ? 'y' : 'x') + ' axis repeats tick labels: ' + t.join(' '));
    });
    const mag = Math.max(Math.abs(c.min), Math.abs(c.max));
    if (c.labels || !(mag > 0) || !isFinite(mag) || c.max - c.min > 1e-3 * mag) continue;
    flat++;
    if (!(c.y[1] - c.y[0] >= mag)) fail(what + ': chart "' + c.title + '" of values ' + c.min + '..' + c.max + ' (a constant but for rounding) has the y range ' +
      c.y.join('..') + ': its rounding fills the chart');
  }
  if (flat < wantFlat) fail(what + ': ' + flat + ' charts of constant values, expected at least ' + wantFlat);
  console.log('check_charts: ' + what + ': ' + charts.length + ' charts with distinct tick labels, ' + flat + ' of constant values on a range from 0');
}

async function checkHeader(page) {
  const texts = await page.evaluate(() => [document.getElementById('facts').textContent, document.getElementById('status').textContent,
    (document.querySelector('.heat-when') || {}).textContent || '',
    (document.querySelector('#summary table.totals tr[data-name="elapsed"]') || {}).textContent || '']);
  let n = 0;
  for (const t of texts) {
    for (const m of t.matchAll(/(-?[0-9][0-9.,]*) (ns|µs|ms|s)\b/g)) {
      n++;
      if (sigDigits(m[1].replace(/,/g, '')) > 3) fail('a header time has more than 3 significant digits: "' + m[0] + '" in "' + t + '"');
    }
  }
  if (!n) fail('no times found in the header: ' + JSON.stringify(texts));
  console.log('check_charts: header times: ' + texts.slice(0, 3).join(' | '));
}
