import { act } from "react";
import { createRoot, type Root } from "react-dom/client";
import { useTranslation } from "react-i18next";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startTexts } from "../../test-support/i18n.ts";
import type { CoreHandle } from "../data/core-client.ts";
import { AppDataProvider } from "../data/provider.tsx";
import type { Session } from "../data/session.ts";
import { createAppStore } from "../data/store.ts";
import { useListLoad } from "./use-list-load.ts";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A list screen as the recipes page loads its list: its failure's words from its texts. */
function RecipesList({ load }: { load: () => Promise<void> }) {
  const { t } = useTranslation("recipes");
  const { state } = useListLoad({ load, failure: { kind: "info", fallback: t("page.loadFailed") } });
  return <output data-testid="load">{state.status === "error" ? state.message : state.status}</output>;
}

describe("a list's load", () => {
  let host: HTMLDivElement;
  let root: Root;
  beforeEach(() => {
    host = document.createElement("div");
    document.body.append(host);
    root = createRoot(host);
  });
  afterEach(async () => {
    act(() => root.unmount());
    host.remove();
    await act(() => startTexts());
  });

  async function show(load: () => Promise<void>) {
    const data = { core: {} as CoreHandle, store: createAppStore(), session: {} as Session };
    await act(async () =>
      root.render(
        <AppDataProvider value={data}>
          <RecipesList load={load} />
        </AppDataProvider>,
      ),
    );
  }
  const shown = () => host.querySelector('[data-testid="load"]')!.textContent;

  it("is not asked of the server again when the person changes language: the texts are written as the screen renders", async () => {
    let loads = 0;
    const load = async () => void loads++;
    await show(load);
    expect([shown(), loads]).toEqual(["ready", 1]);
    await act(() => startTexts({ language: "fr", digits: "latn" }));
    await act(() => startTexts({ language: "ar", digits: "arab" }));
    expect([shown(), loads]).toEqual(["ready", 1]);
  });

  it("says a failure in the language chosen since, without loading again", async () => {
    let loads = 0;
    const load = async () => {
      loads++;
      throw new Error("offline");
    };
    await show(load);
    expect([shown(), loads]).toEqual(["Failed to load recipes", 1]);
    await act(() => startTexts({ language: "fr", digits: "latn" }));
    expect([shown(), loads]).toEqual(["Échec du chargement des recettes", 1]);
  });
});
