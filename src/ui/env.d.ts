/// <reference types="vite/client" />
interface ImportMetaEnv {
  /** The API host of SPEC §7 ({host}); empty: the page's own origin. */
  readonly VITE_API_BASE?: string;
}
