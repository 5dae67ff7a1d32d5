// Loads a `socmon diff --html` page in Debian's chromium (headless, through playwright-core) and
// checks what a user sees: no console or page errors; the expected number of charts, each a
// uPlot with two series (the baseline dashed, the new run solid) holding drawn points; the table's
// row count; that every axis' tick labels, as drawn, are distinct (a time axis of 0.0005 s steps
// reads 0.0010 0.0015, not 0.001 0.002 0.002); and that no element came from a run's strings (an
// injected <b id="pwned"> must stay text).
// Usage: node check_diff_page.js PAGE.html SCREENSHOT.png CHARTS ROWS [ONE_SIDED_ROWS [TEXT]]
'use strict';
const path = require('path');
const modules = process.env.SOCMON_WEB_MODULES || path.join(__dirname, '..', '..', 'web', 'node_modules');
const { chromium } = require(path.join(modules, 'playwright-core'));

(async () => {
  const [page, shot, charts, rows, oneSided, text] = process.argv.slice(2);
  const fail = (m) => { console.error('check_diff_page: ' + page + ': ' + m); process.exitCode = 1; };
  let browser;
  try {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync'],
    });
    const ctx = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    const p = await ctx.newPage();
    const errors = [];
    p.on('console', (m) => { if (m.type() === 'error') errors.push('console: ' + m.text()); });
    p.on('pageerror', (e) => errors.push('page error: ' + e.message));
    await p.goto('file://' + path.resolve(page), { waitUntil: 'load' });
    await p.waitForTimeout(300);
    const got = await p.evaluate(() => {
      const cs = window.SOCMON_DIFF_CHARTS || [];
      return {
        charts: cs.map((u) => ({
          series: u.series.length - 1,
          dash: u.series.slice(1).map((s) => !!(s.dash && s.dash.length)),
          labels: u.series.slice(1).map((s) => s.label),
          points: u.data.slice(1).map((d) => d.filter((v) => v !== null && v !== undefined).length),
          canvas: !!u.root.querySelector('canvas'),
          ticks: u.axes.map((a) => (a._values || []).map(String)),
        })),
        boxes: document.querySelectorAll('#charts .chart canvas').length,
        rows: document.querySelectorAll('#table tbody tr').length,
        pwned: document.querySelectorAll('#pwned').length,
        // the legend names both files; rows of one run only are marked; metrics are charted first
        legend: ['baseline ' + String(window.SOCMON_DIFF.baseline).split('/').pop(), 'new ' + String(window.SOCMON_DIFF.new).split('/').pop()].join(),
        one_sided: document.querySelectorAll('#table tr.only-baseline, #table tr.only-new').length,
        kinds: window.SOCMON_DIFF.charts.map((c) => c.kind).join(),
        text: document.body.innerText,
      };
    });
    // a zoom to a seventh of the first chart's time (a drag across it): finer ticks, still distinct
    await p.evaluate(() => (window.SOCMON_DIFF_CHARTS || []).slice(0, 1).forEach((u) => {
      const lo = u.scales.x.min, hi = u.scales.x.max;
      u.setScale('x', { min: lo + (hi - lo) / 7, max: lo + 2 * (hi - lo) / 7 });
    }));
    await p.waitForTimeout(100);   // uPlot redraws the axes on its next commit
    const zoomed = await p.evaluate(() => (window.SOCMON_DIFF_CHARTS || []).slice(0, 1).map((u) => (u.axes[0]._values || []).map(String)));
    zoomed.forEach((t) => {
      if (new Set(t).size !== t.length) fail(`chart 0 zoomed: the x axis repeats tick labels: ${t.join(' ')}`);
    });
    for (const e of errors) fail(e);
    if (got.charts.length !== Number(charts) || got.boxes !== Number(charts)) fail(`${got.charts.length} charts (${got.boxes} canvases), expected ${charts}`);
    got.charts.forEach((c, i) => {
      if (c.series !== 2 || !c.dash[0] || c.dash[1] || c.labels.join() !== got.legend) fail(`chart ${i}: series ${JSON.stringify(c)}, expected legend ${got.legend}`);
      if (c.points.some((n) => n < 1) || !c.canvas) fail(`chart ${i}: no points drawn ${JSON.stringify(c.points)}`);
      c.ticks.forEach((t, k) => {
        if (new Set(t).size !== t.length) fail(`chart ${i}: the ${k ? 'y' : 'x'} axis repeats tick labels: ${t.join(' ')}`);
      });
    });
    if (got.rows !== Number(rows)) fail(`${got.rows} table rows, expected ${rows}`);
    if (oneSided !== undefined && got.one_sided !== Number(oneSided)) fail(`${got.one_sided} rows marked as of one run, expected ${oneSided}`);
    if (/counter.*metric/.test(got.kinds)) fail(`a metric charted after a counter: ${got.kinds}`);
    if (text !== undefined && !got.text.includes(text)) fail(`the page does not show ${JSON.stringify(text)}`);
    if (got.pwned) fail('a run\'s string became an element');
    await p.screenshot({ path: shot, fullPage: true });
  } catch (e) {
    fail(String(e && e.stack || e));
  } finally {
    if (browser) await browser.close();
  }
})();
