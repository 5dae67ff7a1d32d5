// Workload phases as bands behind a chart's series (docs/charts.md "Phases"): the page's
// info.phases, [{name, t0_ns, t1_ns}] on the samples' clock, one shaded band each, its name at
// the top, so a reader sees at once which interval is which part of the workload (multifft's
// coherence modes). A uPlot plugin: window.socmonPhases.plugin(get), get() giving {phases, t0}
// (t0: the ns the x axis starts at). The chart's root holds data-phase-bands = bands drawn, for
// the browser test.
(function () {
  'use strict';
  const FILL = ['rgba(31,119,180,0.10)', 'rgba(255,127,14,0.10)', 'rgba(44,160,44,0.10)', 'rgba(148,103,189,0.10)'];

  function draw(u, get) {
    const g = get();
    const phases = (g && g.phases) || [];
    if (!phases.length || g.t0 === null || g.t0 === undefined) return;
    const ctx = u.ctx, b = u.bbox;
    let drawn = 0;
    ctx.save();
    ctx.beginPath();
    ctx.rect(b.left, b.top, b.width, b.height);
    ctx.clip();
    phases.forEach((p, i) => {
      const x0 = u.valToPos((p.t0_ns - g.t0) / 1e9, 'x', true), x1 = u.valToPos((p.t1_ns - g.t0) / 1e9, 'x', true);
      if (!(x1 > b.left && x0 < b.left + b.width)) return;   // outside the zoomed range
      ctx.fillStyle = FILL[i % FILL.length];
      ctx.fillRect(x0, b.top, x1 - x0, b.height);
      ctx.fillStyle = 'rgba(0,0,0,0.55)';
      ctx.font = Math.round(10 * (window.devicePixelRatio || 1)) + 'px sans-serif';
      ctx.fillText(p.name, Math.max(x0, b.left) + 4, b.top + 12 * (window.devicePixelRatio || 1));
      drawn++;
    });
    ctx.restore();
    u.root.dataset.phaseBands = String(drawn);
  }

  window.socmonPhases = {
    plugin: (get) => ({ hooks: { drawClear: [(u) => draw(u, get)] } }),
  };
})();
