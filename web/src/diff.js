// The comparison page of `socmon diff A B --html` (web/src/diff.html): one chart per value that
// changed most (the baseline dashed, the new run solid, both from their own start), then the
// whole diff table. Every text from the runs goes in through textContent, never as HTML.
'use strict';
(function () {
  const data = window.SOCMON_DIFF;
  const A = window.socmonAxis;
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  };
  const num = (v) => (v === null || v === undefined ? '-' :
    Number.isInteger(v) ? v.toLocaleString('en-US') : Number(v).toPrecision(6));
  const change = (r) => (r.ratio === null ? (r.delta ? 'from 0' : '-') :
    ((r.ratio - 1) * 100).toFixed(2) + '%');
  const sig = (r) => (r.significant === null ? '' : r.significant ? 'yes' : 'no') +
    (r.p === null ? '' : ' (p=' + r.p.toPrecision(2) + ')');

  const facts = document.getElementById('facts');
  facts.appendChild(el('div', 'run baseline', 'baseline (dashed): ' + data.baseline + ' (' + (data.baseline_target || '?') +
    (data.baseline_workload ? ', ' + data.baseline_workload : '') + ')'));
  facts.appendChild(el('div', 'run new', 'new (solid): ' + data.new + ' (' + (data.new_target || '?') +
    (data.new_workload ? ', ' + data.new_workload : '') + ')'));
  const notes = document.getElementById('notes');
  for (const n of data.notes || []) notes.appendChild(el('p', 'note', n));

  // x: the union of both runs' times, each series null where it has no row (spanGaps joins them)
  function aligned(a, b) {
    const xs = Array.from(new Set(a.t.concat(b.t))).sort((x, y) => x - y);
    const at = (s) => { const m = new Map(); s.t.forEach((t, i) => m.set(t, s.v[i])); return xs.map((x) => (m.has(x) ? m.get(x) : null)); };
    return [xs, at(a), at(b)];
  }
  const file = (p) => String(p === null || p === undefined ? '?' : p).split('/').pop();
  const charts = document.getElementById('charts');
  window.SOCMON_DIFF_CHARTS = [];
  // socmon.css lays the charts out two a row on a wide screen (min 520 px each), one on a narrow one
  const width = () => Math.max(320, charts.clientWidth >= 1064 ? (charts.clientWidth - 12) / 2 - 20 : charts.clientWidth - 20);
  for (const c of data.charts) {
    const box = el('div', 'chart');
    box.dataset.key = c.key;
    box.appendChild(el('h3', null, c.key + ': ' + (c.delta_text || '')));
    charts.appendChild(box);
    const opts = {
      width: width(), height: 220,
      scales: { x: { time: false }, y: { range: A.yRange } },
      // the y axis as wide as its longest tick label (about 7 px a character), so the unit's
      // label never sits on top of "60,000"
      // axis.js: ticks that cannot loop forever, labelled with the decimals their step needs
      // (uPlot's own keep 3: ticks 0.0005 s apart read 0.001 0.001 0.002)
      axes: [{ label: 'seconds since the start', splits: A.splits, values: (u, splits, ai, space, incr) => A.labels(splits, incr) },
        { label: c.unit || '', splits: A.splits, values: (u, splits, ai, space, incr) => A.labels(splits, incr, 1, { group: true }),
          size: (u, vals) => 30 + 7 * Math.max(3, ...(vals || []).map((v) => String(v).length)) }],
      // the legend names the files (uPlot sets it as text)
      series: [{},
        { label: 'baseline ' + file(data.baseline), stroke: '#888', width: 1.5, dash: [6, 4], spanGaps: true },
        { label: 'new ' + file(data.new), stroke: '#1565c0', width: 1.5, spanGaps: true }],
    };
    window.SOCMON_DIFF_CHARTS.push(new uPlot(opts, aligned(c.a, c.b), box));
  }
  if (!data.charts.length) charts.appendChild(el('p', 'note', data.no_charts || 'No timeline to chart.'));

  const table = document.getElementById('table');
  const t = el('table', 'diff');
  const head = el('tr');
  for (const h of ['kind', 'name', 'baseline', 'new', 'delta', 'change', 'significant']) head.appendChild(el('th', null, h));
  t.appendChild(el('thead')).appendChild(head);
  const body = el('tbody');
  for (const r of data.rows) {
    // rows of one run only say which in their change column
    if (r.side !== 'both') r.ratio = null;
    const tr = el('tr', r.side === 'both' ? null : 'only-' + r.side);
    const ch = r.side === 'both' ? change(r) : 'only in the ' + (r.side === 'new' ? 'new run' : 'baseline');
    for (const v of [r.kind, r.key, num(r.baseline), num(r.new), num(r.delta), ch, sig(r)]) tr.appendChild(el('td', null, v));
    body.appendChild(tr);
  }
  t.appendChild(body);
  table.appendChild(el('h2', null, 'All values (' + data.rows.length + ')'));
  table.appendChild(t);
}());
