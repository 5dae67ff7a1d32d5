/* socmon's chart page: reads the run (live: api/info then the server-sent events of api/stream;
 * a report: window.SOCMON_DATA, the same info and row objects) into columns, and draws the
 * target's dashboard (dashboards.js), the ESP heat map (heatmap.js) and any chart the user adds,
 * all uPlot charts on one time axis: zoom one and all follow, hover one and all show that time.
 * Rows flagged MISSED and `gap` events become null points, so a gap is drawn as a gap.
 * window.socmon exposes the state to the tests (tests/web/). */
(function () {
  'use strict';

  const MISSED = 1;          // SOCMON_SAMPLE_MISSED (include/socmon/sample.h)
  const MAX_POINTS = 12000;  // live history kept per chart: ten minutes at the server's 20 rows/s
  const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2',
    '#17becf', '#bcbd22', '#7f7f7f'];
  const $ = (id) => document.getElementById(id);

  const S = window.socmon = {
    info: null, live: false, ended: false, paused: false, follow: true,
    t0: null, lastSeq: null, rows: 0, gaps: 0,
    // columns, one entry per point (a gap is a point of nulls): x in seconds since the start
    xs: [], dt: [], m: [], d: new Map(), dnames: [], dcols: [],
    tunit: { name: 's', k: 1 },   // the time axis' unit (x values stay seconds)
    charts: [], heat: null, cursorIdx: null, extra: [], plane: 'all', ready: false, errors: [],
  };

  // ---- columns ----

  function resetColumns() {
    S.xs = []; S.dt = []; S.d = new Map();
    S.m = S.info.metrics.map(() => []);
    setDnames(S.dnames);
    if (S.heat) S.heat.reset();
  }

  // The counters whose deltas rows carry, in the order of "d"; S.d holds exactly their columns.
  function setDnames(names) {
    const d = new Map();
    for (const name of names) d.set(name, S.d.get(name) || S.xs.map(() => null));
    S.dnames = names;
    S.d = d;
    S.dcols = names.map((n) => d.get(n));
  }

  function pushPoint(x, dtMs, mv, dv) {
    S.xs.push(x);
    S.dt.push(dtMs);
    for (let i = 0; i < S.m.length; i++) S.m[i].push(mv && mv[i] !== undefined ? mv[i] : null);
    for (let k = 0; k < S.dcols.length; k++) S.dcols[k].push(dv && dv[k] !== undefined ? dv[k] : null);
  }

  // A null point between the last point and x: uPlot breaks its lines there.
  function pushGap(x) {
    if (!S.xs.length) return;
    const prev = S.xs[S.xs.length - 1];
    if (x <= prev) x = prev + 1e-9;
    pushPoint(x, null, null, null);
  }

  function addRow(r) {
    if (S.lastSeq !== null && r.seq !== undefined && r.seq <= S.lastSeq) return; // replayed after a reconnect
    if (r.seq !== undefined) S.lastSeq = r.seq;
    // the time axis starts where the run started: info.t0_ns when the server says (a page opened
    // late gets only the rows it still holds), else the start of the first row
    if (S.t0 === null) S.t0 = typeof S.info.t0_ns === 'number' ? S.info.t0_ns : r.t_ns - r.dt_ns;
    const x = (r.t_ns - S.t0) / 1e9;
    if (((r.flags & MISSED) || r.missed > 0) && S.xs.length) {
      pushGap((S.xs[S.xs.length - 1] + x) / 2);
      S.gaps++;
    }
    pushPoint(x, r.dt_ns / 1e6, r.m, r.d);
    // values that cannot be counts (a counter set back, a jump, a dead bus): said, not hidden
    if (r.note) S.valueNotes.push({ x, note: r.note });
    S.rows++;
    if (S.live && S.xs.length > MAX_POINTS + 1000) {
      const cut = S.xs.length - MAX_POINTS;
      S.xs.splice(0, cut); S.dt.splice(0, cut);
      S.m.forEach((c) => c.splice(0, cut));
      S.d.forEach((c) => c.splice(0, cut));
      if (S.heat) S.heat.reset();
    }
  }

  function addGap(g) {
    if (S.t0 === null) return;
    pushGap(((g.t0_ns + g.t1_ns) / 2 - S.t0) / 1e9);
    S.gaps++;
  }

  // The series a chart draws: a metric's values, or a counter's delta per second of its interval.
  function column(src) {
    if (src.m !== undefined) return S.m[src.m];
    // a counter not in the stream yet (just picked: its subscription is on the way) is nulls as
    // long as x, never a shorter column beside it
    const d = S.d.get(src.d);
    if (!d) return S.xs.map(() => null);
    return d.map((v, i) => (v === null || !S.dt[i] ? null : v / (S.dt[i] / 1e3)));
  }

  // ---- charts ----

  function fmt(v, precision) {
    if (v === null || v === undefined || !isFinite(v)) return '–';
    const p = precision === undefined || precision < 0 ? 3 : Math.min(precision, 9);
    if (v !== 0 && (Math.abs(v) >= 1e9 || Math.abs(v) < Math.pow(10, -p))) return v.toExponential(3);
    return v.toLocaleString('en', { maximumFractionDigits: p, minimumFractionDigits: 0 });
  }

  // The length of one point's interval in ns: a report merges k intervals into a row.
  function rowInterval() {
    return S.info.interval_ns * (S.merge || 1);
  }

  // A legend's unit: a count per interval says so (the axis adds the interval's length).
  function legendUnit(unit, def) {
    return window.socmonUnits.isCount(unit, def) ? unit + ' per interval' : unit || '';
  }

  function width(box) {
    return Math.max(280, Math.floor(box.getBoundingClientRect().width) - 16);
  }

  // Every chart shows the same x range: a selection in one sets it on all.
  function setAllX(min, max) {
    S.syncing = true;
    for (const c of S.charts) c.u.setScale('x', { min: min, max: max });
    S.syncing = false;
  }

  function makeChart(spec, removable) {
    const box = document.createElement('figure');
    box.className = 'chart';
    const cap = document.createElement('figcaption');
    // a count per interval says so, with the interval (units.js): "packets per interval (100 µs)"
    const def = spec.series.length && spec.series[0].m !== undefined ? S.info.metrics[spec.series[0].m].metric : null;
    const unitText = spec.labels ? '' : window.socmonUnits.chartUnit(spec.unit, rowInterval(), def);
    cap.textContent = spec.title + (unitText ? ' (' + unitText + ')' : '');
    box.appendChild(cap);
    if (removable) {
      const x = document.createElement('button');
      x.type = 'button'; x.className = 'close'; x.textContent = '×'; x.title = 'remove this chart';
      x.addEventListener('click', () => removeChart(c));
      cap.appendChild(x);
    }
    $('charts').appendChild(box);
    const labels = spec.labels;
    const tu = S.tunit;
    const series = [{ label: 'time', value: (u, v) => (v === null ? '–' : fmt(v * tu.k, 6) + ' ' + tu.name) }];
    // the legend (legend.js): the value at the cursor, else last/mean/max of the range in view
    spec.series.forEach((s, i) => series.push({
      label: s.label, stroke: PALETTE[i % PALETTE.length], width: 1.5, spanGaps: false,
      paths: labels ? uPlot.paths.stepped({ align: 1 }) : undefined,
      points: { show: window.socmonLegend.showPoints },
      value: window.socmonLegend.value(legendUnit(s.unit, def), labels,
        (v) => (labels ? (v === null ? '–' : labels[v] || fmt(v, 0)) : fmt(v, s.precision) + (s.unit ? ' ' + legendUnit(s.unit, def) : '')), waiting),
    }));
    const timeLabel = (S.info.simulated ? 'simulated ' : '') + 'time since start (' + tu.name + ')';
    // ticks short enough for the axis: 400M, 2.5k, 0.25 (the legend shows the full value)
    // "packets per interval (100 µs)" is longer than the axis is high in the default font
    const yAxis = { label: unitText, size: 64, splits: window.socmonAxis.splits, values: (u, splits, ai, space, incr) => window.socmonAxis.labels(splits, incr, 1, { compact: true }) };
    if (unitText.length > 20) yAxis.labelFont = 'bold 10px system-ui, sans-serif';
    if (labels) {
      yAxis.values = (u, splits) => splits.map((v) => (Number.isInteger(v) ? labels[v] || '' : ''));
      yAxis.size = 100;
      yAxis.label = '';   // the tick labels name the values
    }
    const opts = {
      width: width(box), height: 220, series: series,
      // axis.js: ticks that cannot loop forever, a one-instant x range widened, a constant's y
      // range from 0 (not its rounding noise blown up to the chart's height)
      scales: { x: { time: false, range: window.socmonAxis.xRange }, y: labels ? { range: [-0.5, labels.length - 0.5] } : { range: window.socmonAxis.yRange } },
      // as many decimals as the tick step needs: 0.0015 s, not two ticks both reading 0.002
      axes: [{ label: timeLabel, splits: window.socmonAxis.splits, values: (u, splits, ai, space, incr) => window.socmonAxis.labels(splits, incr, tu.k) }, yAxis],
      cursor: { sync: { key: 'socmon', setSeries: false }, drag: { x: true, y: false, setScale: false }, focus: { prox: 16 } },
      focus: { alpha: 0.3 },   // the series nearest the cursor stands out (60 accelerators in one chart)
      legend: { live: true },
      plugins: window.socmonPhases ? [window.socmonPhases.plugin(() => ({ phases: S.info.phases, t0: S.t0 }))] : [],
      hooks: {
        setSelect: [(u) => {
          if (u.select.width < 2) return;
          const min = u.posToVal(u.select.left, 'x'), max = u.posToVal(u.select.left + u.select.width, 'x');
          u.setSelect({ left: 0, width: 0, top: 0, height: 0 }, false);
          S.follow = false;
          updateButtons();
          setAllX(min, max);
        }],
        setCursor: [(u) => {
          const i = u.cursor.idx;
          S.cursorIdx = i === null || i === undefined ? null : i;
          drawHeat();
        }],
        setScale: [(u, key) => { if (key === 'x') window.socmonLegend.refresh(u); }],
      },
    };
    const c = { spec: spec, box: box, sources: spec.series.map((s) => (s.d !== undefined ? { d: s.d } : { m: s.m })) };
    const cols = data(c);
    window.socmonLegend.distinguish(opts.series, cols.slice(1));
    c.u = new uPlot(opts, cols, box);
    window.socmonLegend.markers(c.u);
    // a chart of many series (every tile of an 8x8 SoC) keeps its legend to a few scrolling lines
    const legend = c.u.root.querySelector('.u-legend');
    if (legend) {
      const wrap = document.createElement('div');
      wrap.className = 'legend-wrap';
      legend.parentNode.insertBefore(wrap, legend);
      wrap.appendChild(legend);
    }
    c.u.over.addEventListener('dblclick', () => { S.follow = true; updateButtons(); redraw(true); });
    S.charts.push(c);
    return c;
  }

  function removeChart(c) {
    c.u.destroy();
    c.box.remove();
    S.charts = S.charts.filter((x) => x !== c);
    if (c.spec.counter) {
      S.extra = S.extra.filter((n) => n !== c.spec.counter);
      if (S.live) subscribe();
    }
  }

  function data(c) {
    return [S.xs].concat(c.sources.map(column));
  }

  // The latest real row (not a gap point): the live heat map's frame when no cursor says otherwise.
  function lastRow() {
    for (let i = S.xs.length - 1; i >= 0; i--) if (S.dt[i]) return i;
    return null;
  }

  // A recording's heat map opens on its busiest row (the most NoC injections per ms), not on
  // its last, which is often the quiet end of the workload.
  function busiestRow() {
    const cols = [];
    S.info.metrics.forEach((m, i) => { if (m.metric === 'noc_injections') cols.push(S.m[i]); });
    let best = lastRow(), bestV = -1;
    for (let i = 0; i < S.xs.length; i++) {
      if (!S.dt[i]) continue;
      let v = 0;
      for (const c of cols) v += c[i] || 0;
      if (v / S.dt[i] > bestV) { bestV = v / S.dt[i]; best = i; }
    }
    return best;
  }

  function drawHeat() {
    if (!S.heat) return;
    let i = S.cursorIdx;
    if (i !== null && !S.dt[i]) i = i > 0 && S.dt[i - 1] ? i - 1 : i + 1 < S.xs.length && S.dt[i + 1] ? i + 1 : null;
    S.heat.draw(i !== null && i < S.xs.length ? i : S.paused ? S.heat.idx : S.live ? lastRow() : S.busiest);
  }

  let drawPending = false;
  // New data into the charts (not while paused: they keep their copy), and with resetScales the
  // whole time range of what they show.
  function redraw(resetScales) {
    if (!S.paused) {
      for (const c of S.charts) {
        const cols = data(c);
        if (window.socmonLegend.distinguish(c.u.series, cols.slice(1))) window.socmonLegend.markers(c.u);
        c.u.setData(cols, S.follow);
        if (!S.follow) window.socmonLegend.refresh(c.u);   // no rescale: uPlot leaves the legend as it was
      }
    }
    const xs = S.charts.length ? S.charts[0].u.data[0] : S.xs;
    if (resetScales && xs.length) setAllX(xs[0], xs[xs.length - 1]);
    drawHeat();
    status();
  }

  // Live rows arrive up to 20 a second: draw at most every 100 ms.
  function scheduleDraw() {
    if (drawPending) return;
    drawPending = true;
    setTimeout(() => { drawPending = false; redraw(false); }, 100);
  }

  // ---- the page around the charts ----

  // A live page before its first row: the run has not given a sample yet (a long interval, a
  // program not started): it says it waits, where "no data in view" would read as a broken page.
  function waiting() {
    return S.live && !S.rows && !S.ended ? 'waiting for the first sample' : null;
  }

  function status() {
    if (waiting()) {
      $('status').textContent = 'live: ' + waiting() + (S.info ? ' (every ' + window.socmonUnits.time(S.info.interval_ns / 1e9) + ')' : '');
      return;
    }
    const span = S.xs.length ? S.xs[S.xs.length - 1] : 0;
    let s = S.rows.toLocaleString('en') + ' rows, ' + window.socmonUnits.time(span);
    if (S.gaps) s += ', ' + S.gaps + ' gap' + (S.gaps > 1 ? 's' : '');
    if (S.live) s = (S.ended ? 'run ended: ' : S.paused ? 'paused: ' : 'live: ') + s;
    $('status').textContent = s;
  }

  function updateButtons() {
    $('pause').hidden = !S.live || S.ended;
    $('pause').textContent = S.paused ? 'Resume' : 'Pause';
    $('follow').hidden = !S.live || S.follow;
  }

  function note(text) {
    const p = document.createElement('p');
    p.textContent = text;
    $('notes').appendChild(p);
  }

  // One note per interval whose values the pipeline flagged (value_notes.c's words), the first
  // VALUE_NOTES_MAX of them: the charts draw those values as read, the note says they are wrong.
  const VALUE_NOTES_MAX = 10;
  function valueNotes() {
    const v = S.valueNotes || [];
    v.slice(0, VALUE_NOTES_MAX).forEach((n) => note('Interval ending at ' + window.socmonUnits.time(n.x) + ': ' +
      n.note + ' (a counter moved more than its maximum rate allows, or a block read all-ones: not counts)'));
    if (v.length > VALUE_NOTES_MAX) note((v.length - VALUE_NOTES_MAX) + ' more intervals have implausible values.');
  }

  function header() {
    const i = S.info;
    $('title').textContent = i.target + (i.device && i.device !== i.target ? ' (' + i.device + ')' : '');
    document.title = 'socmon: ' + i.target;
    const U = window.socmonUnits;
    $('facts').textContent = 'interval ' + U.time(i.interval_ns / 1e9) +
      (S.merge > 1 ? ' (rows of ' + S.merge + ': ' + U.time(rowInterval() / 1e9) + ')' : '') + ' · ' + (i.simulated ? 'simulated time' : 'real time') +
      ' · ' + i.counters.length + ' counters · ' + i.metrics.length + ' metric results' + (S.live ? ' · live' : ' · recording');
  }

  function picker() {
    const sel = $('picker');
    const gm = document.createElement('optgroup'); gm.label = 'metrics';
    S.info.metrics.forEach((m, i) => {
      const o = document.createElement('option');
      o.value = 'm:' + i; o.textContent = m.name + (m.unit ? ' (' + window.socmonUnits.chartUnit(m.unit, rowInterval(), m.metric) + ')' : '');
      gm.appendChild(o);
    });
    const gc = document.createElement('optgroup'); gc.label = 'counters (per second: /s)';
    S.info.counters.forEach((c) => {
      const o = document.createElement('option');
      o.value = 'c:' + c.name; o.textContent = c.name + ' (' + window.socmonUnits.rate(c.unit) + ')';
      // a report holds the deltas of the counters it was written with, and no others
      if (!S.live && !S.d.has(c.name)) { o.disabled = true; o.textContent += ' – not in this report'; }
      gc.appendChild(o);
    });
    sel.appendChild(gm);
    sel.appendChild(gc);
    sel.addEventListener('change', () => {
      const v = sel.value;
      sel.value = '';
      if (v.startsWith('m:')) {
        const m = S.info.metrics[Number(v.slice(2))];
        makeChart({ title: m.name, unit: m.unit, labels: m.labels || null,
          series: [{ m: Number(v.slice(2)), label: m.name, unit: m.unit, precision: m.precision }] }, true);
      } else if (v.startsWith('c:')) {
        const name = v.slice(2), c = S.info.counters.find((x) => x.name === name);
        const ru = window.socmonUnits.rate(c.unit);
        makeChart({ title: name, unit: ru, counter: name, series: [{ d: name, label: name, unit: ru, precision: 1 }] }, true);
        if (S.live && !S.extra.includes(name)) { S.extra.push(name); subscribe(); }
      }
      redraw(false);
    });
  }

  function build() {
    header();
    const dash = window.socmonDashboard(S.info);
    // the heat map needs the NoC monitors (a recording of -e 'tile*.l2_*' has none)
    const noc = S.info.metrics.some((m) => /^noc_(injections|backpressure)$/.test(m.metric)) ||
      S.info.counters.some((c) => /^noc_(inj|bp)_p/.test(c.counter));
    if (dash.heat && noc) {
      S.heat = window.socmonHeatmap($('heat'), S.info, S, {
        hint: (i) => (S.cursorIdx !== null ? ' (at the cursor)' : S.live ? ' (latest)' : i === S.busiest ? ' (the busiest; hover a chart to move)' : ''),
        onPlane: (p) => { S.plane = p; if (S.live) subscribe(); else if (p !== 'all' && !S.d.has('tile0.noc_inj_p' + p)) note('This report holds no per-plane counter deltas: choose "all planes".'); },
      });
    }
    dash.panels.forEach((p) => makeChart(p, false));
    if (!dash.panels.length) note('No metrics to chart for this run' + (S.info.metrics.length ? '' : ' (its target has none)') +
      ': add metric or counter charts with the picker above.');
    picker();
    updateButtons();
    $('pause').addEventListener('click', () => {
      S.paused = !S.paused;
      // uPlot holds the columns themselves, which keep growing: a paused chart gets a copy
      if (S.paused) for (const c of S.charts) c.u.setData(data(c).map((col) => col.slice()), false);
      updateButtons();
      redraw(false);
      status();
    });
    $('follow').addEventListener('click', () => { S.follow = true; updateButtons(); redraw(true); });
    window.addEventListener('resize', () => { for (const c of S.charts) c.u.setSize({ width: width(c.box), height: 220 }); });
  }

  // ---- a report: everything is in window.SOCMON_DATA ----

  function fromReport(data) {
    S.info = data.info;
    S.dnames = data.counters || [];
    S.merge = data.merge || 1;
    resetColumns();
    S.valueNotes = [];
    for (const r of data.rows) addRow(r);
    (data.notes || []).forEach(note);
    valueNotes();
    S.busiest = busiestRow();
    // a recording's length is known: its axis reads in µs or ms when it is that short
    const span = S.xs.length ? S.xs[S.xs.length - 1] : 0;
    S.tunit = span < 2e-3 ? { name: 'µs', k: 1e6 } : span < 2 ? { name: 'ms', k: 1e3 } : S.tunit;
    build();
    // a report opens with its summary (summary.js); a live run has no end to sum up to
    S.summary = window.socmonSummary($('summary'), data);
    redraw(true);
    S.ready = true;
  }

  // ---- live: api/info, then api/stream ----

  // fnmatch(3) without flags, as the server matches ?counters=: * and ? cross dots too.
  function globRe(g) {
    let re = '';
    for (let i = 0; i < g.length; i++) {
      const ch = g[i];
      if (ch === '*') re += '.*';
      else if (ch === '?') re += '.';
      else if (ch === '[') {
        const j = g.indexOf(']', i + 2);
        if (j < 0) { re += '\\['; continue; }
        let cls = g.slice(i + 1, j).replace(/\\/g, '\\\\');
        if (cls[0] === '!') cls = '^' + cls.slice(1);
        re += '[' + cls + ']';
        i = j;
      } else re += ch.replace(/[.+^${}()|\\\]]/g, '\\$&');
    }
    return new RegExp('^' + re + '$');
  }

  function wanted() {
    const globs = S.extra.slice();
    if (S.heat && S.plane !== 'all') globs.push('*.noc_inj_p' + S.plane, '*.noc_stop_p' + S.plane + '_*');
    return globs;
  }

  let source = null;
  function subscribe() {
    if (source) source.close();
    const globs = wanted(), res = globs.map(globRe);
    // the server sends `event: counters` with the order of "d"; until then, the same selection
    setDnames(S.info.counters.map((c) => c.name).filter((n) => res.some((r) => r.test(n))));
    S.lastSeq = null; S.rows = 0; S.gaps = 0; S.ended = false;
    resetColumns();
    source = new EventSource('api/stream' + (globs.length ? '?counters=' + encodeURIComponent(globs.join(',')) : ''));
    source.onmessage = (ev) => { addRow(JSON.parse(ev.data)); scheduleDraw(); };
    source.addEventListener('counters', (ev) => { setDnames(JSON.parse(ev.data).counters); });
    source.addEventListener('gap', (ev) => { addGap(JSON.parse(ev.data)); scheduleDraw(); });
    source.addEventListener('end', () => {
      S.ended = true;
      source.close();
      if (S.paused) { S.paused = false; }   // nothing more comes: show all of it
      updateButtons();
      redraw(false);
    });
    source.onerror = () => { if (!S.ended) $('status').textContent = 'connection lost: retrying…'; };
  }

  function fromServer() {
    S.live = true;
    fetch('api/info').then((r) => {
      if (!r.ok) throw new Error('api/info: HTTP ' + r.status);
      return r.json();
    }).then((info) => {
      S.info = info;
      resetColumns();
      build();
      subscribe();
      status();
      S.ready = true;
    }).catch((e) => { $('status').textContent = 'cannot read the run: ' + e.message; S.errors.push(String(e)); });
  }

  function start() {
    if (window.SOCMON_DATA) fromReport(window.SOCMON_DATA);
    else fromServer();
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
