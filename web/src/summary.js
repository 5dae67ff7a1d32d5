/* The summary a report opens with, above the charts: what a reader wants before any chart.
 *   - totals: the run's length, its intervals, and each counter's total over the run (summed
 *     over its instances: "ddr_accesses, 4 instances"), with its mean rate;
 *   - metrics over the run: each metric result's value over the whole run, the number
 *     `report --summary` prints (a ratio of the run's summed counts, written with the metric's
 *     precision as the terminal writes it), and beside it, under its own name, what the
 *     intervals did (the largest interval's value, or a named metric's most frequent name);
 *   - findings, when the document has them ("findings": [{target, finding, evidence: {name:
 *     number}}], written by the analysis): one line each with its evidence numbers.
 * The run's figures come from the document's "run" (export/fmt_html.c: the analysis pipeline's
 * totals, those of report --summary), never from sums or means of the rows here: a mean of
 * per-interval ratios is not the run's ratio, and a page must not contradict the terminal. The
 * intervals' column comes from the rows the charts draw. Numbers and times as units.js writes them.
 * window.socmonSummary(root, data) fills root (a <section>); it returns the figures it shows (the
 * tests compare them with the document). */
(function () {
  'use strict';

  const U = window.socmonUnits;
  const SHOWN = 12;   // rows of a table shown at once; the rest behind "N more"

  function el(tag, attrs, parent) {
    const e = document.createElement(tag);
    Object.assign(e, attrs || {});
    if (parent) parent.appendChild(e);
    return e;
  }

  function table(root, cls, caption, head, rows) {
    const box = el('div', { className: 'summary-box' }, root);
    const t = el('table', { className: 'summary-table ' + cls }, box);
    el('caption', { textContent: caption }, t);
    const tr = el('tr', {}, el('thead', {}, t));
    head.forEach((h) => el('th', { textContent: h, scope: 'col' }, tr));
    const body = el('tbody', {}, t);
    let more = null;
    rows.forEach((r, i) => {
      if (i === SHOWN && rows.length > SHOWN + 1) {
        more = el('tbody', { className: 'summary-more', hidden: true }, t);
        const b = el('button', { type: 'button', textContent: (rows.length - SHOWN) + ' more' }, box);
        b.addEventListener('click', () => { more.hidden = !more.hidden; b.textContent = more.hidden ? (rows.length - SHOWN) + ' more' : 'fewer'; });
      }
      const row = el('tr', {}, more || body);
      row.dataset.name = r.name;
      r.cells.forEach((c, k) => el(k ? 'td' : 'th', { textContent: c, scope: k ? undefined : 'row', className: (r.cls || [])[k] || '' }, row));
    });
    return t;
  }

  // Totals of every counter over the run (data.run: the pipeline's), by counter over its instances.
  function totals(data) {
    const run = data.run || {};
    const groups = new Map();
    data.info.counters.forEach((c, k) => {
      if (!groups.has(c.counter)) groups.set(c.counter, { name: c.counter, unit: c.unit, total: 0, instances: 0 });
      const g = groups.get(c.counter);
      g.instances++;
      g.total += (run.counters || [])[k] || 0;
    });
    return [...groups.values()];
  }

  // Each metric result: its value over the run (data.run), and the intervals' max, or for a
  // named metric the name the intervals had most often.
  function metrics(data) {
    const run = (data.run || {}).metrics || [];
    return data.info.metrics.map((m, i) => {
      const r = run[i];
      const g = { name: m.name, metric: m.metric, unit: m.unit, precision: m.precision, labels: m.labels || null,
        run: r === null || r === undefined ? null : r, n: 0, max: null, count: {} };
      for (const row of data.rows) {
        const v = row.m[i];
        if (v === null || v === undefined || !isFinite(v)) continue;
        g.n++;
        if (g.labels) g.count[v] = (g.count[v] || 0) + 1;
        if (g.max === null || v > g.max) g.max = v;
      }
      return g;
    });
  }

  // A metric's value as the terminal's tables write it: its label, or the number with the
  // metric's decimals and grouped digits; '-' where it is undefined.
  function runText(g) {
    const v = g.run;
    if (v === null || !isFinite(v)) return '-';
    if (g.labels) return g.labels[v] !== undefined ? g.labels[v] : String(v);
    const p = Math.max(0, Math.min(20, g.precision === undefined ? 3 : g.precision));
    return v.toLocaleString('en-US', { minimumFractionDigits: p, maximumFractionDigits: p });
  }

  // A number as the terminal's tables write one: a count exact with grouped digits (150,910, not
  // 151k), a fraction with two decimals (three below 1), never rounded to significant digits.
  function exact(v) {
    if (typeof v !== 'number' || !isFinite(v)) return '-';
    if (Number.isInteger(v)) return v.toLocaleString('en-US');
    const p = Math.abs(v) >= 1 ? 2 : 3;
    return v.toLocaleString('en-US', { minimumFractionDigits: p, maximumFractionDigits: p });
  }

  function evidence(ev) {
    return Object.keys(ev || {}).map((k) => k + ' ' + (typeof ev[k] === 'number' ? exact(ev[k]) : String(ev[k]))).join(', ');
  }

  window.socmonSummary = function (root, data) {
    const info = data.info, rows = data.rows || [];
    const interval = info.interval_ns * (data.merge || 1);
    const elapsed = data.run ? data.run.elapsed_ns : rows.reduce((s, r) => s + (r.dt_ns || 0), 0);
    root.hidden = false;
    el('h2', { textContent: 'Summary' }, root);
    // findings first, the width of the page: they say in words what the tables hold in numbers
    const fin = Array.isArray(data.findings) ? data.findings : [];
    if (fin.length) {
      table(root, 'findings', 'Findings: where the time went', ['target', 'finding', 'evidence'],
        fin.map((f, i) => ({ name: String(i), cells: [String(f.target || ''), String(f.finding || ''), evidence(f.evidence)] })));
    }
    const wrap = el('div', { className: 'summary-row' }, root);

    const tot = totals(data);
    const trows = [
      { name: 'elapsed', cells: ['run', U.time(elapsed / 1e9), (data.intervals || rows.length).toLocaleString('en') + ' intervals of ' + U.time(info.interval_ns / 1e9)] },
    ];
    const shown = tot.filter((g) => g.total !== 0);
    for (const g of shown) {
      trows.push({ name: g.name, cells: [g.name + (g.instances > 1 ? ' (' + g.instances + ' instances)' : ''),
        exact(g.total) + (g.unit ? ' ' + g.unit : ''), elapsed ? U.sig3(g.total / (elapsed / 1e9)) + ' ' + U.rate(g.unit) : ''] });
    }
    if (tot.length > shown.length)
      trows.push({ name: 'zero', cells: [(tot.length - shown.length) + ' counters stayed 0', '0', ''] });
    table(wrap, 'totals', 'Totals', ['', 'total', 'mean rate'], trows);

    const met = metrics(data);
    const mrows = met.map((g) => {
      let intervals = '';
      if (g.labels) {
        const best = Object.keys(g.count).sort((a, b) => g.count[b] - g.count[a])[0];
        if (best !== undefined) intervals = 'mostly ' + (g.labels[best] || best) + ' (' + Math.round(100 * g.count[best] / g.n) + ' %)';
      } else if (g.max !== null) {
        const unit = U.chartUnit(g.unit, interval, g.metric);
        intervals = 'max ' + U.sig3(g.max) + (unit ? ' ' + unit : '');
      }
      return { name: g.name, cls: ['', 'run', 'intervals'],
        cells: [g.name, runText(g) + (g.labels || !g.unit || g.run === null ? '' : ' ' + g.unit), intervals] };
    });
    if (mrows.length) table(wrap, 'metrics', 'Metrics over the run (as report --summary gives them)', ['metric', 'over the run', 'intervals'], mrows);

    return { elapsed_ns: elapsed, totals: tot, metrics: met, findings: fin.length };
  };
})();
