import { defineConfig } from "vitest/config";

// Two projects: `unit` (pure logic, no processes) and `e2e` (against one local fleet of real
// control planes that test/support/global-fleet.ts starts once for the whole run).
export default defineConfig({
  test: {
    reporters: ["default", "./test/support/summary-reporter.ts"],
    projects: [
      {
        test: {
          name: "unit",
          sequence: { groupOrder: 0 },
          include: ["src/**/*.test.ts", "test/unit/**/*.test.ts"],
        },
      },
      {
        test: {
          name: "parity",
          sequence: { groupOrder: 0 },
          include: ["test/parity/**/*.test.ts"],
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          globalSetup: ["./test/support/global-fleet.ts"],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // The fleet is shared; files run one at a time on 2 cores so timing stays honest, and only after
          // the unit and parity projects (group 0) are done, so they never compete with them for the CPU.
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
