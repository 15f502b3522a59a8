import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BatteryBar } from "./battery-bar.tsx";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe("BatteryBar in a real browser", () => {
  let host: HTMLDivElement;
  let root: Root;
  beforeEach(() => {
    host = document.createElement("div");
    document.body.append(host);
    root = createRoot(host);
  });
  afterEach(async () => {
    await act(async () => root.unmount());
    host.remove();
  });

  const render = (level: number | null, label?: string) => act(async () => root.render(<BatteryBar level={level} label={label} />));
  const meter = () => host.querySelector<HTMLElement>('[role="meter"]');

  it("is a meter named by its label, valued in percent, with the percentage shown", async () => {
    await render(64.4, "Battery of Tunnel 1");
    const bar = meter()!;
    expect(bar.getAttribute("aria-label")).toBe("Battery of Tunnel 1");
    expect(bar.getAttribute("aria-valuemin")).toBe("0");
    expect(bar.getAttribute("aria-valuemax")).toBe("100");
    expect(bar.getAttribute("aria-valuenow")).toBe("64.4");
    expect(bar.getAttribute("aria-valuetext")).toBe("64%");
    expect(host.textContent).toBe("64%");
    expect((bar.firstElementChild as HTMLElement).style.width).toBe("64.4%");
  });

  it("colours the fill by the SPEC thresholds: green above 50, yellow above 20, red otherwise", async () => {
    const colourAt = async (level: number) => {
      await render(level);
      const fill = meter()!.firstElementChild as HTMLElement;
      return { color: meter()!.dataset.color, fill: fill.className };
    };
    expect(await colourAt(51)).toEqual({ color: "green", fill: expect.stringContaining("bg-green-500") });
    expect(await colourAt(50)).toEqual({ color: "yellow", fill: expect.stringContaining("bg-yellow-400") });
    expect(await colourAt(21)).toEqual({ color: "yellow", fill: expect.stringContaining("bg-yellow-400") });
    expect(await colourAt(20)).toEqual({ color: "red", fill: expect.stringContaining("bg-red-500") });
  });

  it("keeps an out-of-range report inside the bar", async () => {
    await render(140);
    expect(meter()!.getAttribute("aria-valuenow")).toBe("100");
    expect((meter()!.firstElementChild as HTMLElement).style.width).toBe("100%");
  });

  it("shows No data and no meter when the MCU never reported a level", async () => {
    await render(null);
    expect(meter()).toBeNull();
    expect(host.textContent).toBe("No data");
  });
});
