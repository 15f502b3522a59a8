/** Commands the browser tests call; they run in the Vitest main process (tests/support/browser-fixture.ts). */
export interface LiveFixture {
  username: string;
  password: string;
  macs: string[];
}

declare module "vitest/browser" {
  interface BrowserCommands {
    seedLiveFixture: (count?: number) => Promise<LiveFixture>;
    publishReading: (mac: string, humidity: number) => Promise<void>;
    restartServer: () => Promise<void>;
  }
}
