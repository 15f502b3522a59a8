import { useCallback, useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router-dom";
import type { Farm } from "../../../contract/entities.ts";
import { ROLE_LABELS, ROLES } from "../../../contract/team-values.ts";
import type { Invitation, Member, Role } from "../../../contract/team.ts";
import { useConfirm } from "../../components/confirm-dialog.tsx";
import { formatDate, formatDateTime } from "../../components/dates.ts";
import { PlusIcon } from "../../components/icons.tsx";
import { EmptyState, LoadError, Loading } from "../../components/states.tsx";
import { messageOf, notify } from "../../components/toasts.ts";
import { useFarmMembers } from "../../data/farm-members.ts";
import { useRefusal } from "../../data/farm-roles.ts";
import { useAppData, useClient } from "../../data/provider.tsx";
import { controlClass, touch } from "./controls.tsx";
import { FarmTeamFrame } from "./farm-team-frame.tsx";
import { InviteDialog } from "./invite-dialog.tsx";
import { useTeamLoad } from "./use-team-load.ts";

/** Farm teams: a farm's members, their roles, its invitations, and leaving it. */
export default function MembersPage() {
  return (
    <FarmTeamFrame screen="members" title="Members">
      {(farm) => <Members farm={farm} />}
    </FarmTeamFrame>
  );
}

const rank = (r: Role) => ROLES.indexOf(r);

function Members({ farm }: { farm: Farm }) {
  const { core } = useAppData();
  const me = useClient()?.client_id ?? null;
  const navigate = useNavigate();
  const confirm = useConfirm();
  const farmId = farm.farm_id;
  // Null while the person's role is not known yet: the server decides, and says why if it refuses.
  const refusal = useRefusal(farmId, "manageMembers");
  const manage = refusal === null;
  // Kept current by the core while on screen: others' joins, departures and role changes show at once.
  const members = useFarmMembers(farmId);
  const [busy, setBusy] = useState<number | null>(null);

  const mine = members.state.status === "ready" ? members.state.value.find((m) => m.client_id === me) : undefined;

  async function changeRole(member: Member, role: Role) {
    if (role === member.role) return;
    if (rank(role) > rank(member.role) && !(await confirm(`Make ${member.username} a ${ROLE_LABELS[role]}? They will no longer be able to do what a ${ROLE_LABELS[member.role]} can.`))) return;
    setBusy(member.client_id);
    try {
      const changed = await core.changeMemberRole(farmId, member.client_id, role);
      notify.success(`${member.username} is now a ${ROLE_LABELS[changed.role]}`);
    } catch (err) {
      notify.error(messageOf(err, "The role could not be changed"));
    } finally {
      setBusy(null);
    }
  }

  async function remove(member: Member) {
    if (!(await confirm(`Remove ${member.username} from ${farm.name}? They will no longer see this farm.`))) return;
    setBusy(member.client_id);
    try {
      notify.success((await core.removeMember(farmId, member.client_id)).message);
    } catch (err) {
      notify.error(messageOf(err, "The member could not be removed"));
    } finally {
      setBusy(null);
    }
  }

  async function leave() {
    if (!(await confirm(`Leave ${farm.name}? You will no longer see its MCUs, alarms and batches until someone invites you again.`))) return;
    try {
      notify.success(await core.leaveFarm(farmId));
      navigate("/farms");
    } catch (err) {
      notify.error(messageOf(err, "You could not leave the farm"));
    }
  }

  return (
    <>
      <section aria-labelledby="members-heading" className="space-y-3 4xl:space-y-5">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h3 id="members-heading" className="text-lg 4xl:text-3xl font-semibold text-gray-900">
            Members
            {members.state.status === "ready" && <span className="ml-2 font-normal text-gray-600 tabular-nums">({members.state.value.length})</span>}
          </h3>
        </div>
        {!manage && (
          <p className="rounded-xl border border-gray-200 bg-gray-50 px-4 py-3 text-sm 4xl:text-xl text-gray-700">
            {refusal}. The Owner of the farm can.
          </p>
        )}
        {members.state.status === "loading" ? (
          <Loading text="Loading members…" />
        ) : members.state.status === "error" ? (
          <LoadError text={`The members could not be loaded: ${members.state.message}`} onRetry={members.retry} />
        ) : (
          <ul className="grid gap-3 4xl:gap-5 lg:grid-cols-2 4xl:grid-cols-3" aria-label="Members">
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
              Leave this farm
            </h3>
            <p className="text-sm 4xl:text-xl text-gray-600">You are a {ROLE_LABELS[mine.role]} here. Leaving takes the farm off your lists.</p>
          </div>
          <button type="button" className={`btn-secondary ${touch} text-red-700 border-red-300 hover:bg-red-50`} onClick={() => void leave()}>
            Leave farm
          </button>
        </section>
      )}
    </>
  );
}

function MemberItem({ member, me, manage, busy, onRole, onRemove }: { member: Member; me: boolean; manage: boolean; busy: boolean; onRole: (r: Role) => void; onRemove: () => void }) {
  // The farm's account is always its Owner, and one's own role is changed by someone else (or by leaving).
  const editable = manage && !member.account_owner && !me;
  const roleText = member.account_owner ? "Owner (account)" : ROLE_LABELS[member.role];
  const selectId = `member-role-${member.client_id}`;
  return (
    <li className="card p-4 4xl:p-6 flex flex-col gap-3" aria-label={member.username} data-member={member.username}>
      <div className="min-w-0">
        <p className="font-semibold text-gray-900 4xl:text-2xl break-words">
          {member.username}
          {me && <span className="ml-2 rounded-full bg-brand-100 px-2 py-0.5 text-xs 4xl:text-lg font-medium text-brand-800">You</span>}
        </p>
        <p className="text-sm 4xl:text-xl text-gray-600 break-all">{member.email}</p>
        <p className="text-xs 4xl:text-lg text-gray-500">
          {member.account_owner ? "Created the farm" : "Joined"} <time dateTime={member.joined_at}>{formatDate(member.joined_at)}</time>
        </p>
      </div>
      <div className="flex flex-wrap items-end gap-3 mt-auto">
        {editable ? (
          <div className="flex-1 min-w-40">
            <label htmlFor={selectId} className="block text-sm 4xl:text-xl font-medium text-gray-700 mb-1">
              Role
            </label>
            <select id={selectId} className={controlClass()} value={member.role} disabled={busy} onChange={(e) => onRole(e.target.value as Role)} aria-label={`Role of ${member.username}`}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {ROLE_LABELS[r]}
                </option>
              ))}
            </select>
          </div>
        ) : (
          <p className="flex-1">
            <span className="sr-only">Role: </span>
            <span data-role className={`inline-flex rounded-full px-3 py-1 text-sm 4xl:text-xl font-medium ${member.role === "owner" ? "bg-brand-100 text-brand-900" : "bg-gray-100 text-gray-800"}`}>
              {roleText}
            </span>
          </p>
        )}
        {editable && (
          <button type="button" className={`btn-secondary ${touch} text-red-700 border-red-300 hover:bg-red-50`} disabled={busy} onClick={onRemove} aria-label={`Remove ${member.username}`}>
            Remove
          </button>
        )}
      </div>
    </li>
  );
}

const STATE_LABELS: Record<Invitation["state"], string> = { open: "Open", accepted: "Accepted", revoked: "Withdrawn", expired: "Expired" };
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
    if (!(await confirm(`Withdraw this ${ROLE_LABELS[inv.role]} invitation? Its code will no longer work.`))) return;
    setBusy(inv.invitation_id);
    try {
      const revoked = await core.revokeInvitation(farmId, inv.invitation_id);
      list.set((l) => l.map((i) => (i.invitation_id === revoked.invitation_id ? revoked : i)));
      notify.success("Invitation withdrawn");
    } catch (err) {
      notify.error(messageOf(err, "The invitation could not be withdrawn"));
    } finally {
      setBusy(null);
    }
  }

  const sorted = list.state.status === "ready" ? [...list.state.value].sort((a, b) => Number(b.state === "open") - Number(a.state === "open")) : [];

  return (
    <section aria-labelledby="invitations-heading" className="space-y-3 4xl:space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id="invitations-heading" className="text-lg 4xl:text-3xl font-semibold text-gray-900">
          Invitations
        </h3>
        <button type="button" className={`btn-primary ${touch}`} onClick={() => setInviting(true)}>
          <PlusIcon /> Invite
        </button>
      </div>
      {list.state.status === "loading" ? (
        <Loading text="Loading invitations…" />
      ) : list.state.status === "error" ? (
        <LoadError text={`The invitations could not be loaded: ${list.state.message}`} onRetry={list.retry} />
      ) : sorted.length === 0 ? (
        <EmptyState title="No invitations">
          <p>Invite someone to give them a role on this farm. An invitation works once, for the days you choose.</p>
        </EmptyState>
      ) : (
        <ul className="card divide-y divide-gray-100" aria-label="Invitations">
          {sorted.map((inv) => (
            <li key={inv.invitation_id} className="p-4 4xl:p-6 flex flex-col sm:flex-row sm:items-center gap-3" data-invitation-state={inv.state}>
              <div className="flex-1 min-w-0 space-y-1">
                <p className="flex flex-wrap items-center gap-2">
                  <span className="font-semibold text-gray-900 4xl:text-2xl">{ROLE_LABELS[inv.role]}</span>
                  <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs 4xl:text-lg font-medium ring-1 ring-inset ${STATE_LOOKS[inv.state]}`}>{STATE_LABELS[inv.state]}</span>
                </p>
                {inv.note && <p className="text-sm 4xl:text-xl text-gray-800 break-words">“{inv.note}”</p>}
                <p className="text-xs 4xl:text-lg text-gray-600">
                  {inv.state === "accepted" ? (
                    <>Accepted by {inv.accepted_by ?? "someone"}</>
                  ) : (
                    <>
                      {inv.state === "expired" ? "Expired" : "Expires"} <time dateTime={inv.expires_at}>{formatDateTime(inv.expires_at)}</time>
                    </>
                  )}
                  {inv.created_by && <> · by {inv.created_by}</>}
                </p>
              </div>
              {inv.state === "open" && (
                <button type="button" className={`btn-secondary ${touch}`} disabled={busy === inv.invitation_id} onClick={() => void revoke(inv)} aria-label={`Revoke the ${ROLE_LABELS[inv.role]} invitation${inv.note ? ` (${inv.note})` : ""}`}>
                  Revoke
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
