import { Link } from "react-router-dom";
import { AuthCard, authLinkClass } from "./auth-card.tsx";

/**
 * Reached only from Login's link; SPEC does not show this screen. Mushroom Farm sends no email,
 * so this page says how a password really gets changed instead of offering a form that does nothing.
 */
export default function ForgotPasswordPage() {
  return (
    <AuthCard title="Forgot your password?">
      <div className="space-y-4 text-gray-700 leading-relaxed">
        <p>Mushroom Farm cannot send password reset emails.</p>
        <p>
          If you are still signed in on a phone or computer, open <strong>Settings</strong>, then the <strong>Security</strong> tab, and
          choose a new password there.
        </p>
        <p>Otherwise, contact the person who runs your farm account and ask them to set a new password for you.</p>
      </div>
      <p className="mt-6 text-center">
        <Link to="/login" className={authLinkClass}>
          Back to Sign In
        </Link>
      </p>
    </AuthCard>
  );
}
