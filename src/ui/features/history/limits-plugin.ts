import type uPlot from "uplot";
import { PROFILE_FILL, PROFILE_STROKE } from "./chart-layout.ts";
import type { MetricLimits } from "./profile-limits.ts";

/**
 * Draws a metric's limits behind its series: the band shaded with its edges, the target or
 * threshold as a dashed line. The y scale is widened to hold them (see `limitsRange`), so a
 * value far inside the band still shows where the band is.
 */
export function limitsPlugin(limits: MetricLimits, lineWidth: number): uPlot.Plugin {
  const plan = limits.plan ?? [];
  return {
    hooks: {
      drawAxes: [
        (u) => {
          const { ctx, bbox } = u;
          const y = (v: number) => u.valToPos(v, "y", true);
          const x = (t: number) => Math.max(bbox.left, Math.min(bbox.left + bbox.width, u.valToPos(t, "x", true)));
          ctx.save();
          ctx.beginPath();
          ctx.rect(bbox.left, bbox.top, bbox.width, bbox.height);
          ctx.clip();
          // The profile's limits hold where no batch's plan did.
          for (const [left, right] of gaps(plan.map((p) => [x(p.from), x(p.to)] as const), bbox.left, bbox.left + bbox.width)) {
            drawLimits(ctx, limits.band, limits.line, left, right, y, lineWidth);
          }
          for (const piece of plan) {
            const left = x(piece.from);
            const right = x(piece.to);
            if (right > left) drawLimits(ctx, piece.band, piece.line, left, right, y, lineWidth);
          }
          ctx.restore();
        },
      ],
    },
  };
}

/** A band shaded with its dotted edges, and a dashed line, between two x positions (canvas pixels). */
function drawLimits(
  ctx: CanvasRenderingContext2D,
  band: MetricLimits["band"],
  line: number | null,
  left: number,
  right: number,
  y: (v: number) => number,
  lineWidth: number,
) {
  ctx.lineWidth = lineWidth * devicePixelRatio * 0.75;
  ctx.strokeStyle = PROFILE_STROKE;
  if (band) {
    const top = y(band.high);
    const bottom = y(band.low);
    ctx.fillStyle = PROFILE_FILL;
    ctx.fillRect(left, top, right - left, bottom - top);
    ctx.setLineDash([2 * devicePixelRatio, 3 * devicePixelRatio]);
    for (const edge of [top, bottom]) {
      ctx.beginPath();
      ctx.moveTo(left, edge);
      ctx.lineTo(right, edge);
      ctx.stroke();
    }
  }
  if (line !== null) {
    const at = y(line);
    ctx.setLineDash([8 * devicePixelRatio, 5 * devicePixelRatio]);
    ctx.lineWidth = lineWidth * devicePixelRatio;
    ctx.beginPath();
    ctx.moveTo(left, at);
    ctx.lineTo(right, at);
    ctx.stroke();
  }
}

/** The parts of [from, to] no interval covers. */
export function gaps(intervals: readonly (readonly [number, number])[], from: number, to: number): [number, number][] {
  const sorted = [...intervals].filter(([a, b]) => b > a).sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  let at = from;
  for (const [a, b] of sorted) {
    if (a > at) out.push([at, Math.min(a, to)]);
    at = Math.max(at, b);
    if (at >= to) break;
  }
  if (at < to) out.push([at, to]);
  return out.filter(([a, b]) => b > a);
}

/** The y range of a metric's values widened to its limits, with a little room above and below. */
export function limitsRange(limits: MetricLimits | null): uPlot.Range.Function {
  return (_u, dataMin, dataMax) => {
    let lo = dataMin ?? Number.POSITIVE_INFINITY;
    let hi = dataMax ?? Number.NEGATIVE_INFINITY;
    const planned = (limits?.plan ?? []).flatMap((p) => [p.band?.low, p.band?.high, p.line]);
    for (const v of [limits?.band?.low, limits?.band?.high, limits?.line, ...planned]) {
      if (v === undefined || v === null) continue;
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [0, 1];
    const pad = hi > lo ? (hi - lo) * 0.08 : Math.max(Math.abs(hi) * 0.05, 1);
    return [lo - pad, hi + pad];
  };
}
