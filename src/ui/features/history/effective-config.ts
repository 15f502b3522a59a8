import type { Mcu, ProfileConfig } from "../../../contract/entities.ts";
import { batchProgress } from "../../../contract/grow-values.ts";
import type { Batch } from "../../../contract/grow.ts";
import { linkedConfig } from "../../../streams/live-status.ts";

/** Where the config an MCU keeps comes from: a running batch's plan (in its phase and day), or a linked profile. */
export type ConfigSource = { kind: "plan"; batch: string; phase: string; day: number } | { kind: "profile"; profile: string };

/** The config an MCU keeps now and where it comes from: its running batch's plan, else its linked profile, else none known. */
export function effectiveConfig(mcu: Pick<Mcu, "mcu_id" | "profile_links">, batches: readonly Batch[], now: number): { config: ProfileConfig | null; source: ConfigSource | null } {
  const running = batches.find((b) => b.status === "running" && b.mcu_ids.includes(mcu.mcu_id));
  if (running) {
    const p = batchProgress(running, now);
    return { config: p.config, source: { kind: "plan", batch: running.name, phase: p.phase.name, day: p.day } };
  }
  const profile = mcu.profile_links[0]?.profile;
  const config = linkedConfig(mcu);
  if (profile && config) return { config, source: { kind: "profile", profile: profile.name } };
  return { config: null, source: null };
}
