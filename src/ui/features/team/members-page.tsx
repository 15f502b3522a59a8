import { useCallback, useEffect, useRef, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import type { Farm } from "../../../contract/entities.ts";
import { can, ROLES } from "../../../contract/team-values.ts";
import type { Invitation, Member, Role } from "../../../contract/team.ts";
import { useConfirm } from "../../components/confirm-dialog.tsx";
import { formatDate, formatDateTime } from "../../components/dates.ts";
import { PlusIcon } from "../../components/icons.tsx";
import { EmptyState, LoadError, Loading } from "../../components/states.tsx";
import { messageOf, notify } from "../../components/toasts.ts";
import { useFarmMembers } from "../../data/farm-members.ts";
import { leavingFarm, roleLabel, useFarmRole, useRefusal } from "../../data/farm-roles.ts";
import { useAppData, useClient } from "../../data/provider.tsx";
import { formatFixed } from "../../i18n/format.ts";
import { useLocale } from "../../i18n/i18n.ts";
import { controlClass, touch } from "./controls.tsx";
import { FarmTeamFrame } from "./farm-team-frame.tsx";
import { InviteDialog } from "./invite-dialog.tsx";
import { useTeamLoad } from "./use-team-load.ts";

/** Farm teams: a farm's members, their roles, its invitations, and leaving it. */
export default function MembersPage() {
  return (
    <FarmTeamFrame screen="members">
      {(farm) => <Members farm={farm} />}
    </FarmTeamFrame>
  );
}

const rank = (r: Role) => ROLES.indexOf(r);

function Members({ farm }: { farm: Farm }) {
  const { t } = useTranslation("team");
  // Numbers and dates in the reader's digits: rendered again when only the digits change.
  useLocale();
  const { core, store } = useAppData();
  const me = useClient()?.client_id ?? null;
  const navigate = useNavigate();
  const confirm = useConfirm();
  const farmId = farm.farm_id;
  const refusal = useRefusal(farmId, "manageMembers");
  // Only once the person's role is known: on a page opened afresh the roles come with the lists,
  // and a Grower would otherwise be shown the invitations, the role pickers and Remove for a moment
  // (and the invitations asked of the server, which refuses them).
  const role = useFarmRole(farmId);
  const manage = role !== null && can(role, "manageMembers");
  // Kept current by the core while on screen: others' joins, departures and role changes show at once.
  const members = useFarmMembers(farmId);
  const [busy, setBusy] = useState<number | null>(null);

  const mine = members.state.status === "ready" ? members.state.value.find((m) => m.client_id === me) : undefined;

  async function changeRole(member: Member, role: Role) {
    if (role === member.role) return;
    if (rank(role) > rank(member.role) && !(await confirm(t("members.confirmLower", { name: member.username, role: roleLabel(t, role), current: roleLabel(t, member.role) })))) return;
    setBusy(member.client_id);
    try {
      const changed = await core.changeMemberRole(farmId, member.client_id, role);
      notify.success(t("members.roleChanged", { name: member.username, role: roleLabel(t, changed.role) }));
    } catch (err) {
      notify.error(messageOf(err, t("members.roleFailed")));
    } finally {
      setBusy(null);
    }
  }

  async function remove(member: Member) {
    if (!(await confirm(t("members.confirmRemove", { name: member.username, farm: farm.name })))) return;
    setBusy(member.client_id);
    try {
      // The server's answer says it in English: the catalogue says it in the reader's language.
      await core.removeMember(farmId, member.client_id);
      notify.success(t("members.removed"));
    } catch (err) {
      notify.error(messageOf(err, t("members.removeFailed")));
    } finally {
      setBusy(null);
    }
  }

  async function leave() {
    if (!(await confirm(t("members.confirmLeave", { farm: farm.name })))) return;
    // Said here as the person's own doing, not as the farm taken away from them.
    const stay = leavingFarm(store, farmId);
    try {
      await core.leaveFarm(farmId);
      notify.success(t("members.left"));
      navigate("/farms");
    } catch (err) {
      stay();
      notify.error(messageOf(err, t("members.leaveFailed")));
    }
  }

  return (
    <>
      <section aria-labelledby="members-heading" className="space-y-3 4xl:space-y-5">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h3 id="members-heading" className="text-lg 4xl:text-3xl font-semibold text-gray-900">
            {t("members.title")}
            {members.state.status === "ready" && <span className="ms-2 font-normal text-gray-600 tabular-nums">({formatFixed(members.state.value.length, 0)})</span>}
          </h3>
        </div>
        {refusal !== null && (
          <p className="rounded-xl border border-gray-200 bg-gray-50 px-4 py-3 text-sm 4xl:text-xl text-gray-700">
            {t("refusedOwnerCan", { refusal })}
          </p>
        )}
        {members.state.status === "loading" ? (
          <Loading text={t("members.loading")} />
        ) : members.state.status === "error" ? (
          <LoadError text={t("members.loadFailed", { reason: members.state.message })} onRetry={members.retry} />
        ) : (
          <ul className="grid gap-3 4xl:gap-5 lg:grid-cols-2 4xl:grid-cols-3" aria-label={t("members.title")}>
            {members.state.value.map((m) => (
              <MemberItem key={m.client_id} member={m} me={m.client_id === me} manage={manage} busy={busy === m.client_id} onRole={(r) => void changeRole(m, r)} onRemove={() => void remove(m)} />
            ))}
          </ul>
        )}
      </section>

      {manage && <Invitations farm={farm} memberIds={members.state.status === "ready" ? members.state.value.map((m) => m.client_id).join(",") : null} />}

      {mine && !mine.account_owner && (
        <section aria-labelledby="leave-heading" className="card p-4 sm:p-5 4xl:p-8 flex flex-col sm:flex-row sm:items-center justify-between gap-3">
          <div>
            <h3 id="leave-heading" className="font-semibold text-gray-900 4xl:text-2xl">
              {t("members.leaveHeading")}
            </h3>
            <p className="text-sm 4xl:text-xl text-gray-600">{t("members.leaveText", { role: roleLabel(t, mine.role) })}</p>
          </div>
          <button type="button" className={`btn-secondary ${touch} text-red-700 border-red-300 hover:bg-red-50`} onClick={() => void leave()}>
            {t("members.leave")}
          </button>
        </section>
      )}
    </>
  );
}

function MemberItem({ member, me, manage, busy, onRole, onRemove }: { member: Member; me: boolean; manage: boolean; busy: boolean; onRole: (r: Role) => void; onRemove: () => void }) {
  const { t } = useTranslation("team");
  useLocale();
  // The farm's account is always its Owner, and one's own role is changed by someone else (or by leaving).
  const editable = manage && !member.account_owner && !me;
  const roleText = member.account_owner ? t("members.ownerAccount") : roleLabel(t, member.role);
  const selectId = `member-role-${member.client_id}`;
  return (
    <li className="card p-4 4xl:p-6 flex flex-col gap-3" aria-label={member.username} data-member={member.username}>
      <div className="min-w-0">
        <p className="font-semibold text-gray-900 4xl:text-2xl break-words">
          {member.username}
          {me && <span className="ms-2 rounded-full bg-brand-100 px-2 py-0.5 text-xs 4xl:text-lg font-medium text-brand-800">{t("members.you")}</span>}
        </p>
        <p className="text-sm 4xl:text-xl text-gray-600 break-all">{member.email}</p>
        <p className="text-xs 4xl:text-lg text-gray-500">
          <Trans t={t} i18nKey={member.account_owner ? "members.createdOn" : "members.joinedOn"} values={{ date: formatDate(member.joined_at) }} components={{ time: <time dateTime={member.joined_at} /> }} />
        </p>
      </div>
      <div className="flex flex-wrap items-end gap-3 mt-auto">
        {editable ? (
          <div className="flex-1 min-w-40">
            <label htmlFor={selectId} className="block text-sm 4xl:text-xl font-medium text-gray-700 mb-1">
              {t("members.role")}
            </label>
            <select id={selectId} className={controlClass()} value={member.role} disabled={busy} onChange={(e) => onRole(e.target.value as Role)} aria-label={t("members.roleOf", { name: member.username })}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {roleLabel(t, r)}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <p className="flex-1">
            <span className="sr-only">{t("members.roleHidden")}</span>
            <span data-role className={`inline-flex rounded-full px-3 py-1 text-sm 4xl:text-xl font-medium ${member.role === "owner" ? "bg-brand-100 text-brand-900" : "bg-gray-100 text-gray-800"}`}>
              {roleText}
            </span>
          </p>
        )}
        {editable && (
          <button type="button" className={`btn-secondary ${touch} text-red-700 border-red-300 hover:bg-red-50`} disabled={busy} onClick={onRemove} aria-label={t("members.removeLabel", { name: member.username })}>
            {t("members.remove")}
          </button>
        )}
      </div>
    </li>
  );
}

const STATE_LOOKS: Record<Invitation["state"], string> = {
  open: "bg-green-50 text-green-800 ring-green-200",
  accepted: "bg-gray-100 text-gray-800 ring-gray-200",
  revoked: "bg-gray-100 text-gray-600 ring-gray-200",
  expired: "bg-gray-100 text-gray-600 ring-gray-200",
};

/**
 * The farm's invitations of the last 30 days, open ones first, with Invite and Revoke. `memberIds`:
 * the members on screen; someone new among them (they accepted an invitation) has the list read
 * again, so their invitation shows as accepted.
 */
function Invitations({ farm, memberIds }: { farm: Farm; memberIds: string | null }) {
  const { t } = useTranslation("team");
  useLocale();
  const { core } = useAppData();
  const confirm = useConfirm();
  const farmId = farm.farm_id;
  const list = useTeamLoad(useCallback(() => core.farmInvitations(farmId), [core, farmId]), `invitations-${farmId}`);
  const shownMembers = useRef(memberIds);
  const { refresh } = list;
  useEffect(() => {
    if (memberIds === null || memberIds === shownMembers.current) return;
    const before = shownMembers.current;
    shownMembers.current = memberIds;
    if (before !== null) refresh();
  }, [memberIds, refresh]);
  const [inviting, setInviting] = useState(false);
  const [busy, setBusy] = useState<number | null>(null);

  async function revoke(inv: Invitation) {
    if (!(await confirm(t("invitations.confirmRevoke", { role: roleLabel(t, inv.role) })))) return;
    setBusy(inv.invitation_id);
    try {
      const revoked = await core.revokeInvitation(farmId, inv.invitation_id);
      list.set((l) => l.map((i) => (i.invitation_id === revoked.invitation_id ? revoked : i)));
      notify.success(t("invitations.revoked"));
    } catch (err) {
      notify.error(messageOf(err, t("invitations.revokeFailed")));
    } finally {
      setBusy(null);
    }
  }

  const sorted = list.state.status === "ready" ? [...list.state.value].sort((a, b) => Number(b.state === "open") - Number(a.state === "open")) : [];

  return (
    <section aria-labelledby="invitations-heading" className="space-y-3 4xl:space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id="invitations-heading" className="text-lg 4xl:text-3xl font-semibold text-gray-900">
          {t("invitations.title")}
        </h3>
        <button type="button" className={`btn-primary ${touch}`} onClick={() => setInviting(true)}>
          <PlusIcon /> {t("invitations.invite")}
        </button>
      </div>
      {list.state.status === "loading" ? (
        <Loading text={t("invitations.loading")} />
      ) : list.state.status === "error" ? (
        <LoadError text={t("invitations.loadFailed", { reason: list.state.message })} onRetry={list.retry} />
      ) : sorted.length === 0 ? (
        <EmptyState title={t("invitations.empty")}>
          <p>{t("invitations.emptyText")}</p>
        </EmptyState>
      ) : (
        <ul className="card divide-y divide-gray-100" aria-label={t("invitations.title")}>
          {sorted.map((inv) => (
            <li key={inv.invitation_id} className="p-4 4xl:p-6 flex flex-col sm:flex-row sm:items-center gap-3" data-invitation-state={inv.state}>
              <div className="flex-1 min-w-0 space-y-1">
                <p className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold text-gray-900 4xl:text-2xl">{roleLabel(t, inv.role)}</span>
                  <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs 4xl:text-lg font-medium ring-1 ring-inset ${STATE_LOOKS[inv.state]}`}>{t(`invitations.states.${inv.state}`)}</span>
                </p>
                {inv.note && (
                  <p className="text-sm 4xl:text-xl text-gray-800 break-words">
                    {/* The note is in the words of whoever wrote it: set apart in its own direction, inside the reader's quotes. */}
                    <Trans t={t} i18nKey="invitations.note" values={{ note: inv.note }} components={{ words: <bdi /> }} />
                  </p>
                )}
                <p className="text-xs 4xl:text-lg text-gray-600">
                  {inv.state === "accepted" ? (
                    t("invitations.acceptedBy", { name: inv.accepted_by ?? t("invitations.someone") })
                  ) : (
                    <Trans
                      t={t}
                      i18nKey={inv.state === "expired" ? "invitations.expiredOn" : "invitations.expiresOn"}
                      values={{ date: formatDateTime(inv.expires_at) }}
                      components={{ time: <time dateTime={inv.expires_at} /> }}
                    />
                  )}
                  {inv.created_by && t("invitations.by", { name: inv.created_by })}
                </p>
              </div>
              {inv.state === "open" && (
                <button type="button" className={`btn-secondary ${touch}`} disabled={busy === inv.invitation_id} onClick={() => void revoke(inv)}
                  aria-label={inv.note ? t("invitations.revokeLabelNote", { role: roleLabel(t, inv.role), note: inv.note }) : t("invitations.revokeLabel", { role: roleLabel(t, inv.role) })}
                >
                  {t("invitations.revoke")}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <InviteDialog
        farmId={farmId}
        farmName={farm.name}
        open={inviting}
        onClose={() => setInviting(false)}
        onCreated={({ invitation }) => list.set((l) => [invitation, ...l])}
      />
    </section>
  );
}
