/**
 * The page's entry: it starts the data core's worker first, then loads the app. Kept free of
 * static imports of the app's code, so the worker's script is fetched and evaluated while the app's
 * bundle loads and runs, not after it.
 */
import "./boot-worker.ts";
import { preloadPage } from "./app/pages.ts";

// The screen's own chunk loads alongside the app's.
preloadPage(location.pathname);

await import("./start.tsx");
