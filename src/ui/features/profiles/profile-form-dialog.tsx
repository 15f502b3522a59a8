import { useEffect, useId, useRef, useState } from "react";
import { Trans, useTranslation } from "react-i18next";
import type { ProfileConfig, SettingProfile } from "../../../contract/entities.ts";
import { Modal } from "../../components/modal.tsx";
import { messageOf, notify } from "../../components/toasts.ts";
import { useAppData } from "../../data/provider.tsx";
import { formatFixed } from "../../i18n/format.ts";
import { useLocale } from "../../i18n/i18n.ts";
import { ProfileNameStep } from "./profile-name-step.tsx";
import { ProfileSettingsStep } from "./profile-settings-step.tsx";

/**
 * Creates (profile null) or edits a setting profile in two steps (SPEC §4): the name, then the
 * settings. Both steps stay mounted so Back keeps what was typed in either. Mount it afresh for
 * each opening (a new `key`), so a new profile starts empty.
 */
export function ProfileFormDialog({ open, profile, onClose }: { open: boolean; profile: SettingProfile | null; onClose: () => void }) {
  const { t } = useTranslation("profiles");
  // The step numbers follow a change of digits, which changes no text.
  useLocale();
  const { core } = useAppData();
  const [step, setStep] = useState<1 | 2>(1);
  const [name, setName] = useState(profile?.name ?? "");
  const [failure, setFailure] = useState<string | null>(null);
  const ids = useId();
  const nameFormId = `profile-name-${ids}`;
  const settingsFormId = `profile-settings-${ids}`;

  // Moving between steps hides the focused form: put the focus on the step that appears.
  const moved = useRef(false);
  useEffect(() => {
    if (!moved.current) return;
    const form = document.getElementById(step === 1 ? nameFormId : settingsFormId);
    form?.querySelector<HTMLElement>("input, select")?.focus();
  }, [step, nameFormId, settingsFormId]);
  const goTo = (next: 1 | 2) => {
    moved.current = true;
    setStep(next);
  };

  async function save(config: ProfileConfig) {
    setFailure(null);
    try {
      if (profile) {
        await core.updateProfile(profile.profile_id, { name, config, client_id: profile.client_id });
        notify.success(t("dialog.updated"));
      } else {
        await core.createProfile({ name, config });
        notify.success(t("dialog.created"));
      }
      onClose();
    } catch (err) {
      const message = messageOf(err, t("dialog.saveFailed"));
      notify.error(message);
      // Also inside the dialog: while it is open, everything outside it (the toasts too) is inert.
      setFailure(message);
    }
  }

  return (
    <Modal open={open} onClose={onClose} title={profile ? t("dialog.editTitle") : t("dialog.createTitle")} wide={step === 2}>
      <p className="mb-4 text-sm text-gray-600">
        {step === 1 ? (
          t("dialog.step1", { step: formatFixed(1, 0), steps: formatFixed(2, 0) })
        ) : (
          <Trans
            t={t}
            i18nKey="dialog.step2"
            values={{ step: formatFixed(2, 0), steps: formatFixed(2, 0), name }}
            components={{ name: <strong className="font-semibold text-gray-900" /> }}
          />
        )}
      </p>
      <ProfileNameStep
        formId={nameFormId}
        defaultName={profile?.name}
        hidden={step !== 1}
        onNext={(value) => {
          setName(value);
          goTo(2);
        }}
        onCancel={onClose}
      />
      <ProfileSettingsStep formId={settingsFormId} config={profile?.config} hidden={step !== 2} failure={failure} onSave={save} onBack={() => goTo(1)} onCancel={onClose} />
    </Modal>
  );
}
