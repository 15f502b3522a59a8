import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from "react";
import { toCoreError } from "../../../contract/core-error.ts";
import type { Farm } from "../../../contract/entities.ts";
import { AUDIT_KIND_LABELS, AUDIT_KINDS } from "../../../contract/team-values.ts";
import type { AuditEntry, AuditKind } from "../../../contract/team.ts";
import { formatDateTime } from "../../components/dates.ts";
import { EmptyState, LoadError, Loading } from "../../components/states.tsx";
import { messageOf } from "../../components/toasts.ts";
import { useRefusal } from "../../data/farm-roles.ts";
import { useAppData } from "../../data/provider.tsx";
import { auditCsvUrl, auditQueryOf, filtersProblem, NO_FILTERS, type AuditFilters } from "./audit-filters.ts";
import { changeSummary } from "./audit-summary.ts";
import { controlClass, touch } from "./controls.tsx";
import { FarmTeamFrame } from "./farm-team-frame.tsx";
import { useTeamLoad, useWideScreen } from "./use-team-load.ts";

/** Farm teams: who changed what on the farm, when and from where. */
export default function AuditPage() {
  return (
    <FarmTeamFrame screen="audit" title="Audit trail">
      {(farm) => <Audit farm={farm} />}
    </FarmTeamFrame>
  );
}

const PAGE = 50;

type Trail = { status: "loading" } | { status: "error"; message: string } | { status: "ready"; entries: AuditEntry[]; next: string | null; more: "idle" | "loading" | string };

function Audit({ farm }: { farm: Farm }) {
  const refusal = useRefusal(farm.farm_id, "readAudit");
  if (refusal) return <p className="card px-4 py-6 4xl:px-6 4xl:py-8 text-center text-gray-700 4xl:text-2xl">{refusal}. A Manager or the Owner can.</p>;
  return <AuditTrail farm={farm} />;
}

function AuditTrail({ farm }: { farm: Farm }) {
  const { core } = useAppData();
  const farmId = farm.farm_id;
  const [draft, setDraft] = useState<AuditFilters>(NO_FILTERS);
  const [applied, setApplied] = useState<AuditFilters>(NO_FILTERS);
  const [trail, setTrail] = useState<Trail>({ status: "loading" });
  const [attempt, setAttempt] = useState(0);
  const current = useRef(0);
  const wide = useWideScreen();
  // The actors offered: the farm's members (the trail also names people who left; any name can be typed).
  const members = useTeamLoad(useCallback(() => core.farmMembers(farmId), [core, farmId]), `members-${farmId}`);
  const actorsId = useId();

  useEffect(() => {
    const request = ++current.current;
    setTrail({ status: "loading" });
    core.farmAudit(farmId, { ...auditQueryOf(applied), limit: PAGE }).then(
      (page) => {
        if (request === current.current) setTrail({ status: "ready", entries: page.entries, next: page.next, more: "idle" });
      },
      (err: unknown) => {
        if (request === current.current) setTrail({ status: "error", message: messageOf(err, toCoreError(err).message) });
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
      if (request === current.current) setTrail((t) => (t.status === "ready" ? { ...t, more: messageOf(err, toCoreError(err).message) } : t));
    }
  }

  const problem = filtersProblem(draft);
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
          Audit trail
        </h3>
        <a href={auditCsvUrl(farmId, applied)} download className={`btn-secondary ${touch}`}>
          Download CSV
        </a>
      </div>

      <form role="search" aria-label="Filter the audit trail" onSubmit={apply} noValidate className="card p-4 4xl:p-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_auto_auto_auto] items-end">
        <div>
          <label htmlFor={`${actorsId}-kind`} className={label}>
            What
          </label>
          <select id={`${actorsId}-kind`} className={controlClass()} value={draft.kind} onChange={(e) => setDraft((d) => ({ ...d, kind: e.target.value as AuditKind | "" }))}>
            <option value="">Everything</option>
            {AUDIT_KINDS.map((k) => (
              <option key={k} value={k}>
                {AUDIT_KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${actorsId}-actor`} className={label}>
            Who
          </label>
          <input id={`${actorsId}-actor`} className={controlClass()} list={actorsId} value={draft.actor} onChange={(e) => setDraft((d) => ({ ...d, actor: e.target.value }))} placeholder="Anyone" autoComplete="off" autoCapitalize="none" spellCheck={false} maxLength={100} />
          <datalist id={actorsId}>{members.state.status === "ready" && members.state.value.map((m) => <option key={m.client_id} value={m.username} />)}</datalist>
        </div>
        <div className="grid grid-cols-2 gap-3 sm:col-span-2 lg:col-span-1 lg:contents">
          <div>
            <label htmlFor={`${actorsId}-from`} className={label}>
              From
            </label>
            <input id={`${actorsId}-from`} type="date" className={controlClass(problem !== null)} value={draft.from} max={draft.to || undefined} onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))} aria-describedby={problem ? `${actorsId}-problem` : undefined} />
          </div>
          <div>
            <label htmlFor={`${actorsId}-to`} className={label}>
              To
            </label>
            <input id={`${actorsId}-to`} type="date" className={controlClass(problem !== null)} value={draft.to} min={draft.from || undefined} onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))} aria-describedby={problem ? `${actorsId}-problem` : undefined} />
          </div>
        </div>
        <div className="flex gap-2 sm:col-span-2 lg:col-span-1">
          <button type="submit" className={`btn-primary flex-1 ${touch}`} disabled={problem !== null}>
            Apply
          </button>
          <button
            type="button"
            className={`btn-secondary flex-1 ${touch}`}
            disabled={!filtered && JSON.stringify(draft) === JSON.stringify(NO_FILTERS)}
            onClick={() => {
              setDraft(NO_FILTERS);
              setApplied(NO_FILTERS);
            }}
          >
            Reset
          </button>
        </div>
        {problem && (
          <p id={`${actorsId}-problem`} role="alert" className="sm:col-span-2 lg:col-span-5 text-sm text-red-600">
            {problem}
          </p>
        )}
      </form>

      {trail.status === "loading" ? (
        <Loading text="Loading the audit trail…" />
      ) : trail.status === "error" ? (
        <LoadError text={`The audit trail could not be loaded: ${trail.message}`} onRetry={() => setAttempt((n) => n + 1)} />
      ) : trail.entries.length === 0 ? (
        <EmptyState title={filtered ? "No changes match these filters" : "No changes recorded yet"}>{filtered && <p>Widen the dates, or Reset the filters.</p>}</EmptyState>
      ) : (
        <>
          {wide ? <AuditTable entries={trail.entries} /> : <AuditList entries={trail.entries} />}
          <div className="flex flex-col items-center gap-2">
            {typeof trail.more === "string" && trail.more !== "idle" && trail.more !== "loading" && (
              <p role="alert" className="text-sm text-red-700">
                More could not be loaded: {trail.more}
              </p>
            )}
            {trail.next ? (
              <button type="button" className={`btn-secondary w-full sm:w-auto ${touch}`} disabled={trail.more === "loading"} aria-busy={trail.more === "loading"} onClick={() => void loadMore()}>
                {trail.more === "loading" ? "Loading…" : "Load more"}
              </button>
            ) : (
              <p className="text-sm 4xl:text-xl text-gray-600">That is every change{filtered ? " matching the filters" : ""}.</p>
            )}
          </div>
        </>
      )}
    </section>
  );
}

const whatOf = (e: AuditEntry) => `${AUDIT_KIND_LABELS[e.kind]} ${e.action}`;

function Changes({ entry }: { entry: AuditEntry }) {
  const text = changeSummary(entry.before, entry.after);
  return text ? <p className="break-words text-gray-700">{text}</p> : null;
}

/** A laptop's or a wall's table of the changes, newest first. */
function AuditTable({ entries }: { entries: readonly AuditEntry[] }) {
  const cell = "px-3 py-2.5 4xl:px-5 4xl:py-4 align-top";
  return (
    <div className="card overflow-x-auto">
      <table className="w-full text-left text-sm 4xl:text-xl">
        <caption className="sr-only">Changes to the farm, newest first</caption>
        <thead className="bg-gray-50 text-gray-700">
          <tr>
            <th scope="col" className={`${cell} font-semibold whitespace-nowrap`}>
              When
            </th>
            <th scope="col" className={`${cell} font-semibold`}>
              Who
            </th>
            <th scope="col" className={`${cell} font-semibold`}>
              From address
            </th>
            <th scope="col" className={`${cell} font-semibold`}>
              What
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
                <p className="font-medium text-gray-900">{whatOf(e)}</p>
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
  return (
    <ol className="card divide-y divide-gray-100" aria-label="Changes to the farm, newest first">
      {entries.map((e) => (
        <li key={e.audit_id} className="p-4 space-y-1 text-sm" data-audit-kind={e.kind}>
          <p className="font-semibold text-gray-900 text-base">{whatOf(e)}</p>
          <Changes entry={e} />
          <p className="text-gray-600">
            <span className="font-medium text-gray-800">{e.actor || "—"}</span> · <time dateTime={e.at}>{formatDateTime(e.at)}</time>
          </p>
          <p className="font-mono text-xs text-gray-500 break-all">{e.address}</p>
        </li>
      ))}
    </ol>
  );
}
