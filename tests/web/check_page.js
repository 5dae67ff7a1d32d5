// Loads socmon's chart page in Debian's chromium (headless, through playwright-core) and checks
// what a user would see: no console errors or page errors, every uPlot chart holds drawn data
// points, a drag zooms every chart alike (a recording), the ESP heat map painted cells from data,
// and (live) the latest point advances.
// Usage: node check_page.js PAGE [+ PAGE ...], each PAGE being
//          URL SCREENSHOT.png [--live] [--heat] [--plane P] [--min-charts N] [--gaps N] [--add-counter NAME]
//   --heat: the ESP heat map painted tiles from data (and, in a recording, follows the cursor)
//   --plane P: also pick NoC plane P in the heat map and check it shows values of that plane
//   --gaps N: the page drew exactly N gaps (null points in every chart's data)
//   --phases N: every chart drew N bands of the workload's phases (phases.js); without it none
//   --add-counter NAME: add a chart of counter NAME with the picker; it must draw points (live:
//     through a new ?counters= subscription)
//   --live: the latest point advances; Pause freezes the charts while rows arrive, Resume catches up
//   --ended: a live page of a run that is over: the page got the stream's end and says so
//   --flame FUNC: the page has the flame graph of a program's profile: its frames are DOM text
//     (function names, no canvas), clicking the widest FUNC frame zooms into it (it then fills
//     the graph's width, its callees scale alike), Reset zoom brings the old widths back, and
//     searching FUNC highlights exactly the frames whose names hold it and says their share of
//     the total, which must equal the share computed here from the page's profile data.
//     Without --flame a page must have no flame graph at all.
//   --waiting: a live page before its first sample (the test holds the page's api/stream request
//     unanswered: no row can come): the status line and every series' legend say the page is
//     waiting for the first sample, none says "no data in view"; nothing else is checked
//   --summary FILE: FILE is `socmon report --summary --json` of the page's recording; the page's
//     "Metrics over the run" table (read from the DOM, hidden rows too) has one row per metric of
//     FILE and no other, and each row's value over the run is FILE's: the same label, '-' where
//     FILE's is null, else the number it shows within half a unit of its last digit, with
//     FILE's unit beside it.
// The pages share one browser (starting chromium is the slow part; playwright gives it a fresh
// profile directory), each page a fresh context.
// Exit 0: all good; 1: a check failed or chromium did not start (the reasons on stderr).
'use strict';
const path = require('path');
const modules = process.env.SOCMON_WEB_MODULES || path.join(__dirname, '..', '..', 'web', 'node_modules');
const { chromium } = require(path.join(modules, 'playwright-core'));

function jobs(argv) {
  const out = [[]];
  for (const a of argv) {
    if (a === '+') out.push([]);
    else out[out.length - 1].push(a);
  }
  return out.filter((j) => j.length).map((args) => {
    const opt = (name, def) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : def; };
    return {
      url: args[0], shot: args[1], live: args.includes('--live'), heat: args.includes('--heat'), ended: args.includes('--ended'),
      minCharts: Number(opt('--min-charts', 1)), plane: opt('--plane', null), gaps: opt('--gaps', null),
      addCounter: opt('--add-counter', null), flame: opt('--flame', null), phases: opt('--phases', null),
      summary: opt('--summary', null), waiting: args.includes('--waiting'),
    };
  });
}

let current = '';
function fail(msg) {
  console.error('check_page: ' + current + ': ' + msg);
  process.exitCode = 1;
}

(async () => {
  let browser;
  try {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  } catch (e) {
    // installed but unable to start is a broken machine, not a reason to skip
    console.error('check_page: chromium did not start: ' + e.message);
    process.exit(1);
  }
  for (const job of jobs(process.argv.slice(2))) {
    current = job.url.replace(/^file:\/\/.*\//, '');
    await checkPage(browser, job).catch((e) => fail(e.stack || String(e)));
  }
  await browser.close();
})();

async function checkPage(browser, job) {
  const { url, shot, live, heat, ended, minCharts, plane, gaps, addCounter, flame, phases, summary } = job;
  const problems = [];
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  try {
    const page = await context.newPage();
    page.on('console', (m) => { if (m.type() === 'error') problems.push('console error: ' + m.text()); });
    // the stack's first frames: a page error seen once in CI needs its place to be found
    page.on('pageerror', (e) => problems.push('page error: ' + e.message +
      (e.stack ? ' (' + e.stack.split('\n').slice(1, 6).map((l) => l.trim()).join(' < ') + ')' : '')));
    page.on('requestfailed', (r) => {
      // the live stream is closed by the test's end, not a failure of the page
      if (!/api\/stream/.test(r.url())) problems.push('request failed: ' + r.url() + ' ' + (r.failure() || {}).errorText);
    });
    if (job.waiting) await page.route('**/api/stream*', () => {});   // held: never answered
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => window.socmon && window.socmon.ready, null, { timeout: 20000 });
    if (job.waiting) {
      await checkWaiting(page, minCharts);
      await page.screenshot({ path: shot, fullPage: true });
      return;
    }
    // live: rows arrive over the stream; wait for some before looking
    await page.waitForFunction(() => window.socmon.charts.length && window.socmon.charts.every((c) =>
      c.u.data.slice(1).some((s) => s.some((v) => v !== null && v !== undefined && isFinite(v)))),
    null, { timeout: 20000, polling: 200 }).catch(() => {});
    const charts = await page.evaluate(() => window.socmon.charts.map((c) => ({
      title: c.spec.title,
      points: c.u.data[0].length,
      drawn: c.u.data.slice(1).map((s) => s.filter((v) => v !== null && v !== undefined && isFinite(v)).length),
    })));
    if (charts.length < minCharts) fail('expected at least ' + minCharts + ' charts, found ' + charts.length);
    for (const c of charts) {
      const best = Math.max(0, ...c.drawn);
      if (c.points < 1 || best < 1) fail('chart "' + c.title + '" has no drawn data points (' + c.points + ' x values)');
    }
    console.log('check_page: ' + charts.length + ' charts: ' +
      charts.map((c) => c.title.slice(0, 32) + '=' + Math.max(0, ...c.drawn)).join(', '));
    // workload phases (phases.js): every chart drew one band per phase, a page without none
    const bands = await page.evaluate(() => window.socmon.charts.map((c) => Number(c.u.root.dataset.phaseBands || 0)));
    const wantBands = phases === null ? 0 : Number(phases);
    if (bands.some((b) => b !== wantBands)) fail('phase bands per chart ' + bands.join(',') + ', expected ' + wantBands);
    else if (wantBands) console.log('check_page: ' + wantBands + ' phase bands on each of ' + bands.length + ' charts');
    if (heat) {
      const h = await page.evaluate(() => {
        const hm = window.socmon.heat;
        if (!hm) return null;
        const out = { values: 0, colours: 0 };
        for (const k of Object.keys(hm.values))
          for (const v of Object.values(hm.values[k])) if (v !== null && isFinite(v)) out.values++;
        const seen = new Set();
        for (const cv of document.querySelectorAll('canvas.heat-grid')) {
          const d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data;
          for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0) seen.add(d[i] + ',' + d[i + 1] + ',' + d[i + 2]);
        }
        out.colours = seen.size;
        return out;
      });
      if (!h) fail('no heat map on an ESP page');
      else {
        console.log('check_page: heat map: ' + h.values + ' tile values, ' + h.colours + ' colours painted');
        if (h.values < 1) fail('the heat map shows no tile value');
        if (h.colours < 3) fail('the heat map canvas has ' + h.colours + ' painted colours (expected cells coloured by data)');
      }
    }
    if (ended) {
      const said = await page.waitForFunction(() => window.socmon.ended && /run ended/.test(document.getElementById('status').textContent),
        null, { timeout: 20000, polling: 100 }).then(() => true).catch(() => false);
      if (!said) fail('the page of an ended run does not say so: ' + await page.evaluate(() => document.getElementById('status').textContent));
      else console.log('check_page: ' + await page.evaluate(() => document.getElementById('status').textContent));
    }
    if (!live) {
      // drag across the first chart: every chart shows the same, narrower time range; a
      // double-click brings the whole range back
      const full = await page.evaluate(() => window.socmon.charts.map((c) => [c.u.scales.x.min, c.u.scales.x.max]));
      const box = await firstChart(page);
      await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
      const zoomed = await page.evaluate(() => window.socmon.charts.map((c) => [c.u.scales.x.min, c.u.scales.x.max]));
      const same = zoomed.every((r) => r[0] === zoomed[0][0] && r[1] === zoomed[0][1]);
      const span = (r) => r[1] - r[0];
      if (!same || !(span(zoomed[0]) < 0.5 * span(full[0])))
        fail('a zoom did not narrow every chart alike: ' + JSON.stringify(full[0]) + ' -> ' + JSON.stringify(zoomed));
      await page.mouse.dblclick(box.x + box.width * 0.5, box.y + box.height / 2);
      const back = await page.evaluate(() => window.socmon.charts.map((c) => [c.u.scales.x.min, c.u.scales.x.max]));
      if (!back.every((r) => Math.abs(span(r) - span(full[0])) <= 1e-9 * Math.max(1, span(full[0]))))
        fail('a double-click did not zoom back out: ' + JSON.stringify(back[0]) + ', full ' + JSON.stringify(full[0]));
      console.log('check_page: zoom ' + span(full[0]).toPrecision(4) + ' s -> ' + span(zoomed[0]).toPrecision(4) + ' s on all ' +
        zoomed.length + ' charts, and back');
      await page.mouse.move(0, 0);
    }
    if (heat && !live) {
      // a recording's heat map follows the charts' cursor: hover near the start of the first chart
      const before = await page.evaluate(() => window.socmon.heat.idx);
      const box = await firstChart(page);
      await page.mouse.move(box.x + box.width * 0.02, box.y + box.height / 2);
      const after = await page.evaluate(() => ({ idx: window.socmon.heat.idx, cursor: window.socmon.cursorIdx }));
      if (after.cursor === null || after.idx === before && after.cursor !== before)
        fail('the heat map did not follow the cursor (row ' + before + ' -> ' + after.idx + ', cursor ' + after.cursor + ')');
      else console.log('check_page: heat map follows the cursor: row ' + before + ' -> ' + after.idx);
      await page.mouse.move(0, 0);
    }
    if (heat && plane !== null) {
      // the latest row of a live run may be idle (an ESP workload lasts milliseconds): sweep the
      // cursor over the first chart until the plane shows injections somewhere, for 20 s at most
      await page.selectOption('#plane', plane);
      let n = 0;
      for (let k = 0; k < 200 && !n; k++) {
        const box = await firstChart(page);
        await page.mouse.move(box.x + box.width * ((k % 50) + 0.5) / 50, box.y + box.height / 2);
        n = await page.evaluate(() => {
          const v = window.socmon.heat.values.inj || {};
          return window.socmon.heat.plane !== 'all' ? Object.values(v).filter((x) => x !== null && isFinite(x) && x > 0).length : 0;
        });
        if (!n) await page.waitForTimeout(100);
      }
      await page.mouse.move(0, 0);
      if (!n) fail('the heat map shows no injections on plane ' + plane + ' anywhere along the time axis');
      else console.log('check_page: heat map plane ' + plane + ': ' + n + ' tiles with injections');
    }
    if (addCounter !== null) {
      const n0 = await page.evaluate(() => window.socmon.charts.length);
      await page.selectOption('#picker', 'c:' + addCounter);
      const drawn = await page.waitForFunction((n) => {
        const c = window.socmon.charts[n];
        if (!c) return false;
        const k = c.u.data[1].filter((v) => v !== null && isFinite(v)).length;
        return k > 0 ? k : false;
      }, n0, { timeout: 20000, polling: 200 }).then((h) => h.jsonValue()).catch(() => 0);
      if (!drawn) fail('the chart of counter ' + addCounter + ' drew no points');
      else console.log('check_page: added counter ' + addCounter + ': ' + drawn + ' points');
    }
    if (gaps !== null) {
      const g = await page.evaluate(() => ({
        gaps: window.socmon.gaps,
        nulls: window.socmon.charts.map((c) => c.u.data[0].filter((x, i) => c.u.data.slice(1).every((s) => s[i] === null)).length),
      }));
      if (g.gaps !== Number(gaps)) fail('the page counted ' + g.gaps + ' gaps, expected ' + gaps);
      if (!g.nulls.every((n) => n >= Number(gaps))) fail('not every chart has a null point per gap: ' + g.nulls.join(','));
      console.log('check_page: gaps: ' + g.gaps + ' (null points per chart: ' + g.nulls.join(',') + ')');
    }
    if (live) {
      const last = () => page.evaluate(() => { const x = window.socmon.xs; return x.length ? x[x.length - 1] : null; });
      const first = await last();
      await page.waitForFunction((t) => { const x = window.socmon.xs; return x.length && x[x.length - 1] > t; },
        first === null ? -1 : first, { timeout: 20000, polling: 100 })
        .catch(() => fail('the live page\'s latest point did not advance past ' + first + ' s in 20 s'));
      const now = await last();
      console.log('check_page: live: latest point ' + first + ' s -> ' + now + ' s');
      const drawnNow = await page.evaluate(() => window.socmon.charts[0].u.data[0].length);
      if (!(drawnNow >= 2)) fail('the live chart holds ' + drawnNow + ' points');
      // Pause freezes the charts while rows keep arriving; Resume catches up
      await page.click('#pause');
      const frozen = await page.evaluate(() => window.socmon.charts[0].u.data[0].length);
      const rows0 = await page.evaluate(() => window.socmon.rows);
      await page.waitForFunction((n) => window.socmon.rows > n + 2, rows0, { timeout: 20000, polling: 100 })
        .catch(() => fail('no rows arrived while paused'));
      const still = await page.evaluate(() => window.socmon.charts[0].u.data[0].length);
      if (still !== frozen) fail('a paused chart changed (' + frozen + ' -> ' + still + ' points)');
      await page.click('#pause');
      await page.waitForFunction(() => window.socmon.charts[0].u.data[0].length === window.socmon.xs.length, null,
        { timeout: 5000, polling: 100 }).catch(() => fail('the chart did not catch up after Resume'));
      console.log('check_page: live: paused at ' + frozen + ' points while rows arrived, caught up on Resume');
    }
    if (summary !== null) await checkRunMetrics(page, summary);
    if (flame !== null) await checkFlame(page, flame, shot);
    else if (await page.evaluate(() => !!(document.getElementById('flame') || window.socmonFlame || window.SOCMON_PROFILE)))
      fail('a page without a profile has a flame graph');
    await page.screenshot({ path: shot, fullPage: true });
    console.log('check_page: screenshot ' + shot);
  } finally {
    await context.close();
  }
  for (const p of problems) fail(p);
}

// A live page before its first sample says it waits (see --waiting above).
async function checkWaiting(page, minCharts) {
  const got = await page.evaluate(() => ({
    status: document.getElementById('status').textContent,
    rows: window.socmon.rows,
    legends: window.socmon.charts.map((c) => [...c.u.root.querySelectorAll('.u-legend .u-series')].slice(1)
      .map((r) => (r.querySelector('.u-value') || {}).textContent)),
  }));
  const all = [].concat(...got.legends);
  if (got.rows) return fail('--waiting: the page got ' + got.rows + ' rows though its stream was held');
  if (got.legends.length < minCharts) fail('--waiting: ' + got.legends.length + ' charts, expected at least ' + minCharts);
  if (!/waiting for the first sample/.test(got.status)) fail('--waiting: the status line says "' + got.status + '"');
  const bad = all.filter((t) => t !== 'waiting for the first sample');
  if (!all.length || bad.length) fail('--waiting: ' + bad.length + ' of ' + all.length + ' legends do not say it waits: ' + JSON.stringify(bad.slice(0, 3)));
  console.log('check_page: before the first sample: "' + got.status + '", ' + all.length + ' legends say ' + JSON.stringify(all[0]));
}

// The page's metrics over the run against report --summary --json (see --summary above).
async function checkRunMetrics(page, file) {
  const want = JSON.parse(require('fs').readFileSync(file, 'utf8')).metrics;
  const rows = await page.$$eval('#summary table.metrics tr[data-name]', (trs) => trs.map((tr) => ({
    name: tr.dataset.name, run: (tr.querySelector('td.run') || {}).textContent })));
  const byName = new Map(rows.map((r) => [r.name, r]));
  if (rows.length !== want.length || byName.size !== rows.length)
    fail('the page lists ' + rows.length + ' metrics (' + byName.size + ' names), report --summary ' + want.length);
  let n = 0;
  for (const m of want) {
    const key = m.instance ? m.instance + '.' + m.name : m.name;
    const r = byName.get(key);
    if (!r || typeof r.run !== 'string') { fail('metric ' + key + ' of report --summary is not on the page'); continue; }
    const text = r.run;
    let ok;
    if (m.value === null) ok = text === '-';
    else if (m.label !== undefined) ok = text === m.label;
    else {
      const sp = text.indexOf(' ');
      const num = sp < 0 ? text : text.slice(0, sp), unit = sp < 0 ? '' : text.slice(sp + 1);
      const dec = num.includes('.') ? num.length - num.indexOf('.') - 1 : 0;
      const v = /^-?[0-9,]+(\.[0-9]+)?$/.test(num) ? Number(num.replace(/,/g, '')) : NaN;
      ok = unit === (m.unit || '') && Math.abs(v - m.value) <= 0.5 * Math.pow(10, -dec) * (1 + 1e-9) + 1e-12 * Math.abs(m.value);
    }
    if (!ok) fail('metric ' + key + ': the page says "' + text + '", report --summary ' + JSON.stringify(m.label !== undefined ? m.label : m.value) + ' ' + (m.unit || ''));
    else n++;
  }
  console.log('check_page: ' + n + ' of ' + want.length + ' metrics over the run equal report --summary\'s');
}

// The first chart's plotting area, scrolled into view (a report opens with its summary and
// the heat map: the charts may start below the fold).
async function firstChart(page) {
  const over = page.locator('.chart .u-over').first();
  await over.scrollIntoViewIfNeeded();
  return over.boundingBox();
}

// The flame graph (web/src/flame.js): DOM text, a click zooms, reset, search (see --flame above).
async function checkFlame(page, func, shot) {
  const ok = await page.waitForFunction(() => window.socmonFlame && window.socmonFlame.ready, null, { timeout: 20000 })
    .then(() => true).catch(() => false);
  if (!ok) return fail('no flame graph (window.socmonFlame never ready)');
  const frames = () => page.$$eval('#flame-graph .frame', (els) => els.map((e) => {
    const r = e.getBoundingClientRect();
    return { node: Number(e.dataset.node), text: e.textContent, left: r.left, width: r.width, kids: e.children.length,
      match: e.classList.contains('match') };
  }));
  const graphBox = await page.locator('#flame-graph').boundingBox();
  const G = graphBox.width;
  const before = await frames();
  const names = await page.evaluate(() => ['all', ...window.SOCMON_PROFILE.funcs]);
  const canvases = await page.$$eval('#flame canvas', (c) => c.length);
  if (before.length < 3) return fail('the flame graph drew ' + before.length + ' frames');
  if (canvases) fail('the flame graph has ' + canvases + ' canvas elements: names must be DOM text');
  const odd = before.filter((f) => f.kids || !names.includes(f.text));
  if (odd.length) fail('frames whose text is not a function name of the profile: ' + JSON.stringify(odd.slice(0, 3)));
  if (!(await page.getByText(func, { exact: true }).count())) fail('no frame shows "' + func + '" as text');
  // zoom: the widest frame of func that does not fill the width yet
  const cand = before.filter((f) => f.text === func && f.width < 0.98 * G).sort((a, b) => b.width - a.width)[0];
  if (!cand) return fail('no frame of ' + func + ' narrower than the graph to click');
  const kidsOf = await page.evaluate((n) => window.SOCMON_PROFILE.nodes.map((x, i) => (x[0] === n && i ? i : -1))
    .filter((i) => i > 0), cand.node);
  const kid0 = before.filter((f) => kidsOf.includes(f.node)).sort((a, b) => b.width - a.width)[0];
  await page.locator('#flame-graph .frame[data-node="' + cand.node + '"]').click();
  const after = await frames();
  const z = after.find((f) => f.node === cand.node);
  const zoom = await page.evaluate(() => window.socmonFlame.zoom);
  if (!z || zoom !== cand.node || Math.abs(z.width - G) > 2 || Math.abs(z.left - graphBox.x) > 2)
    fail('a click on ' + func + ' (' + cand.width.toFixed(1) + ' px of ' + G.toFixed(1) + ') did not zoom it to the full ' +
      'width: ' + JSON.stringify(z) + ', zoom node ' + zoom);
  else console.log('check_page: flame: ' + before.length + ' frames; a click on ' + func + ' zoomed it from ' +
    cand.width.toFixed(1) + ' px to ' + z.width.toFixed(1) + ' px');
  if (kid0) {
    const k = after.find((f) => f.node === kid0.node);
    const want = kid0.width * G / cand.width;
    if (!k || Math.abs(k.width - want) > Math.max(2, 0.02 * want))
      fail('the zoomed frame\'s callee ' + kid0.text + ' is ' + (k ? k.width.toFixed(1) : 'gone') + ' px, expected ' + want.toFixed(1));
  }
  if (!after.some((f) => f.text === 'all' && Math.abs(f.width - G) <= 2)) fail('the zoomed graph lost its root frame "all"');
  await page.screenshot({ path: shot.replace(/\.png$/, '-flame-zoom.png'), fullPage: true });
  await page.click('#flame-reset', { timeout: 5000 }).catch((e) => fail('Reset zoom: ' + e.message.split('\n')[0]));
  const reset = (await frames()).find((f) => f.node === cand.node);
  if (!reset || Math.abs(reset.width - cand.width) > 1 || await page.evaluate(() => window.socmonFlame.zoom) !== 0)
    fail('Reset zoom did not bring back the width of ' + func + ': ' + JSON.stringify(reset) + ', was ' + cand.width);
  // search: the frames holding func, highlighted; their share as the page says and as computed here
  await page.fill('#flame-search', func);
  const found = await page.textContent('#flame-found');
  const marked = await frames();
  const wrong = marked.filter((f) => f.match !== f.text.toLowerCase().includes(func.toLowerCase()));
  if (!marked.some((f) => f.match)) fail('searching "' + func + '" highlighted no frame');
  if (wrong.length) fail('search highlights differ from the names: ' + JSON.stringify(wrong.slice(0, 3)));
  const want = await page.evaluate((q) => {
    const P = window.SOCMON_PROFILE, n = P.nodes.length, incl = [], hit = [], under = [];
    for (let i = 0; i < n; i++) incl.push(Number(P.nodes[i][4][P.event]));
    for (let i = n - 1; i > 0; i--) incl[P.nodes[i][0]] += incl[i];
    let v = 0;
    under[0] = false;
    for (let i = 1; i < n; i++) {
      hit[i] = P.funcs[P.nodes[i][1]].toLowerCase().includes(q.toLowerCase());
      if (hit[i] && !under[P.nodes[i][0]]) v += incl[i];
      under[i] = under[P.nodes[i][0]] || hit[i];
    }
    return 100 * v / incl[0];
  }, func);
  const m = /([0-9.]+)% of all/.exec(found || '');
  if (!m || Math.abs(Number(m[1]) - want) > 0.006 || !(want > 0))
    fail('the search says "' + found + '", expected ' + want.toFixed(2) + '% of all');
  else console.log('check_page: flame: search "' + func + '": ' + found);
  await page.screenshot({ path: shot.replace(/\.png$/, '-flame-search.png'), fullPage: true });
  await page.fill('#flame-search', '');
  if ((await frames()).some((f) => f.match)) fail('clearing the search left frames highlighted');
}
