import { defineConfig } from "vitest/config";

// The minute-long proofs: outages, restarts and kills of the fleet's own components, timeouts and grace
// periods waited out, and files that start fleets of their own. They run as a second e2e lane
// (`npm run test:long`, the `e2e-long` project) on a fleet of their own, beside the `e2e` lane, so their waiting
// overlaps the rest of the suite and their faults (a stopped plane, a restarted etcd) never reach its tests.
export const LONG_E2E = [
  "test/e2e/fault-*.test.ts",
  "test/e2e/fair-sharing-*.test.ts",
  "test/e2e/controller-kill-mid-apply.test.ts",
  "test/e2e/notification-alerts.test.ts",
  "test/e2e/controller-crash.test.ts",
  "test/e2e/kustomization-sops.test.ts",
  "test/e2e/cli-preview-sops.test.ts",
  "test/e2e/hostile-sops-plaintext.test.ts",
  "test/e2e/helmrelease-controller-killed.test.ts",
  "test/e2e/fleet-cluster-removal.test.ts",
  "test/e2e/demo.test.ts",
  "test/e2e/fleet-kamaji-addon.test.ts",
  "test/e2e/fleet-kamaji-addon-chain-guide.test.ts",
  "test/e2e/fleet-dependson-across-kinds.test.ts",
  "test/e2e/local-cli-*.test.ts",
  // Waiting on timeouts (an unreachable plane, health checks, bake times, preflight retries): balance the lanes.
  "test/e2e/helmrelease-bad-input.test.ts",
  "test/e2e/fleet-staged-rollout.test.ts",
  "test/e2e/kustomization-spec-fields.test.ts",
  "test/e2e/controller-preflight.test.ts",
  // A d2-fleet repository through FluxInstance, ResourceSet and two tenant planes: 50–77 s on the loaded machine.
  "test/e2e/fluxinstance-d2-fleet.test.ts",
  // A controller process, a dashboard and Chromium, waiting on a refused Provider's deliveries: ~70 s loaded.
  "test/e2e/dashboard-notifications.test.ts",
  // Three controller processes (install --shards 2) started on the loaded machine: 85 s.
  "test/e2e/install-shards.test.ts",
  // Forge providers, deployment windows and a 3 s drip timeout on one controller: 60–70 s on the loaded machine.
  "test/e2e/resourceset-forge-inputs.test.ts",
  // Three controller processes (a main and two shards posting their events to it): 68 s on the loaded machine.
  "test/e2e/notification-shards.test.ts",
  // A controller, a dashboard and Chromium over ResourceSets, a FluxInstance and Notifications: ~60 s loaded.
  "test/e2e/dashboard-resourcesets.test.ts",
];
const E2E = {
  globalSetup: ["./test/support/global-fleet.ts"],
  testTimeout: 120_000,
  hookTimeout: 180_000,
  // Each lane shares one fleet; its files run one at a time on 2 cores so timing stays honest, and only
  // after the unit and parity projects (group 0) are done, so they never compete with them for the CPU.
  fileParallelism: false,
  sequence: { groupOrder: 1 },
};

// Projects: `unit` (pure logic, no processes), `parity` (native kustomize vs the real one), and two e2e
// lanes against local fleets of real control planes that test/support/global-fleet.ts starts once per lane:
// `e2e` and `e2e-long`. scripts/test.sh runs the two lanes as two processes at the same time.
export default defineConfig({
  test: {
    reporters: ["default", "./test/support/summary-reporter.ts"],
    projects: [
      {
        test: {
          name: "unit",
          sequence: { groupOrder: 0 },
          // vitest's 5 s default is a timing assertion in disguise: on 2 busy cores the CPU-heavy files (the import
          // graph of src/, 100,000-deep YAML) took 5–20 s and failed though they were right. 30 s bounds a hang.
          testTimeout: 30_000,
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
      { test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], exclude: LONG_E2E, ...E2E } },
      { test: { name: "e2e-long", include: LONG_E2E, ...E2E } },
    ],
  },
});
