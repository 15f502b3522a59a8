import { cruise, type ICruiseResult, type IDependency } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * The import rules of .dependency-cruiser.mjs over src/ and server/. Through the API rather than
 * the `depcruise` command: the command refuses Node 20, which this project still runs on.
 */
describe("the import rules", () => {
  let result: ICruiseResult;
  beforeAll(async () => {
    const options = await extractDepcruiseOptions("./.dependency-cruiser.mjs");
    result = (await cruise(["src", "server"], { ...options, validate: true })).output as ICruiseResult;
  }, 60_000);

  it("hold: every import of src/ and server/ is one the rules allow", () => {
    // Some files were read at all: a rule set checking nothing would pass too.
    expect(result.summary.totalCruised).toBeGreaterThan(100);
    const violations = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
    expect(violations).toEqual([]);
  });

  /**
   * The schema library compiles its validators with `new Function` and tries it as it loads, which
   * the page's CSP refuses (a violation report on every screen that loads it): the page's code
   * imports the contract's values (`*-values.ts` and the other files without schemas), the worker
   * and the server its schemas. A rule of dependency-cruiser cannot say it (a module is allowed or
   * not by what it imports, transitively, by value), so the graph is walked here: from every
   * module of the app, through what each imports by value (lazily too: a screen's chunk runs on the
   * page all the same), never into the data core, which the page runs only where there is no Worker.
   */
  it("keep the schema library off the page: nothing the app imports by value imports arktype", () => {
    const TEST = /\.test\.tsx?$|^src\/test-support\//;
    const bySource = new Map(result.modules.map((m) => [m.source, m]));
    const byValue = (d: IDependency) => !d.dependencyTypes.some((t) => t === "type-only" || t === "type-import" || t === "pre-compilation-only");
    const isSchemaLibrary = (d: IDependency) => /^(arktype|@ark\/)/.test(d.module) || /(^|\/)node_modules\/(arktype|@ark)\//.test(d.resolved);
    const app = result.modules.filter((m) => m.source.startsWith("src/ui/") && !TEST.test(m.source)).map((m) => m.source);
    expect(app.length).toBeGreaterThan(50);
    // Each module reached, with the module that imported it, to tell the whole way of a breach.
    const from = new Map<string, string | null>(app.map((s) => [s, null]));
    const queue = [...app];
    const breaches: string[] = [];
    while (queue.length > 0) {
      const source = queue.shift()!;
      for (const d of bySource.get(source)?.dependencies ?? []) {
        if (!byValue(d)) continue;
        if (isSchemaLibrary(d)) {
          const way = [source];
          for (let at = from.get(source); at; at = from.get(at)) way.unshift(at);
          breaches.push(`${way.join(" → ")} → ${d.module}`);
        } else if (d.resolved.startsWith("src/") && !d.resolved.startsWith("src/worker/") && !from.has(d.resolved)) {
          from.set(d.resolved, source);
          queue.push(d.resolved);
        }
      }
    }
    expect(breaches).toEqual([]);
  });
});
