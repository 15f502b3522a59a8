import type uPlot from "uplot";
import { PROFILE_FILL, PROFILE_STROKE } from "./chart-layout.ts";
import type { MetricLimits } from "./profile-limits.ts";

/**
 * Draws a metric's limits behind its series: the band shaded with its edges, the target or
 * threshold as a dashed line. The y scale is widened to hold them (see `limitsRange`), so a
 * value far inside the band still shows where the band is.
 */
export function limitsPlugin(limits: MetricLimits, lineWidth: number): uPlot.Plugin {
  return {
    hooks: {
      drawAxes: [
        (u) => {
          const { ctx, bbox } = u;
          const y = (v: number) => u.valToPos(v, "y", true);
          ctx.save();
          ctx.beginPath();
          ctx.rect(bbox.left, bbox.top, bbox.width, bbox.height);
          ctx.clip();
          ctx.lineWidth = lineWidth * devicePixelRatio * 0.75;
          ctx.strokeStyle = PROFILE_STROKE;
          if (limits.band) {
            const top = y(limits.band.high);
            const bottom = y(limits.band.low);
            ctx.fillStyle = PROFILE_FILL;
            ctx.fillRect(bbox.left, top, bbox.width, bottom - top);
            ctx.setLineDash([2 * devicePixelRatio, 3 * devicePixelRatio]);
            for (const edge of [top, bottom]) {
              ctx.beginPath();
              ctx.moveTo(bbox.left, edge);
              ctx.lineTo(bbox.left + bbox.width, edge);
              ctx.stroke();
            }
          }
          if (limits.line !== null) {
            const at = y(limits.line);
            ctx.setLineDash([8 * devicePixelRatio, 5 * devicePixelRatio]);
            ctx.lineWidth = lineWidth * devicePixelRatio;
            ctx.beginPath();
            ctx.moveTo(bbox.left, at);
            ctx.lineTo(bbox.left + bbox.width, at);
            ctx.stroke();
          }
          ctx.restore();
        },
      ],
    },
  };
}

/** The y range of a metric's values widened to its limits, with a little room above and below. */
export function limitsRange(limits: MetricLimits | null): uPlot.Range.Function {
  return (_u, dataMin, dataMax) => {
    let lo = dataMin ?? Number.POSITIVE_INFINITY;
    let hi = dataMax ?? Number.NEGATIVE_INFINITY;
    for (const v of [limits?.band?.low, limits?.band?.high, limits?.line]) {
      if (v === undefined || v === null) continue;
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [0, 1];
    const pad = hi > lo ? (hi - lo) * 0.08 : Math.max(Math.abs(hi) * 0.05, 1);
    return [lo - pad, hi + pad];
  };
}
