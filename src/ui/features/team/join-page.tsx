import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Trans, useTranslation } from "react-i18next";
import { Link, useNavigate, useSearchParams } from "react-router-dom";
import { INVITATION_CODE_LENGTH, normalizeInvitationCode } from "../../../contract/team-values.ts";
import type { InvitationPreview } from "../../../contract/team.ts";
import { formatDateTime } from "../../components/dates.ts";
import { chooseSignedOutLanguage, LanguageSelect } from "../../components/language-select.tsx";
import { withNext } from "../../components/next-path.ts";
import { notify } from "../../components/toasts.ts";
import { roleLabel } from "../../data/farm-roles.ts";
import { useAppData, useClient } from "../../data/provider.tsx";
import { useLocale } from "../../i18n/i18n.ts";
import { controlClass } from "./controls.tsx";
import { groupedCode } from "./invitation-code.ts";
import { roleSummary } from "./role-summary.ts";
import { failureText } from "../../components/server-refusal.ts";

const linkClass = "font-medium text-brand-700 hover:text-brand-800 underline underline-offset-2";
/** A thumb's size; no wall sizes of their own: the card is zoomed whole on a wall screen, as Sign In is. */
const touch = "min-h-12";

/**
 * The frame of the Join screen, signed in or out: the brand and a centred card, as on Sign In. The
 * screen has no sidebar (a person who is not signed in yet reaches it from a link).
 */
function JoinCard({ signedOut = false, children }: { /** Offers the language to read it in, as Sign In does (signed in, it is the client's). */ signedOut?: boolean; children: ReactNode }) {
  const { t } = useTranslation("team");
  const documentTitle = t("join.documentTitle");
  useEffect(() => {
    document.title = documentTitle;
  }, [documentTitle]);
  return (
    <div className="min-h-screen bg-brand-50 flex flex-col items-center justify-center px-4 py-8 sm:py-12">
      <main className="w-full max-w-md 3xl:[zoom:1.25] 4xl:[zoom:2]">
        {signedOut && <LanguageSelect onChoose={chooseSignedOutLanguage} className="justify-end mb-4" />}
        <p className="flex items-center justify-center gap-3 mb-6 text-xl font-bold text-brand-900">
          <span className="inline-flex items-center justify-center w-11 h-11 rounded-xl bg-brand-900 shadow-sm">
            <img src="/favicon.svg" alt="" width={32} height={32} className="w-8 h-8" />
          </span>
          {t("join.brand")}
        </p>
        <div className="card px-5 py-6 sm:px-8 sm:py-8 space-y-5">
          <h1 className="text-2xl font-semibold text-gray-900 text-center">{t("join.title")}</h1>
          {children}
        </div>
      </main>
    </div>
  );
}

/**
 * Joining a farm with an invitation's code (from its link, or typed). Signed in: what the code
 * offers, then Join. Signed out: the way to sign in or sign up and come back here with the code.
 */
export default function JoinPage() {
  const { t } = useTranslation("team");
  const [params] = useSearchParams();
  const fromLink = normalizeInvitationCode(params.get("code") ?? "");
  const client = useClient();
  const here = fromLink ? `/join?${new URLSearchParams({ code: fromLink }).toString()}` : "/join";

  if (!client) {
    return (
      <JoinCard signedOut>
        <p className="text-gray-700 leading-relaxed">{fromLink ? t("join.signedOutWithCode") : t("join.signedOut")}</p>
        <div className="grid gap-3 sm:grid-cols-2">
          <Link to={withNext("/login", here)} className={`btn-primary ${touch}`}>
            {t("join.signIn")}
          </Link>
          <Link to={withNext("/register", here)} className={`btn-secondary ${touch}`}>
            {t("join.createAccount")}
          </Link>
        </div>
      </JoinCard>
    );
  }
  return (
    <JoinCard>
      <JoinForm initialCode={fromLink} />
      <p className="text-center text-sm">
        <Link to="/dashboard" className={linkClass}>
          {t("join.backToDashboard")}
        </Link>
      </p>
    </JoinCard>
  );
}

type Check = { status: "idle" } | { status: "checking" } | { status: "refused"; message: string } | { status: "ready"; code: string; preview: InvitationPreview };

function JoinForm({ initialCode }: { initialCode: string }) {
  const { t } = useTranslation("team");
  // Numbers and dates in the reader's digits: rendered again when only the digits change.
  useLocale();
  const { core } = useAppData();
  const navigate = useNavigate();
  const [typed, setTyped] = useState(initialCode ? groupedCode(initialCode) : "");
  const [check, setCheck] = useState<Check>({ status: "idle" });
  const [joining, setJoining] = useState(false);
  const [joinError, setJoinError] = useState<string | null>(null);
  const codeId = useId();
  const errorId = useId();

  async function preview(code: string) {
    setJoinError(null);
    if (!code) return setCheck({ status: "refused", message: t("join.enterCode") });
    setCheck({ status: "checking" });
    try {
      setCheck({ status: "ready", code, preview: await core.previewInvitation(code) });
    } catch (err) {
      setCheck({ status: "refused", message: failureText(err) });
    }
  }

  // A code from the link is looked up at once: the person only has to say yes. A typed code is
  // looked up when submitted.
  const previewRef = useRef(preview);
  previewRef.current = preview;
  useEffect(() => {
    if (initialCode) void previewRef.current(initialCode);
  }, [initialCode]);

  function submit(event: FormEvent) {
    event.preventDefault();
    void preview(normalizeInvitationCode(typed));
  }

  async function join(code: string, farmName: string) {
    setJoining(true);
    setJoinError(null);
    try {
      await core.acceptInvitation(code);
      notify.success(t("join.joined", { farm: farmName }));
      navigate("/dashboard", { replace: true });
    } catch (err) {
      setJoinError(failureText(err));
      setJoining(false);
    }
  }

  const refused = check.status === "refused" ? check.message : null;
  return (
    <>
      <form onSubmit={submit} noValidate className="space-y-3">
        <div>
          <label htmlFor={codeId} className="block text-sm font-medium text-gray-700 mb-1">
            {t("join.code")}
          </label>
          <input
            id={codeId}
            // The code in fours (29 characters) in a monospace of the body's size (a phone zooms into a
            // smaller one), set closer on a phone so that all of it shows in a 360 px wide screen's field.
            className={`${controlClass(refused !== null, { wall: false })} font-mono uppercase tracking-tighter sm:tracking-normal`}
            value={typed}
            onChange={(e) => {
              setTyped(e.target.value);
              if (check.status !== "checking") setCheck({ status: "idle" });
            }}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            // Grouped in fours with spaces (and dashes) as it may be pasted.
            maxLength={INVITATION_CODE_LENGTH * 2}
            placeholder={t("join.codePlaceholder")}
            aria-invalid={refused !== null ? true : undefined}
            aria-describedby={refused !== null ? errorId : undefined}
          />
          {refused !== null && (
            <p id={errorId} role="alert" className="mt-1 text-sm text-red-700">
              {refused}
            </p>
          )}
        </div>
        {check.status !== "ready" && (
          <button type="submit" className={`btn-secondary w-full ${touch}`} disabled={check.status === "checking"} aria-busy={check.status === "checking"}>
            {check.status === "checking" ? t("join.checking") : t("join.check")}
          </button>
        )}
      </form>

      {check.status === "ready" && (
        <section aria-label={t("join.invitation")} className="rounded-xl border border-brand-200 bg-brand-50 p-4 space-y-3">
          <p className="text-gray-900 leading-relaxed" data-invitation-preview>
            <Trans
              t={t}
              i18nKey="join.preview"
              values={{ by: check.preview.invited_by ?? t("join.someone"), farm: check.preview.farm_name, role: roleLabel(t, check.preview.role) }}
              components={{ strong: <strong /> }}
            />
          </p>
          <p className="text-sm text-gray-700">{t("join.summary", { summary: roleSummary(t, check.preview.role) })}</p>
          <p className="text-sm text-gray-600">
            <Trans t={t} i18nKey="join.expires" values={{ date: formatDateTime(check.preview.expires_at) }} components={{ time: <time dateTime={check.preview.expires_at} /> }} />
          </p>
          {joinError && (
            <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800">
              {joinError}
            </p>
          )}
          <button type="button" className={`btn-primary w-full ${touch}`} disabled={joining} aria-busy={joining} onClick={() => void join(check.code, check.preview.farm_name)}>
            {joining ? t("join.joining") : t("join.join", { farm: check.preview.farm_name })}
          </button>
        </section>
      )}
    </>
  );
}
