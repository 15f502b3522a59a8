/**
 * Which of our folders may import which: dependency-cruiser's rules, checked by
 * tests/boundaries.test.ts (and so by `npm test`) over src/ and server/.
 *
 * The rules hold for product code. Tests (`*.test.ts(x)`) and the test-only folders
 * (src/test-support/, server/test-support/, tests/) may reach across layers to set up what they
 * test; product code may not import them.
 */

/** Test code: tests beside their files and the test-only folders. */
const TEST = String.raw`\.test\.tsx?$|^(src|server)/test-support/|^tests/|^bench/`;

/** @type {import("dependency-cruiser").IConfiguration} */
export default {
  forbidden: [
    {
      name: "contract-is-self-contained",
      comment: "src/contract is shared by the server, the worker and the app: it imports nothing of ours outside itself (packages it may).",
      severity: "error",
      from: { path: "^src/contract/", pathNot: TEST },
      to: { dependencyTypes: ["local"], pathNot: "^src/contract/" },
    },
    {
      name: "streams-are-pure",
      comment: "src/streams runs in the worker and in tests under Node: no worker, app (DOM) or React code.",
      severity: "error",
      from: { path: "^src/streams/", pathNot: TEST },
      to: { path: String.raw`^src/(worker|ui)/|(^|/)node_modules/(react|react-dom)/|^(react|react-dom)(/|$)` },
    },
    {
      name: "app-knows-the-worker-by-type",
      comment: "The app talks to the data core through Comlink: it imports only the worker's types (import type).",
      severity: "error",
      from: { path: "^src/ui/", pathNot: `${TEST}|^src/ui/data/core-client\\.ts$` },
      to: { path: "^src/worker/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "core-client-loads-the-core-lazily",
      comment:
        "Where Workers are unavailable core-client.ts runs the core in the page: it may load src/worker/core.ts, lazily " +
        "(import()) so that it stays out of the main bundle, and otherwise only the worker's types. (dependency-cruiser " +
        "keeps one dependency per specifier and type-only-ness: a static import of core.ts must stay above the import() to be seen.)",
      severity: "error",
      from: { path: String.raw`^src/ui/data/core-client\.ts$` },
      to: { path: "^src/worker/", dependencyTypesNot: ["type-only", "dynamic-import"] },
    },
    {
      name: "core-client-loads-only-the-core",
      comment: "The in-page fallback loads the core's entry (src/worker/core.ts), nothing else of the worker.",
      severity: "error",
      from: { path: String.raw`^src/ui/data/core-client\.ts$` },
      to: { path: "^src/worker/", pathNot: String.raw`^src/worker/core\.ts$`, dependencyTypes: ["dynamic-import"] },
    },
    {
      name: "features-are-independent",
      comment: "A feature under src/ui/features/<a> does not import another feature; what two share lives outside features/.",
      severity: "error",
      from: { path: "^src/ui/features/([^/]+)/", pathNot: TEST },
      to: { path: "^src/ui/features/", pathNot: "^src/ui/features/$1/" },
    },
    {
      name: "server-is-not-the-app",
      comment: "The server shares src/contract with the app, nothing of the app or the worker.",
      severity: "error",
      from: { path: "^server/", pathNot: TEST },
      to: { path: "^src/(ui|worker)/" },
    },
    {
      name: "socket-io-client-only-in-the-worker",
      comment: "The socket lives in the data core: the rest of src/ reaches the server through it.",
      severity: "error",
      from: { path: "^src/", pathNot: `${TEST}|^src/worker/` },
      to: { path: String.raw`(^|/)node_modules/socket\.io-client/|^socket\.io-client(/|$)` },
    },
    {
      name: "product-code-imports-no-tests",
      comment: "Test helpers and fixtures live in test-only folders; product code never needs them.",
      severity: "error",
      from: { path: "^(src|server)/", pathNot: TEST },
      to: { path: TEST },
    },
  ],
  options: {
    // TypeScript 7 ships no compiler API for dependency-cruiser's default parser; swc reads .ts and .tsx.
    parser: "swc",
    // Type-only imports count too (the app's `import type` of the worker is told apart by them).
    tsPreCompilationDeps: true,
    doNotFollow: { path: "node_modules" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
      extensions: [".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".json"],
    },
  },
};
