import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { Mcu } from "../../../contract/entities.ts";
import type { Batch } from "../../../contract/grow.ts";
import { STATE_TARGETS } from "../../../contract/history-values.ts";
import { readingValues, whyNot } from "../../../contract/switch-reasons-values.ts";
import { useMcuLiveWith } from "../../data/hooks.ts";
import { formatFixed } from "../../i18n/format.ts";
import { useLocale } from "../../i18n/i18n.ts";
import { effectiveConfig } from "./effective-config.ts";
import { builtInWords, targetName, whyNotWords } from "./history-words.ts";

/**
 * Why each controller is on or off now: its state from the latest reading against the band its
 * automation keeps under the MCU's effective config ("Humidifier off: humidity 88.2 % is within
 * 85–92 %"). Owns the live reading's subscription, so a reading re-renders this alone.
 */
export function WhyNot({ mcu, batches }: { mcu: Mcu; batches: readonly Batch[] }) {
  const { t } = useTranslation("history");
  useLocale();
  const titleId = useId();
  const reading = useMcuLiveWith(mcu.mac, (live) => live?.readings ?? null, Object.is);
  const { config, source } = effectiveConfig(mcu, batches, Date.now());
  const values = reading ? readingValues(reading) : {};
  return (
    <section aria-labelledby={titleId} className="card p-4 4xl:p-6 space-y-2" data-testid="why-not">
      <h3 id={titleId} className="font-semibold text-gray-900 4xl:text-3xl">
        {t("whyNot.title")}
      </h3>
      {config === null || source === null ? (
        <p className="text-sm 4xl:text-xl text-gray-700">{t("whyNot.noConfig")}</p>
      ) : (
        <p className="text-xs 4xl:text-lg text-gray-500">
          {source.kind === "plan"
            ? t("whyNot.againstPlan", { batch: source.batch, phase: source.phase, day: formatFixed(source.day, 0) })
            : t("whyNot.againstProfile", { profile: source.profile })}
        </p>
      )}
      <ul className="grid gap-x-6 gap-y-1 sm:grid-cols-2 text-sm 4xl:text-2xl text-gray-800">
        {STATE_TARGETS.map((target) => {
          const state = reading?.[target];
          const text = !state
            ? t("whyNot.noState", { target: targetName(t, target) })
            : config === null
              ? builtInWords(t, target, state.status, state.auto)
              : whyNotWords(t, whyNot(target, state.status, config, values), state.auto);
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
