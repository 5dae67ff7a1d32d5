/* socmon's dashboards: which charts a target's page opens with, chosen from info.target and
 * info.layout (docs/charts.md lists them with their formulas). A dashboard only names metrics
 * (by their definition's name, every instance of it a series); socmon.js draws them. Metrics a
 * recording lacks are left out, so a dashboard works with a metric file or a counter subset. */
(function () {
  'use strict';

  // One panel: a title and the metric definitions it shows; `label` names a definition's series
  // when a panel holds several per instance (Zynq's read/write stall cycles).
  function P(title, defs, opts) {
    return Object.assign({ title: title, defs: defs }, opts || {});
  }

  const boards = {
    // What the Vitis IDE graphs: PL (APM slots) next to PS (A9 cores), on one time axis.
    zynq: [
      P('PL write throughput per APM slot', ['wr_throughput']),
      P('PL read throughput per APM slot', ['rd_throughput']),
      P('PL average write latency per APM slot', ['avg_wr_latency_ns']),
      P('PL average read latency per APM slot', ['avg_rd_latency_ns']),
      P('CPU utilisation per A9 core', ['cpu_util']),
      P('CPU instructions per cycle (IPC)', ['ipc']),
      P('L1 data cache miss rate', ['l1d_miss_rate']),
      P('CPU stall cycles per instruction (read: cache refills, write: memory writes)',
        ['rd_stall_cpi', 'wr_stall_cpi'], { label: { rd_stall_cpi: 'read', wr_stall_cpi: 'write' } }),
    ],
    // The heat map (heatmap.js) shows the NoC per tile; these are memory and accelerators.
    esp: [
      P('Off-chip memory (DDR) AHB beats per memory tile', ['ddr_rate']),
      P('LLC hit rate per memory tile', ['llc_hit_rate']),
      P('L2 hit rate', ['l2_hit_rate']),
      P('Accelerator utilisation', ['acc_util']),
      P('Accelerator communication share', ['acc_comm_share']),
      P('Coherence and DMA flits at the memory tiles', ['coh_traffic', 'dma_traffic']),
      P('NoC injections per plane (all tiles)', ['noc_inj_plane0', 'noc_inj_plane1', 'noc_inj_plane2',
        'noc_inj_plane3', 'noc_inj_plane4', 'noc_inj_plane5']),
      P('NoC backpressure per plane (all tiles)', ['noc_bp_plane0', 'noc_bp_plane1', 'noc_bp_plane2',
        'noc_bp_plane3', 'noc_bp_plane4', 'noc_bp_plane5']),
    ],
    tensix: [
      P('Bank utilisation', ['fpu_util', 'sfpu_util', 'math_util', 'unpack_util', 'pack_util']),
      P('Bound scores', ['math_bound_score', 'unpack_bound_score', 'pack_bound_score', 'risc_bound_score']),
      P('Likely bottleneck (dominant bound)', ['dominant_bound']),
      P('Thread instruction issue and stall rates', ['issue_rate', 'stall_rate']),
      P('NoC bytes per cycle', ['noc_bytes_per_cycle', 'noc1_bytes_per_cycle']),
      P('L1 congestion index', ['l1_congestion_index']),
    ],
  };

  function targetName(info) {
    return String(info.target || '').split(':')[0];
  }

  // A target without a dashboard of its own (Ibex, the host, a user's target): its
  // device-wide metrics, one chart per unit, or else its first per-instance ones.
  function generic(info) {
    const wide = info.metrics.filter((m) => !m.instance);
    const pool = wide.length ? wide : info.metrics;
    const byUnit = new Map();
    for (const m of pool) {
      const key = m.labels ? 'label:' + m.metric : m.unit;
      if (!byUnit.has(key)) byUnit.set(key, []);
      const defs = byUnit.get(key);
      if (!defs.includes(m.metric)) defs.push(m.metric);
    }
    const panels = [];
    for (const [key, defs] of byUnit) {
      if (panels.length >= 6) break;
      const title = key.startsWith('label:') ? key.slice(6) : defs.slice(0, 4).join(', ') + (defs.length > 4 ? ', …' : '');
      panels.push(P(title, defs.slice(0, 8)));
    }
    return panels;
  }

  // The dashboard of info: {heat: whether the tile grid heat map shows, panels: [...]}, each
  // panel's series resolved to metric indices: {title, unit, labels, series: [{m, label}]}.
  window.socmonDashboard = function (info) {
    const name = targetName(info);
    const panels = boards[name] || generic(info);
    const out = [];
    for (const p of panels) {
      const series = [];
      let unit = null, labels = null;
      p.defs.forEach((def) => {
        info.metrics.forEach((m, i) => {
          if (m.metric !== def) return;
          unit = unit === null ? m.unit : unit;
          labels = labels || m.labels || null;
          const extra = p.label ? p.label[def] : p.defs.length > 1 && m.instance ? def : '';
          const label = m.instance ? m.instance + (extra ? ' ' + extra : '') : extra || def;
          series.push({ m: i, label: label, unit: m.unit, precision: m.precision });
        });
      });
      if (series.length) out.push({ title: p.title, unit: unit || '', labels: labels, series: series });
    }
    return { heat: !!(info.layout && info.layout.kind === 'esp-grid'), panels: out };
  };
})();
