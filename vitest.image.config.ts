import { defineConfig } from "vitest/config";

// `npm run test:image`: flotilla's container image (built first by `npm run image`, scripts/image/build.sh) run
// as the pod `flotilla install --export` describes, against a local fleet of its own (or FLOTILLA_TEST_FLEET_DIR's),
// by test/support/global-fleet.ts as the e2e lanes do. Apart from the other projects: it needs the image archive
// and root (mount namespaces, chroot), and its build takes minutes.
export default defineConfig({
  test: {
    reporters: ["default", "./test/support/summary-reporter.ts"],
    projects: [
      {
        test: {
          name: "image",
          include: ["test/image/**/*.test.ts"],
          globalSetup: ["./test/support/global-fleet.ts"],
          testTimeout: 300_000,
          hookTimeout: 300_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
