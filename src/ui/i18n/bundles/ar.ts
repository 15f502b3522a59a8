import { byNamespace } from "../namespaces.ts";

/** Every text of the app in this language, one chunk: a person downloads only their own language's. */
export default byNamespace(import.meta.glob<object>(["../../../locales/ar/*.json", "!../../../locales/ar/server.json"], { eager: true, import: "default" }));
