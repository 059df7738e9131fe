import { defineConfig } from "vitest/config";

// Benchmarks that need the TypeScript test servers run through vitest, one file at a time,
// outside `npm test` (see docs/benchmarks.md).
export default defineConfig({
  test: {
    include: ["bench/**/*.bench.test.ts"],
    testTimeout: 1_800_000,
    hookTimeout: 600_000,
    fileParallelism: false,
  },
});
