import { defineConfig } from "vitest/config";

/** CI asks for a JSON report too (VITEST_JSON), from which .ci/run prints its summary line. */
const json = process.env.VITEST_JSON;

export default defineConfig({
  test: {
    reporters: json ? ["default", "json"] : ["default"],
    outputFile: json ? { json } : undefined,
    projects: [
      {
        test: {
          name: "unit",
          environment: "node",
          include: ["server/**/*.test.ts", "src/contract/**/*.test.ts", "src/streams/**/*.test.ts", "src/worker/**/*.test.ts", "src/ui/**/*.test.ts"],
          testTimeout: 20_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          environment: "node",
          include: ["tests/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
