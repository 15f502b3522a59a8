import { useId } from "react";
import type { Mcu } from "../../../contract/entities.ts";
import type { Batch } from "../../../contract/grow.ts";
import { STATE_TARGETS } from "../../../contract/history-values.ts";
import { readingValues, whyNot, whyNotText } from "../../../contract/switch-reasons.ts";
import { useMcuLiveWith } from "../../data/hooks.ts";
import { effectiveConfig } from "./effective-config.ts";

/**
 * Why each controller is on or off now: its state from the latest reading against the band its
 * automation keeps under the MCU's effective config ("Humidifier off: humidity 88.2 % is within
 * 85–92 %"). Owns the live reading's subscription, so a reading re-renders this alone.
 */
export function WhyNot({ mcu, batches }: { mcu: Mcu; batches: readonly Batch[] }) {
  const titleId = useId();
  const reading = useMcuLiveWith(mcu.mac, (live) => live?.readings ?? null, Object.is);
  const { config, source } = effectiveConfig(mcu, batches, Date.now());
  const values = reading ? readingValues(reading) : {};
  return (
    <section aria-labelledby={titleId} className="card p-4 4xl:p-6 space-y-2" data-testid="why-not">
      <h3 id={titleId} className="font-semibold text-gray-900 4xl:text-3xl">
        Why each controller is on or off
      </h3>
      {config === null ? (
        <p className="text-sm 4xl:text-xl text-gray-700">No profile is linked and no batch runs here: the automation follows the MCU's built-in settings.</p>
      ) : (
        <p className="text-xs 4xl:text-lg text-gray-500">Latest reading against the limits of {source}.</p>
      )}
      <ul className="grid gap-x-6 gap-y-1 sm:grid-cols-2 text-sm 4xl:text-2xl text-gray-800">
        {STATE_TARGETS.map((target) => {
          const state = reading?.[target];
          const text = !state
            ? `${target}: no state reported`
            : config === null
              ? `${target} ${state.status ? "on" : "off"}${state.auto ? "" : " (automation off)"}: follows the MCU's built-in settings`
              : whyNotText(whyNot(target, state.status, config, values), state.auto);
          return (
            <li key={target} data-target={target} data-status={state ? (state.status ? "on" : "off") : "unknown"}>
              {text}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
