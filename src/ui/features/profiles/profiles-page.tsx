import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import type { SettingProfile } from "../../../contract/entities.ts";
import { useConfirm } from "../../components/confirm-dialog.tsx";
import { PlusIcon } from "../../components/icons.tsx";
import { withRefusal } from "../../components/refusal-note.tsx";
import { EmptyState, LoadError, Loading } from "../../components/states.tsx";
import { notify } from "../../components/toasts.ts";
import { useListLoad } from "../../components/use-list-load.ts";
import { useCollection } from "../../data/hooks.ts";
import { useAppData } from "../../data/provider.tsx";
import { ProfileCard } from "./profile-card.tsx";
import { ProfileFormDialog } from "./profile-form-dialog.tsx";

interface Dialog {
  open: boolean;
  profile: SettingProfile | null;
  /** A new number per opening, so the two-step form starts afresh each time. */
  session: number;
}

/** SPEC §2 Manage Setting Profiles: reusable automation settings, linked to MCUs elsewhere. */
export default function ProfilesPage() {
  const { t } = useTranslation("profiles");
  const { core } = useAppData();
  const profiles = useCollection("profiles");
  const { state, retry } = useListLoad({
    load: useCallback(() => core.loadProfiles(), [core]),
    // SPEC §8 gives this list a fixed error text rather than the server's message.
    failure: { kind: "error", text: t("page.loadFailed") },
    toastId: "profiles-load",
  });
  const confirm = useConfirm();
  const [dialog, setDialog] = useState<Dialog>({ open: false, profile: null, session: 0 });
  const [deleting, setDeleting] = useState<number | null>(null);
  const openDialog = (profile: SettingProfile | null) => setDialog((d) => ({ open: true, profile, session: d.session + 1 }));

  async function remove(profile: SettingProfile) {
    if (!(await confirm(t("page.confirmDelete")))) return;
    setDeleting(profile.profile_id);
    try {
      // The server's answer is English; the person reads the same news in their language.
      await core.deleteProfile(profile.profile_id);
      notify.success(t("page.deleted"));
    } catch (err) {
      notify.error(withRefusal(t("page.deleteFailed"), err));
    } finally {
      setDeleting(null);
    }
  }

  return (
    <section aria-labelledby="profiles-heading">
      <div className="flex flex-wrap items-center justify-end gap-3 mb-5">
        <h2 id="profiles-heading" className="sr-only">
          {t("page.heading")}
        </h2>
        <button type="button" className="btn-primary 4xl:text-xl 4xl:px-6 4xl:py-3" onClick={() => openDialog(null)}>
          <PlusIcon /> {t("page.add")}
        </button>
      </div>

      {state.status === "error" ? (
        <LoadError text={state.message} onRetry={retry} />
      ) : state.status === "loading" && profiles.length === 0 ? (
        <Loading text={t("page.loading")} />
      ) : profiles.length === 0 ? (
        <EmptyState title={t("page.emptyTitle")}>
          <p>{t("page.emptyHint")}</p>
        </EmptyState>
      ) : (
        <ul className="grid gap-4 4xl:gap-6 md:grid-cols-2 2xl:grid-cols-3 4xl:grid-cols-4" aria-label={t("page.listLabel")}>
          {profiles.map((profile) => (
            <li key={profile.profile_id} className="flex">
              <ProfileCard profile={profile} deleting={deleting === profile.profile_id} onEdit={() => openDialog(profile)} onDelete={() => void remove(profile)} />
            </li>
          ))}
        </ul>
      )}

      <ProfileFormDialog key={dialog.session} open={dialog.open} profile={dialog.profile} onClose={() => setDialog((d) => ({ ...d, open: false }))} />
    </section>
  );
}
