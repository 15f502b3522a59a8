/**
 * The app's texts come in namespaces, one per part of the app (a feature folder's texts are in the
 * namespace of its name; what many share is in `common`), each a JSON file per language under
 * src/locales. `server` holds what the server writes (pushes, notifications) and is not the app's.
 */
export const UI_NAMESPACES = [
  "common",
  "auth",
  "dashboard",
  "farms",
  "mcu",
  "controllers",
  "sensors",
  "profiles",
  "settings",
  "alarms",
  "history",
  "recipes",
  "batches",
  "team",
  "wall",
  "pwa",
  "forms",
  "errors",
] as const;
export type UiNamespace = (typeof UI_NAMESPACES)[number];

export type Catalogue = Partial<Record<UiNamespace, object>>;

/** A language's files by namespace, from their paths (`…/locales/ar/farms.json` is `farms`). */
export function byNamespace(files: Record<string, object>): Catalogue {
  const catalogue: Record<string, object> = {};
  for (const [path, texts] of Object.entries(files)) catalogue[path.slice(path.lastIndexOf("/") + 1, -".json".length)] = texts;
  return catalogue;
}
