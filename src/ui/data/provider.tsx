import { createContext, useContext, useSyncExternalStore, type ReactNode } from "react";
import type { PushControl } from "../pwa/push.ts";
import type { CoreHandle } from "./core-client.ts";
import type { Session } from "./session.ts";
import type { AppStore } from "./store.ts";

export interface AppData {
  core: CoreHandle;
  store: AppStore;
  session: Session;
  /** This browser's alarm pushes (absent where the app runs without them: tests). */
  push?: PushControl;
}

const AppDataContext = createContext<AppData | null>(null);

export function AppDataProvider({ value, children }: { value: AppData; children: ReactNode }) {
  return <AppDataContext.Provider value={value}>{children}</AppDataContext.Provider>;
}

export function useAppData(): AppData {
  const data = useContext(AppDataContext);
  if (!data) throw new Error("useAppData outside AppDataProvider");
  return data;
}

/** The signed-in client, or null. */
export function useClient() {
  const { session } = useAppData();
  return useSyncExternalStore(session.subscribe, session.getClient);
}
