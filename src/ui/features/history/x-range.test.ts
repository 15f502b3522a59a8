import { describe, expect, it } from "vitest";
import { createXRange } from "./x-range.ts";

describe("the time span the charts share", () => {
  it("zooms within the range and resets to it", () => {
    const x = createXRange([0, 1000], 10);
    let calls = 0;
    x.subscribe(() => calls++);
    x.zoomTo(600, 200);
    expect(x.view()).toEqual([200, 600]);
    expect(x.zoomed()).toBe(true);
    x.zoomTo(-50, 100);
    expect(x.view()).toEqual([0, 100]);
    x.zoomTo(500, 501);
    expect(x.view()).toEqual([495.5, 505.5]);
    x.reset();
    expect(x.view()).toEqual([0, 1000]);
    expect(x.zoomed()).toBe(false);
    expect(calls).toBe(4);
  });

  it("zooms in and out around the centre of the view; out past the range is no zoom", () => {
    const x = createXRange([0, 1000], 10);
    x.zoomBy(0.5);
    expect(x.view()).toEqual([250, 750]);
    x.zoomBy(0.5);
    expect(x.view()).toEqual([375, 625]);
    x.zoomBy(4);
    expect(x.zoomed()).toBe(false);
  });

  it("slides the range with the clock and keeps a zoom that still lies within it", () => {
    const x = createXRange([0, 1000], 10);
    x.zoomTo(500, 700);
    x.setFull([100, 1100]);
    expect(x.view()).toEqual([500, 700]);
    x.setFull([600, 1600]);
    expect(x.view()).toEqual([600, 700]);
    x.reset();
    expect(x.view()).toEqual([600, 1600]);
  });
});
