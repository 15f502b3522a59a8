/**
 * Zod, which the forms check with, compiles a faster parser with `new Function` unless told not
 * to, and probes for it as each object schema is built: the page's CSP refuses it, and every
 * screen with a form reported the violation. Set on the global zod reads its config from, before
 * any screen's schemas are built (the page's entry imports this first), without loading zod here.
 */
((globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig ??= {}).jitless = true;
