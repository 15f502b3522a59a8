import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Farm } from "../../../contract/entities.ts";
import { useConfirm } from "../../components/confirm-dialog.tsx";
import { PlusIcon } from "../../components/icons.tsx";
import { EmptyState, LoadError, Loading, SavedDataNotice } from "../../components/states.tsx";
import { notify } from "../../components/toasts.ts";
import { useListLoad } from "../../components/use-list-load.ts";
import { useCollection } from "../../data/hooks.ts";
import { useAppData } from "../../data/provider.tsx";
import { FarmCard } from "./farm-card.tsx";
import { FarmFormDialog } from "./farm-form-dialog.tsx";
import { refusalText } from "../../components/server-refusal.ts";

const FARM_LISTS = ["farms"] as const;

interface Dialog {
  open: boolean;
  farm: Farm | null;
}

/** SPEC §2 Manage Farms: the client's farms as cards, with create, update and delete. */
export default function FarmsPage() {
  const { t } = useTranslation("farms");
  const { core } = useAppData();
  const farms = useCollection("farms");
  const { state, retry } = useListLoad({
    load: useCallback(() => core.loadFarms(), [core]),
    failure: { kind: "info", fallback: t("page.loadFailed") },
    toastId: "farms-load",
  });
  const confirm = useConfirm();
  // The farm stays set while the dialog closes, so its title does not flip as it goes.
  const [dialog, setDialog] = useState<Dialog>({ open: false, farm: null });
  const [deleting, setDeleting] = useState<number | null>(null);

  async function remove(farm: Farm) {
    if (!(await confirm(t("page.confirmDelete")))) return;
    setDeleting(farm.farm_id);
    try {
      // The server's answer is English; the person reads the same news in their language.
      await core.deleteFarm(farm.farm_id);
      notify.success(t("page.deleted"));
    } catch (err) {
      // The server refuses a farm that still has MCUs and says why; the farmer needs that reason.
      const reason = refusalText(err);
      notify.error(reason ? t("page.deleteFailedBecause", { reason }) : t("page.deleteFailed"));
    } finally {
      setDeleting(null);
    }
  }

  return (
    <section aria-labelledby="farms-heading">
      {/* The top bar shows the page's one visible title; this heading names the section for
          screen readers. */}
      <div className="flex flex-wrap items-center justify-end gap-3 mb-5">
        <h2 id="farms-heading" className="sr-only">
          {t("page.heading")}
        </h2>
        <button type="button" className="btn-primary 4xl:text-xl 4xl:px-6 4xl:py-3" onClick={() => setDialog({ open: true, farm: null })}>
          <PlusIcon /> {t("page.add")}
        </button>
      </div>

      <div className="empty:hidden mb-5">
        <SavedDataNotice lists={FARM_LISTS} />
      </div>

      {state.status === "error" ? (
        <LoadError text={state.message} onRetry={retry} />
      ) : state.status === "loading" && farms.length === 0 ? (
        <Loading text={t("page.loading")} />
      ) : farms.length === 0 ? (
        <EmptyState title={t("page.emptyTitle")}>
          <p>{t("page.emptyHint")}</p>
        </EmptyState>
      ) : (
        <ul className="grid gap-4 4xl:gap-6 sm:grid-cols-2 xl:grid-cols-3 4xl:grid-cols-4" aria-label={t("page.listLabel")}>
          {farms.map((farm) => (
            <li key={farm.farm_id} className="flex">
              <FarmCard
                farm={farm}
                deleting={deleting === farm.farm_id}
                onEdit={() => setDialog({ open: true, farm })}
                onDelete={() => void remove(farm)}
              />
            </li>
          ))}
        </ul>
      )}

      <FarmFormDialog open={dialog.open} farm={dialog.farm} onClose={() => setDialog((d) => ({ ...d, open: false }))} />
    </section>
  );
}
