import type { FastifyPluginAsync } from "fastify";
import { startDemo, type DemoStartOptions, type RunningDemo } from "./demo-start.ts";

/** How the demo fleet runs (DEMO_HZ, DEMO_SPEED, DEMO_INCIDENT_MINUTES). */
export type DemoSettings = Pick<DemoStartOptions, "hz" | "speed" | "incidentMinutes">;

/**
 * The demo as a part of the server: seeded (on its first start) and its simulated fleet started
 * once the server is ready, before it listens, so the first page already finds the demo's farms;
 * its devices leave when the server closes. It logs through the server's log.
 */
export const demoFleet: FastifyPluginAsync<Omit<DemoStartOptions, "log">> = async (app, o) => {
  let running: RunningDemo | undefined;
  app.addHook("onReady", async () => {
    running = await startDemo({ ...o, log: { info: (m) => app.log.info(m), warn: (m) => app.log.warn(m), debug: (m) => app.log.debug(m) } });
  });
  app.addHook("onClose", async () => {
    await running?.stop();
    running = undefined;
  });
};
