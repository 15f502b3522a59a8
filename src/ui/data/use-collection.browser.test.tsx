import { act } from "react";
import { createRoot } from "react-dom/client";
import { describe, expect, it } from "vitest";
import { farmRecord } from "../../test-support/records.ts";
import type { CoreHandle } from "./core-client.ts";
import { useCollection } from "./hooks.ts";
import { AppDataProvider, type AppData } from "./provider.tsx";
import type { Session } from "./session.ts";
import { createAppStore } from "./store.ts";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe("useCollection", () => {
  it("gives a collection, empty until the core sends it, and re-renders a pick only when the pick changes", async () => {
    const store = createAppStore();
    const data: AppData = { core: {} as CoreHandle, store, session: {} as Session };
    const renders = { whole: 0, count: 0 };
    function Names() {
      renders.whole++;
      return <output data-testid="names">{useCollection("farms").map((f) => f.name).join(",")}</output>;
    }
    function Count() {
      renders.count++;
      return <output data-testid="count">{useCollection("farms", (farms) => farms.length)}</output>;
    }
    const host = document.createElement("div");
    document.body.append(host);
    const root = createRoot(host);
    await act(async () =>
      root.render(
        <AppDataProvider value={data}>
          <Names />
          <Count />
        </AppDataProvider>,
      ),
    );
    const text = (id: string) => host.querySelector(`[data-testid="${id}"]`)!.textContent;
    expect([text("names"), text("count")]).toEqual(["", "0"]);

    await act(async () => store.apply({ kind: "entities", entities: { farms: [farmRecord(0), farmRecord(1)] } }));
    expect([text("names"), text("count")]).toEqual(["Farm 1,Farm 2", "2"]);
    const before = { ...renders };

    // A farm renamed: the list changed, its length did not.
    await act(async () => store.apply({ kind: "entities", entities: { farms: [{ ...farmRecord(0), name: "North" }, farmRecord(1)] } }));
    expect(text("names")).toBe("North,Farm 2");
    expect(renders).toEqual({ whole: before.whole + 1, count: before.count });

    await act(async () => root.unmount());
    host.remove();
    expect(store.listenerCount()).toBe(0);
  });
});
