import type { Locator, Page } from "playwright";
import { expect } from "vitest";

/**
 * What a person sees of the toast with `text` (the newest one with it): whether the element at its
 * centre is part of it, i.e. no other toast (nor anything else) lies over it, and whether its
 * content is drawn opaque. Playwright's visible state says neither: it ignores what overlaps.
 */
export async function toastSight(page: Page, text: string): Promise<{ shown: boolean; inFront: boolean; opaque: boolean; covering: string | null }> {
  // A string: the tests' TypeScript has no DOM types.
  return page.evaluate(`(() => {
    const text = ${JSON.stringify(text)};
    const toasts = [...document.querySelectorAll(".Toastify__toast[data-in='true']")].filter((t) => (t.textContent ?? "").includes(text));
    // Toast ids count up in the order the toasts were made.
    const toast = toasts.sort((a, b) => Number(a.id) - Number(b.id)).at(-1);
    if (!toast) return { shown: false, inFront: false, opaque: false, covering: null };
    const box = toast.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    // The close button is drawn faint on purpose; the icon, the text and the toast itself are not.
    const drawn = [...toast.children].filter((c) => !c.classList.contains("Toastify__close-button"));
    const ancestors = [];
    for (let e = toast; e; e = e.parentElement) ancestors.push(e);
    const opaque = [...drawn, ...ancestors].every((e) => Number(getComputedStyle(e).opacity) > 0.95);
    const front = hit !== null && toast.contains(hit);
    const other = hit?.closest(".Toastify__toast");
    return { shown: true, inFront: front, opaque, covering: front ? null : (other?.textContent ?? hit?.outerHTML.slice(0, 120) ?? null) };
  })()`);
}

/** Waits until the newest toast with `text` is in front of everything at its centre, and readable. */
export async function expectToastInFront(page: Page, text: string): Promise<void> {
  await expect
    .poll(() => toastSight(page, text), { timeout: 10_000, message: `the toast "${text}" in front and readable` })
    .toEqual({ shown: true, inFront: true, opaque: true, covering: null });
}

/** Whether the centre of `control` is the control itself (nothing, such as a toast, lies over it). */
export async function isUncovered(control: Locator): Promise<boolean> {
  return control.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const hit = el.ownerDocument.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return hit !== null && el.contains(hit);
  });
}

/** The boxes of the toasts on screen now. */
export async function toastBoxes(page: Page): Promise<{ x: number; y: number; width: number; height: number }[]> {
  const toasts = page.locator(".Toastify__toast[data-in='true']");
  const boxes = [];
  for (const t of await toasts.all()) {
    const box = await t.boundingBox();
    if (box) boxes.push(box);
  }
  return boxes;
}
