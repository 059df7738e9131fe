// `flotilla trace`, `status` and the dashboard's app page for apps whose source or chart is OCI (the apps
// of oci-apps.ts, reconciled by the real controller from the real registry): trace follows a ConfigMap to
// its Kustomization and the OCIRepository it reads, and a chart's ConfigMap to its HelmRelease and the
// chartRef OCIRepository, in flux trace's lines; status lists the apps at their OCI revisions; the
// dashboard's app page shows the OCIRepository as the app's source, Ready at its revision.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVED_KINDS } from "../../src/api/kinds.js";
import { pathOf } from "../../src/api/paths.js";
import type { OCIRepository } from "../../src/api/source/oci-repository.js";
import { appPage } from "../../src/dashboard/app-page.js";
import { FleetCache } from "../../src/fleet/status/fleet-cache.js";
import type { AppRow, ClusterGroup } from "../../src/fleet/status/fleet-view.js";
import { runCli } from "../support/cli.js";
import { plane, planeCluster } from "../support/fleet-context.js";
import { type OciApps, startOciApps } from "../support/oci-apps.js";

const mgmt = planeCluster("management");
let apps: OciApps;
let ns: string;
const cli = (...args: string[]) => runCli([...args, "--kubeconfig", plane("management").kubeconfig]);
const revisionOf = async (name: string) =>
  (await mgmt.client.get<OCIRepository>(pathOf(SERVED_KINDS.OCIRepository, ns, name))).status!.artifact!.revision;

beforeAll(async () => {
  apps = await startOciApps("inspectoci");
  ns = apps.env.ns;
}, 300_000);

afterAll(() => apps?.stop(), 180_000);

describe("trace, status and the dashboard on OCI sources", () => {
  it("trace shows a Kustomization's OCIRepository: URL, tag, revision and the artifact's origin", async () => {
    const r = await cli("trace", "configmap/info", "-n", ns);
    expect(r.code, r.stderr).toBe(0);
    const revision = await revisionOf("manifests");
    expect(revision).toMatch(/^stable@sha256:[a-f0-9]{64}$/);
    const oci = r.stdout.slice(r.stdout.lastIndexOf("---\n"));
    expect(oci).toContain(
      [
        "---",
        "OCIRepository:   manifests",
        `Namespace:       ${ns}`,
        `URL:             ${apps.reg.url}/manifests/apps`,
        "Tag:             stable",
        `Revision:        ${revision}`,
        "Origin Revision: main@sha1:stable",
        "Origin Source:   https://example.com/fleet.git",
        "Status:          Last reconciled at ",
      ].join("\n"),
    );
    expect(r.stdout).toContain(`Kustomization:   apps\n`);
  });

  it("trace shows a HelmRelease's chartRef OCIRepository after the release", async () => {
    const r = await cli("trace", "configmap/addon-web", "-n", ns);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`HelmRelease:    addon\n`);
    expect(r.stdout).toContain(
      [
        "---",
        "OCIRepository:   addon-chart",
        `Namespace:       ${ns}`,
        `URL:             ${apps.reg.url}/charts/web`,
        "Tag:             1.0.0",
        `Revision:        ${await revisionOf("addon-chart")}`,
        "Status:          Last reconciled at ",
      ].join("\n"),
    );
  });

  it("status lists the apps reading OCIRepositories at their OCI revisions, Ready", async () => {
    const r = await cli("status", "-n", ns, "-o", "json");
    expect(r.code, r.stderr).toBe(0);
    const rows = (JSON.parse(r.stdout) as { clusters: (ClusterGroup & { apps: AppRow[] })[] }).clusters.flatMap(
      (c) => c.apps,
    );
    const row = (name: string) => rows.find((a) => a.name === name);
    expect(row("apps")).toMatchObject({
      kind: "Kustomization",
      revision: await revisionOf("manifests"),
      ready: "True",
    });
    expect(row("inner")).toMatchObject({ revision: await revisionOf("inner-src"), ready: "True" });
    expect(row("addon")?.revision).toMatch(/^1\.0\.0\+[a-f0-9]{12}$/);
  });

  it("the dashboard's app page shows the OCIRepository as the source, Ready at its revision", async () => {
    const cache = await FleetCache.start(mgmt, ns);
    try {
      const ks = await appPage(cache, "Kustomization", ns, "apps");
      expect(ks?.source).toMatchObject({
        kind: "OCIRepository",
        name: "manifests",
        namespace: ns,
        revision: await revisionOf("manifests"),
        ready: "True",
      });
      const hr = await appPage(cache, "HelmRelease", ns, "addon");
      expect(hr?.source).toMatchObject({ kind: "OCIRepository", name: "addon-chart", ready: "True" });
    } finally {
      await cache.stop();
    }
  });
});
