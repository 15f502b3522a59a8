/** Commands the browser tests call; they run in the Vitest main process (tests/support/browser-fixture.ts). */
export interface LiveFixture {
  username: string;
  password: string;
  macs: string[];
}

/** A large fleet without devices: readings are pushed into the realtime layer (pushReading). */
export interface LargeFleet {
  username: string;
  password: string;
  /** MACs in list order (mcu_id). */
  macs: string[];
}

declare module "vitest/browser" {
  interface BrowserCommands {
    seedLiveFixture: (count?: number) => Promise<LiveFixture>;
    publishReading: (mac: string, humidity: number) => Promise<void>;
    restartServer: () => Promise<void>;
    seedLargeFleet: (count: number) => Promise<LargeFleet>;
    /** A reading of `mac` (humidity, temperature; battery 80) handed to the realtime layer as the gateway would. */
    pushReading: (mac: string, humidity: number) => Promise<void>;
  }
}
