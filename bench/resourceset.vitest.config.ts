import { defineConfig } from "vitest/config";

// bench/resourceset-fanout.bench.test.ts runs on a local fleet of real planes (the e2e lane's global setup:
// FLOTILLA_TEST_FLEET_DIR reuses a running one, otherwise one is started and stopped).
export default defineConfig({
  test: {
    include: ["bench/resourceset-fanout.bench.test.ts"],
    globalSetup: ["./test/support/global-fleet.ts"],
    testTimeout: 1_800_000,
    hookTimeout: 600_000,
    fileParallelism: false,
  },
});
