/* The summary a report opens with, above the charts: what a reader wants before any chart.
 *   - totals: the run's length, its intervals, and each counter's total over the run (summed
 *     over its instances: "ddr_accesses, 4 instances"), with its mean rate;
 *   - metrics: each metric definition's mean and max over the run and every instance, and the
 *     instance that reached the max (a named metric: the name it had most often);
 *   - findings, when the document has them ("findings": [{target, finding, evidence: {name:
 *     number}}], written by the analysis): one line each with its evidence numbers.
 * Everything comes from the page's document (window.SOCMON_DATA): the rows' deltas and metric
 * values, so the table and the charts cannot disagree. Numbers and times as units.js writes them.
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
      r.cells.forEach((c, k) => el(k ? 'td' : 'th', { textContent: c, scope: k ? undefined : 'row' }, row));
    });
    return t;
  }

  // Totals of the counters whose deltas the page carries, by counter over its instances.
  function totals(data) {
    const byName = new Map(data.info.counters.map((c) => [c.name, c]));
    const groups = new Map();
    (data.counters || []).forEach((name, k) => {
      const c = byName.get(name);
      const key = c ? c.counter : name;
      if (!groups.has(key)) groups.set(key, { name: key, unit: c ? c.unit : '', total: 0, instances: 0, k: [] });
      const g = groups.get(key);
      g.instances++;
      g.k.push(k);
    });
    for (const r of data.rows)
      for (const g of groups.values()) for (const k of g.k) g.total += r.d[k] || 0;
    return [...groups.values()];
  }

  // Mean and max of each metric definition over the rows and its instances.
  function metrics(data) {
    const groups = new Map();
    data.info.metrics.forEach((m, i) => {
      if (!groups.has(m.metric)) groups.set(m.metric, { name: m.metric, unit: m.unit, labels: m.labels || null, idx: [], n: 0, sum: 0, max: null, at: '', count: {} });
      groups.get(m.metric).idx.push(i);
    });
    for (const r of data.rows) {
      for (const g of groups.values()) {
        for (const i of g.idx) {
          const v = r.m[i];
          if (v === null || v === undefined || !isFinite(v)) continue;
          g.n++; g.sum += v;
          if (g.labels) g.count[v] = (g.count[v] || 0) + 1;
          if (g.max === null || v > g.max) { g.max = v; g.at = data.info.metrics[i].instance || ''; }
        }
      }
    }
    return [...groups.values()].map((g) => Object.assign(g, { mean: g.n ? g.sum / g.n : null }));
  }

  function evidence(ev) {
    return Object.keys(ev || {}).map((k) => k + ' ' + (typeof ev[k] === 'number' ? U.sig3(ev[k]) : String(ev[k]))).join(', ');
  }

  window.socmonSummary = function (root, data) {
    const info = data.info, rows = data.rows || [];
    const interval = info.interval_ns * (data.merge || 1);
    const elapsed = rows.reduce((s, r) => s + (r.dt_ns || 0), 0);
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
        U.sig3(g.total) + (g.unit ? ' ' + g.unit : ''), elapsed ? U.sig3(g.total / (elapsed / 1e9)) + ' ' + U.rate(g.unit) : ''] });
    }
    if (tot.length > shown.length)
      trows.push({ name: 'zero', cells: [(tot.length - shown.length) + ' counters stayed 0', '0', ''] });
    table(wrap, 'totals', 'Totals', ['', 'total', 'mean rate'], trows);

    const met = metrics(data);
    const mrows = met.map((g) => {
      if (g.labels) {
        const best = Object.keys(g.count).sort((a, b) => g.count[b] - g.count[a])[0];
        return { name: g.name, cells: [g.name, best === undefined ? '–' : 'mostly ' + (g.labels[best] || best) +
          ' (' + Math.round(100 * g.count[best] / g.n) + ' %)', '', ''] };
      }
      const unit = U.chartUnit(g.unit, interval, g.name);
      return { name: g.name, cells: [g.name, U.sig3(g.mean) + (unit ? ' ' + unit : ''), U.sig3(g.max), g.at] };
    });
    if (mrows.length) table(wrap, 'metrics', 'Metrics over the run', ['metric', 'mean', 'max', 'max at'], mrows);

    return { elapsed_ns: elapsed, totals: tot, metrics: met, findings: fin.length };
  };
})();
