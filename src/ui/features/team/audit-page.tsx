import type { TFunction } from "i18next";
import { Fragment, useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { Farm } from "../../../contract/entities.ts";
import { AUDIT_KINDS } from "../../../contract/team-values.ts";
import type { AuditEntry, AuditKind } from "../../../contract/team.ts";
import { formatDateTime } from "../../components/dates.ts";
import { EmptyState, LoadError, Loading } from "../../components/states.tsx";
import { useFarmMembers } from "../../data/farm-members.ts";
import { useRefusal } from "../../data/farm-roles.ts";
import { useAppData } from "../../data/provider.tsx";
import { useLocale } from "../../i18n/i18n.ts";
import { auditCsvUrl, auditQueryOf, filtersProblem, NO_FILTERS, type AuditFilters } from "./audit-filters.ts";
import { changeSummary } from "./audit-summary.ts";
import { controlClass, touch } from "./controls.tsx";
import { FarmTeamFrame } from "./farm-team-frame.tsx";
import { useWideScreen } from "./use-team-load.ts";
import { failureText } from "../../components/server-refusal.ts";

/** Farm teams: who changed what on the farm, when and from where. */
export default function AuditPage() {
  return (
    <FarmTeamFrame screen="audit">
      {(farm) => <Audit farm={farm} />}
    </FarmTeamFrame>
  );
}

const PAGE = 50;

type Trail = { status: "loading" } | { status: "error"; message: string } | { status: "ready"; entries: AuditEntry[]; next: string | null; more: "idle" | "loading" | string };

function Audit({ farm }: { farm: Farm }) {
  const { t } = useTranslation("team");
  const refusal = useRefusal(farm.farm_id, "readAudit");
  if (refusal) return <p className="card px-4 py-6 4xl:px-6 4xl:py-8 text-center text-gray-700 4xl:text-2xl">{t("refusedManagerCan", { refusal })}</p>;
  return <AuditTrail farm={farm} />;
}

function AuditTrail({ farm }: { farm: Farm }) {
  const { t } = useTranslation("team");
  const { core } = useAppData();
  const farmId = farm.farm_id;
  const [draft, setDraft] = useState<AuditFilters>(NO_FILTERS);
  const [applied, setApplied] = useState<AuditFilters>(NO_FILTERS);
  const [trail, setTrail] = useState<Trail>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);
  const current = useRef(0);
  const wide = useWideScreen();
  // The actors offered: the farm's members, kept current by the core while on screen (the trail
  // also names people who left; any name can be typed).
  const members = useFarmMembers(farmId);
  const actorsId = useId();

  useEffect(() => {
    const request = ++current.current;
    setTrail({ status: "loading" });
    core.farmAudit(farmId, { ...auditQueryOf(applied), limit: PAGE }).then(
      (page) => {
        if (request === current.current) setTrail({ status: "ready", entries: page.entries, next: page.next, more: "idle" });
      },
      (err: unknown) => {
        if (request === current.current) setTrail({ status: "error", message: failureText(err) });
      },
    );
    return () => {
      current.current++;
    };
  }, [core, farmId, applied, attempt]);

  async function loadMore() {
    if (trail.status !== "ready" || !trail.next || trail.more === "loading") return;
    const request = current.current;
    setTrail({ ...trail, more: "loading" });
    try {
      const page = await core.farmAudit(farmId, { ...auditQueryOf(applied), limit: PAGE, cursor: trail.next });
      if (request === current.current) setTrail((t) => (t.status === "ready" ? { status: "ready", entries: [...t.entries, ...page.entries], next: page.next, more: "idle" } : t));
    } catch (err) {
      if (request === current.current) setTrail((t) => (t.status === "ready" ? { ...t, more: failureText(err) } : t));
    }
  }

  const problem = filtersProblem(t, draft);
  function apply(event: FormEvent) {
    event.preventDefault();
    if (!problem) setApplied(draft);
  }
  const label = "block text-sm 4xl:text-xl font-medium text-gray-700 mb-1";
  const filtered = JSON.stringify(applied) !== JSON.stringify(NO_FILTERS);

  return (
    <section aria-labelledby="audit-heading" className="space-y-4 4xl:space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id="audit-heading" className="text-lg 4xl:text-3xl font-semibold text-gray-900">
          {t("audit.title")}
        </h3>
        <a href={auditCsvUrl(farmId, applied)} download className={`btn-secondary ${touch}`}>
          {t("audit.csv")}
        </a>
      </div>

      <form role="search" aria-label={t("audit.filters")} onSubmit={apply} noValidate className="card p-4 4xl:p-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_auto_auto_auto] items-end">
        <div>
          <label htmlFor={`${actorsId}-kind`} className={label}>
            {t("audit.what")}
          </label>
          <select id={`${actorsId}-kind`} className={controlClass()} value={draft.kind} onChange={(e) => setDraft((d) => ({ ...d, kind: e.target.value as AuditKind | "" }))}>
            <option value="">{t("audit.everything")}</option>
            {AUDIT_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`audit.kinds.${k}`)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${actorsId}-actor`} className={label}>
            {t("audit.who")}
          </label>
          <input
            id={`${actorsId}-actor`}
            className={controlClass()}
            list={actorsId}
            value={draft.actor}
            onChange={(e) => setDraft((d) => ({ ...d, actor: e.target.value }))}
            placeholder={t("audit.anyone")}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={100}
          />
          <datalist id={actorsId}>{members.state.status === "ready" && members.state.value.map((m) => <option key={m.client_id} value={m.username} />)}</datalist>
        </div>
        <div className="grid grid-cols-2 gap-3 sm:col-span-2 lg:col-span-1 lg:contents">
          <div>
            <label htmlFor={`${actorsId}-from`} className={label}>
              {t("audit.from")}
            </label>
            <input id={`${actorsId}-from`} type="date" className={controlClass(problem !== null)} value={draft.from} max={draft.to || undefined} onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))} aria-describedby={problem ? `${actorsId}-problem` : undefined} />
          </div>
          <div>
            <label htmlFor={`${actorsId}-to`} className={label}>
              {t("audit.to")}
            </label>
            <input id={`${actorsId}-to`} type="date" className={controlClass(problem !== null)} value={draft.to} min={draft.from || undefined} onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))} aria-describedby={problem ? `${actorsId}-problem` : undefined} />
          </div>
        </div>
        <div className="flex gap-2 sm:col-span-2 lg:col-span-1">
          <button type="submit" className={`btn-primary flex-1 whitespace-nowrap ${touch}`} disabled={problem !== null}>
            {t("audit.apply")}
          </button>
          <button
            type="button"
            className={`btn-secondary flex-1 whitespace-nowrap ${touch}`}
            disabled={!filtered && JSON.stringify(draft) === JSON.stringify(NO_FILTERS)}
            onClick={() => {
              setDraft(NO_FILTERS);
              setApplied(NO_FILTERS);
            }}
          >
            {t("audit.reset")}
          </button>
        </div>
        {problem && (
          <p id={`${actorsId}-problem`} role="alert" className="sm:col-span-2 lg:col-span-5 text-sm text-red-600">
            {problem}
          </p>
        )}
      </form>

      {trail.status === "loading" ? (
        <Loading text={t("audit.loading")} />
      ) : trail.status === "error" ? (
        <LoadError text={t("audit.loadFailed", { reason: trail.message })} onRetry={() => setAttempt((n) => n + 1)} />
      ) : trail.entries.length === 0 ? (
        <EmptyState title={filtered ? t("audit.noMatch") : t("audit.none")}>{filtered && <p>{t("audit.widen")}</p>}</EmptyState>
      ) : (
        <>
          {wide ? <AuditTable entries={trail.entries} /> : <AuditList entries={trail.entries} />}
          <div className="flex flex-col items-center gap-2">
            {typeof trail.more === "string" && trail.more !== "idle" && trail.more !== "loading" && (
              <p role="alert" className="text-sm text-red-700">
                {t("audit.moreFailed", { reason: trail.more })}
              </p>
            )}
            {trail.next ? (
              <button type="button" className={`btn-secondary w-full sm:w-auto ${touch}`} disabled={trail.more === "loading"} aria-busy={trail.more === "loading"} onClick={() => void loadMore()}>
                {trail.more === "loading" ? t("audit.loadingMore") : t("audit.loadMore")}
              </button>
            ) : (
              <p className="text-sm 4xl:text-xl text-gray-600">{filtered ? t("audit.allShownFiltered") : t("audit.allShown")}</p>
            )}
          </div>
        </>
      )}
    </section>
  );
}

/** What the server records an entry did ("created", "role changed", a batch's action …), as `audit.actions.<action>` names it. */
const AUDIT_ACTIONS = [
  "created",
  "changed",
  "deleted",
  "joined",
  "left",
  "removed",
  "roleChanged",
  "revoked",
  "linked",
  "unlinked",
  "started",
  "switched",
  "harvestRecorded",
  "harvestDeleted",
  "starterRecipesAdded",
  "confirm",
  "hold",
  "resume",
  "extend",
  "skip",
  "end",
] as const;
type AuditAction = (typeof AUDIT_ACTIONS)[number];
const isAuditAction = (key: string): key is AuditAction => (AUDIT_ACTIONS as readonly string[]).includes(key);

/** "Member joined": the kind and the action in the reader's words; an action the app does not know yet as the server wrote it. */
function whatOf(t: TFunction<"team">, e: AuditEntry): string {
  const key = e.action.replace(/ (\w)/g, (_, c: string) => c.toUpperCase());
  return t("audit.entry", { kind: t(`audit.kinds.${e.kind}`), action: isAuditAction(key) ? t(`audit.actions.${key}`) : e.action });
}

/**
 * The fields a change altered. They are the record's own names and values (as the CSV has them),
 * each set apart in its own direction, so "role: grower → viewer" reads the same in an Arabic line.
 */
function Changes({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation("team");
  const { lines, more, unchanged } = changeSummary(entry.before, entry.after);
  if (unchanged) return <p className="break-words text-gray-700">{t("audit.noFieldChanged")}</p>;
  if (lines.length === 0) return null;
  return (
    <p className="break-words text-gray-700">
      {lines.map((line, i) => (
        <Fragment key={i}>
          {i > 0 && t("audit.separator")}
          <bdi dir="ltr">{line}</bdi>
        </Fragment>
      ))}
      {more > 0 && t("audit.more", { count: more })}
    </p>
  );
}

/** A laptop's or a wall's table of the changes, newest first. */
function AuditTable({ entries }: { entries: readonly AuditEntry[] }) {
  const { t } = useTranslation("team");
  // Numbers and dates in the reader's digits: rendered again when only the digits change.
  useLocale();
  const cell = "px-3 py-2.5 4xl:px-5 4xl:py-4 align-top";
  // A heading cell centres its text unless told a side (the table's own `start` does not reach it).
  const head = `${cell} text-start font-semibold`;
  return (
    <div className="card overflow-x-auto">
      <table className="w-full text-start text-sm 4xl:text-xl">
        <caption className="sr-only">{t("audit.caption")}</caption>
        <thead className="bg-gray-50 text-gray-700">
          <tr>
            <th scope="col" className={`${head} whitespace-nowrap`}>
              {t("audit.when")}
            </th>
            <th scope="col" className={head}>
              {t("audit.who")}
            </th>
            <th scope="col" className={head}>
              {t("audit.address")}
            </th>
            <th scope="col" className={head}>
              {t("audit.what")}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-gray-100">
          {entries.map((e) => (
            <tr key={e.audit_id} data-audit-kind={e.kind}>
              <td className={`${cell} whitespace-nowrap text-gray-700`}>
                <time dateTime={e.at}>{formatDateTime(e.at)}</time>
              </td>
              <td className={`${cell} font-medium text-gray-900 break-all`}>{e.actor || "—"}</td>
              <td className={`${cell} font-mono text-xs 4xl:text-lg text-gray-600 break-all`}>{e.address || "—"}</td>
              <td className={cell}>
                <p className="font-medium text-gray-900">{whatOf(t, e)}</p>
                <Changes entry={e} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A phone's list of the changes: each one stacked, what first. */
function AuditList({ entries }: { entries: readonly AuditEntry[] }) {
  const { t } = useTranslation("team");
  // Numbers and dates in the reader's digits: rendered again when only the digits change.
  useLocale();
  return (
    <ol className="card divide-y divide-gray-100" aria-label={t("audit.caption")}>
      {entries.map((e) => (
        <li key={e.audit_id} className="p-4 space-y-1 text-sm" data-audit-kind={e.kind}>
          <p className="font-semibold text-gray-900 text-base">{whatOf(t, e)}</p>
          <Changes entry={e} />
          <p className="text-gray-600">
            {/* Each set apart in its own direction: a Latin name beside an Arabic date would mix their digits and words. */}
            <bdi className="font-medium text-gray-800">{e.actor || "—"}</bdi> ·{" "}
            <time dateTime={e.at}>
              <bdi>{formatDateTime(e.at)}</bdi>
            </time>
          </p>
          <p className="font-mono text-xs text-gray-500 break-all">{e.address}</p>
        </li>
      ))}
    </ol>
  );
}
