// A HelmRelease whose spec.releaseName helm's CLI would read as a flag ("--generate-name" installs a
// release under a name the controller never tracks) or that helm refuses: through the real controller,
// it is Stalled before any helm process runs, with a message naming the field and Helm's rule; nothing
// is stored in Helm's storage under any name; a healthy release on the same controller is still served.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { benchChart } from "../support/charts.js";
import { eventually, planeCluster } from "../support/fleet-context.js";
import { condOf, type HelmReleaseEnv, startHelmReleaseEnv } from "../support/helmrelease-env.js";

const mgmt = planeCluster("management");
let env: HelmReleaseEnv;

/** Positive evidence that the controller still works: a requested reconcile of the healthy release handled, Ready. */
async function healthyStillReconciled(): Promise<void> {
  expect(condOf(await env.requestReconcile("healthy"), "Ready")?.status).toBe("True");
}

beforeAll(async () => {
  env = await startHelmReleaseEnv("hr-name-flag");
  await benchChart(env.charts);
  await env.createRelease("healthy", { name: "bench", version: "1.0.0" });
  await env.waitReady("healthy");
}, 420_000);
afterAll(() => env?.stop());

describe("a HelmRelease's release name helm must not be handed", () => {
  it.each([
    ["flag", "--generate-name"],
    ["refused", "Web_App"],
  ])(
    "(%s: %s) is Stalled naming spec.releaseName; nothing is installed under any name",
    async (object, name) => {
      await env.createRelease(object, { name: "bench", version: "1.0.0" }, { releaseName: name });
      const o = await env.waitReady(object, "False");
      const ready = condOf(o, "Ready")!;
      expect(ready.reason).toBe("InvalidReleaseName");
      expect(ready.message).toBe(
        `HelmRelease ${env.ns}/${object}: spec.releaseName ${JSON.stringify(name)} is not a valid Helm release name: ` +
          "at most 53 lowercase letters, digits, '-' and '.', starting and ending with a letter or digit; " +
          "set spec.releaseName to such a name",
      );
      expect(condOf(o, "Stalled")?.status).toBe("True");
      // Helm's storage holds the healthy release only: no release under a name helm made up.
      const stored = await mgmt.client.get<{ items: { metadata: { labels: Record<string, string> } }[] }>(
        `/api/v1/namespaces/${env.ns}/secrets`,
        { labelSelector: "owner=helm" },
      );
      expect(new Set(stored.items.map((s) => s.metadata.labels.name))).toEqual(new Set(["healthy"]));
      await healthyStillReconciled();
    },
    240_000,
  );

  it("is deleted without running helm: nothing was installed under it", async () => {
    await mgmt.client.delete(env.hrPath("flag"));
    await eventually(
      "the HelmRelease with a flag for a name deleted",
      () =>
        env.hr("flag").then(
          () => undefined,
          () => true,
        ),
      60_000,
      1000,
    );
    await healthyStillReconciled();
  }, 120_000);
});
