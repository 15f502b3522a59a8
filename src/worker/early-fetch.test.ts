import type { io } from "socket.io-client";
import { describe, expect, it } from "vitest";
import { mcuRecord as mcu } from "../test-support/records.ts";
import { createDataCore } from "./core.ts";
import { API_PATHS, FIRST_MCUS, firstListPaths } from "../contract/api-paths.ts";
import { mcuList } from "../contract/entities.ts";
import { createEarlyFetches, isEarlyFetchMessage } from "./early-fetch.ts";
import { createRestClient } from "./rest-client.ts";

/** A fetch that records what it was asked and answers JSON by path (a `?limit=` list with its head and total). */
function recordingFetch(lists: Record<string, unknown[]>) {
  const asked: string[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    asked.push(`${init?.method ?? "GET"} ${url}${init?.credentials === "include" ? "" : " (no cookie)"}`);
    const { pathname, search } = new URL(url, "http://page.test");
    const [path, query] = [pathname, search.slice(1)];
    const list = lists[pathname + search] ?? lists[path];
    if (!list) return new Response(JSON.stringify({ code: "NOT_FOUND", message: "no" }), { status: 404 });
    const limit = Number(new URLSearchParams(query ?? "").get("limit"));
    const body = limit > 0 ? list.slice(0, limit) : list;
    return new Response(JSON.stringify(body), { status: 200, headers: { "x-total-count": String(list.length) } });
  }) as typeof globalThis.fetch;
  return { fetch, asked };
}

const farmsPath = "/api/farms/myfarms/get?client_id=7";
const headPath = `/api/mcus/by-client/7?limit=${FIRST_MCUS}`;

describe("the worker's early requests", () => {
  it("asks for the first lists the page names, with the cookie, and hands each response out once", async () => {
    const { fetch, asked } = recordingFetch({ "/api/mcus/by-client/7": [mcu(0)], [farmsPath]: [] });
    const early = createEarlyFetches(fetch);
    early.start({ kind: "early-fetch", urls: firstListPaths(7).map((p) => `http://farm.test${p}`) });
    expect(asked).toEqual([`GET http://farm.test${headPath}`, `GET http://farm.test${farmsPath}`, `GET http://farm.test${API_PATHS.batches}`]);
    const head = early.take(`http://farm.test${headPath}`);
    expect(head).toBeDefined();
    expect(await (await head!).json()).toEqual([mcu(0)]);
    expect(early.take(`http://farm.test${headPath}`)).toBeUndefined();
    expect(early.take(`http://farm.test/api/mcus/by-client/8?limit=${FIRST_MCUS}`)).toBeUndefined();
  });

  it("drops a response no one took in time, and all of them when the session changes", () => {
    let now = 0;
    const early = createEarlyFetches(recordingFetch({}).fetch, () => now);
    early.start({ kind: "early-fetch", urls: firstListPaths(7) });
    now = 15_001;
    expect(early.take(headPath)).toBeUndefined();
    early.start({ kind: "early-fetch", urls: firstListPaths(7) });
    early.clear();
    expect(early.take(farmsPath)).toBeUndefined();
  });

  it("tells its own message from the page's calls to the core", () => {
    expect(isEarlyFetchMessage({ kind: "early-fetch", urls: firstListPaths(7) })).toBe(true);
    const others = [{ id: "1", type: "APPLY", path: ["start"], argumentList: [] }, { kind: "early-fetch", urls: [7] }, { kind: "early-fetch", urls: Array(5).fill("/api/farms") }, null, "early-fetch"];
    for (const other of others) {
      expect(isEarlyFetchMessage(other)).toBe(false);
    }
  });

  it("lets the REST client take an early response for a GET of the same URL, and never for a write", async () => {
    const { fetch, asked } = recordingFetch({ "/api/mcus/by-client/7": [mcu(0), mcu(1)] });
    const taken: string[] = [];
    const rest = createRestClient({
      apiBase: "",
      fetch,
      early: (url) => {
        taken.push(url);
        return url === headPath ? Promise.resolve(new Response(JSON.stringify([mcu(5)]), { headers: { "x-total-count": "2" } })) : undefined;
      },
    });
    expect(await rest.head(API_PATHS.mcusByClient(7), mcuList, FIRST_MCUS)).toEqual({ items: [mcu(5)], total: 2 });
    expect(asked).toEqual([]);
    await rest.get(API_PATHS.mcusByClient(7), mcuList);
    expect(asked).toEqual(["GET /api/mcus/by-client/7"]);
    await rest.send("DELETE", API_PATHS.mcu(1), mcuList).catch(() => undefined);
    expect(taken).toEqual([headPath, "/api/mcus/by-client/7"]);
  });

  it("starts the core's MCU list from the early head: the first cards without a second request for them", async () => {
    const mcus = Array.from({ length: 100 }, (_, i) => mcu(i));
    const early = recordingFetch({ "/api/mcus/by-client/7": mcus, [farmsPath]: [] });
    const late = recordingFetch({ "/api/mcus/by-client/7": mcus, [farmsPath]: [] });
    const earlyFetches = createEarlyFetches(early.fetch);
    earlyFetches.start({ kind: "early-fetch", urls: firstListPaths(7) });
    const socket = { on: () => socket, emit: () => socket, connect: () => socket, close: () => socket, connected: false };
    const core = createDataCore({ fetch: late.fetch, early: earlyFetches, connect: (() => socket) as unknown as typeof io });
    const heads: number[] = [];
    core.subscribe((u) => {
      if (u.kind === "records" && u.name === "mcus" && u.more && u.ids) heads.push(u.ids.length);
    });
    core.start(7);
    await Promise.all([core.loadMcus(), core.loadFarms()]);
    expect(heads[0]).toBe(FIRST_MCUS);
    // The head, the farms and the batches came from the early requests; only the whole list was asked for after.
    expect(late.asked).toEqual(["GET /api/mcus/by-client/7"]);
  });

  it("reads the head for the first screen from a copy: the core still takes the whole answer", async () => {
    const { fetch } = recordingFetch({ "/api/mcus/by-client/7": [mcu(0), mcu(1)], [farmsPath]: [] });
    const early = createEarlyFetches(fetch);
    const urls = firstListPaths(7);
    const bodies: unknown[] = [];
    const read = early.start({ kind: "early-fetch", urls, head: urls[0] }, (body) => bodies.push(body));
    await read;
    expect(bodies).toEqual([[mcu(0), mcu(1)]]);
    expect(await (await early.take(urls[0]!)!).json()).toEqual([mcu(0), mcu(1)]);
    // Without a head named, nothing is read and there is nothing to wait for.
    expect(early.start({ kind: "early-fetch", urls }, (body) => bodies.push(body))).toBeUndefined();
  });

  it("settles without a body when the head is refused or the network fails", async () => {
    const refused = createEarlyFetches(recordingFetch({}).fetch);
    const bodies: unknown[] = [];
    await refused.start({ kind: "early-fetch", urls: [headPath], head: headPath }, (body) => bodies.push(body));
    const failing = createEarlyFetches((() => Promise.reject(new TypeError("Failed to fetch"))) as typeof globalThis.fetch);
    await failing.start({ kind: "early-fetch", urls: [headPath], head: headPath }, (body) => bodies.push(body));
    expect(bodies).toEqual([]);
    expect(isEarlyFetchMessage({ kind: "early-fetch", urls: [headPath], head: "/elsewhere" })).toBe(false);
  });
});
