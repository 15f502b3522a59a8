import { useSyncExternalStore } from "react";

/**
 * How big a chart's type, axes and plot are on this screen, following the app's breakpoints
 * (uno.config.ts): a phone, a laptop, and a wall screen from 2560 px where everything is larger
 * to be read from across the room.
 */
export interface ChartLayout {
  name: "phone" | "laptop" | "wall";
  /** Plot height with its axes, CSS px. */
  height: number;
  /** The timeline's height per controller lane. */
  laneHeight: number;
  font: string;
  /** The y axis's width, the same on every chart so their plots line up when stacked. */
  yAxisSize: number;
  /** The x axis's minimum room per tick label. */
  xSpace: number;
  lineWidth: number;
}

const FONT_STACK = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

const LAYOUTS: Record<ChartLayout["name"], ChartLayout> = {
  phone: { name: "phone", height: 190, laneHeight: 38, font: `12px ${FONT_STACK}`, yAxisSize: 52, xSpace: 56, lineWidth: 2 },
  laptop: { name: "laptop", height: 230, laneHeight: 38, font: `12px ${FONT_STACK}`, yAxisSize: 56, xSpace: 64, lineWidth: 2 },
  wall: { name: "wall", height: 380, laneHeight: 64, font: `22px ${FONT_STACK}`, yAxisSize: 96, xSpace: 120, lineWidth: 3 },
};

const WALL = "(min-width: 2560px)";
const LAPTOP = "(min-width: 640px)";

function current(): ChartLayout["name"] {
  if (typeof window === "undefined") return "laptop";
  if (window.matchMedia(WALL).matches) return "wall";
  return window.matchMedia(LAPTOP).matches ? "laptop" : "phone";
}

function subscribe(fn: () => void): () => void {
  const queries = [WALL, LAPTOP].map((q) => window.matchMedia(q));
  for (const q of queries) q.addEventListener("change", fn);
  return () => {
    for (const q of queries) q.removeEventListener("change", fn);
  };
}

/** The layout of the moment; a component re-renders (and rebuilds its chart) when a breakpoint is crossed. */
export function useChartLayout(): ChartLayout {
  return LAYOUTS[useSyncExternalStore(subscribe, current)];
}

/** Each metric's line colour (the band under it is the same, faint); dark enough on white for WCAG's 3:1 for graphics. */
export const METRIC_COLORS = {
  temperature: "#c2410c",
  humidity: "#1d4ed8",
  soil_temperature: "#a16207",
  co2: "#6d28d9",
  soil_moisture: "#0f766e",
  battery: "#15803d",
} as const;

/** The profile's band and lines: the app's green, apart from every metric's colour. */
export const PROFILE_FILL = "rgba(22, 163, 74, 0.13)";
export const PROFILE_STROKE = "#15803d";

/** Lines of a farm's MCUs (a colour each, then again with dashes). */
export const SERIES_PALETTE = ["#1d4ed8", "#c2410c", "#15803d", "#6d28d9", "#be123c", "#0f766e", "#a16207", "#4338ca", "#0e7490", "#7c2d12"];

export const AXIS_STROKE = "#4b5563";
export const GRID_STROKE = "#e5e7eb";

/** A colour with an alpha, from a #rrggbb. */
export function withAlpha(hex: string, alpha: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}
