/**
 * The page's entry: it starts the data core's worker first, then loads the app. Kept free of
 * static imports of the app's code, so the worker's script is fetched and evaluated while the app's
 * bundle loads and runs, not after it.
 */
import "./forms-without-eval.ts";
import "./boot-worker.ts";
import { preloadPage } from "./app/pages.ts";
import { initialChoice } from "./i18n/language-choice.ts";
import { loadLanguage } from "./i18n/load-language.ts";

// The screen's own chunk and the person's language's texts load alongside the app's.
preloadPage(location.pathname);
void loadLanguage(initialChoice(localStorage, navigator.languages).language).catch(() => {});

await import("./start.tsx");
