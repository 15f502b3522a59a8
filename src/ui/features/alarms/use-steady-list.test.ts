import { describe, expect, it } from "vitest";
import { steadyView } from "./use-steady-list.ts";

const id = (n: number) => n;

describe("steadyView", () => {
  it("holds back what arrived above an item already seen", () => {
    expect(steadyView([9, 8, 3, 2], id, new Set([3, 2]), null)).toEqual({ shown: [3, 2], waiting: [9, 8], lastSeen: 3 });
  });

  it("holds back what arrived between seen items, not what came below the last one", () => {
    expect(steadyView([5, 4, 3, 1, 0], id, new Set([5, 3]), null)).toEqual({ shown: [5, 3, 1, 0], waiting: [4], lastSeen: 2 });
  });

  it("shows the item kept (a link's alarm) wherever it arrives", () => {
    expect(steadyView([9, 8, 3], id, new Set([3]), 8)).toEqual({ shown: [8, 3], waiting: [9], lastSeen: 2 });
  });

  it("shows everything while nothing of the list was seen", () => {
    expect(steadyView([9, 8], id, new Set([1]), null)).toEqual({ shown: [9, 8], waiting: [], lastSeen: -1 });
  });
});
