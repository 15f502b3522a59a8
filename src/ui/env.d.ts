/// <reference types="vite/client" />
interface ImportMetaEnv {
  /** The API host of SPEC §7 ({host}); empty: the page's own origin. */
  readonly VITE_API_BASE?: string;
  /** Firebase's public web app config as JSON; with the VAPID key it turns push on. */
  readonly VITE_FIREBASE_CONFIG?: string;
  readonly VITE_FIREBASE_VAPID_KEY?: string;
}
