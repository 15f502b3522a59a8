import type { Language } from "../../contract/language-values.ts";
import type { Catalogue } from "./namespaces.ts";

const BUNDLES: Record<Language, () => Promise<{ default: Catalogue }>> = {
  en: () => import("./bundles/en.ts"),
  fr: () => import("./bundles/fr.ts"),
  ar: () => import("./bundles/ar.ts"),
};

const loading = new Map<Language, Promise<Catalogue>>();

/** A language's texts, fetched once (the page starts this before the app's own code has loaded). */
export function loadLanguage(language: Language): Promise<Catalogue> {
  let p = loading.get(language);
  if (!p) {
    p = BUNDLES[language]().then((m) => m.default);
    // A failed fetch (offline on first visit) may be tried again.
    p.catch(() => loading.delete(language));
    loading.set(language, p);
  }
  return p;
}
