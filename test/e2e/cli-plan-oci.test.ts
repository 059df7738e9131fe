// `flotilla plan` for apps whose source or chart is OCI, against the real registry and the real
// `flotilla controller` (sharded to this file's namespace): a Kustomization reading an OCIRepository
// whose artifact holds a ConfigMap, a HelmRelease of a chart in an OCI HelmRepository, a HelmRelease whose
// chartRef is an OCIRepository and a Kustomization reading another OCIRepository. A local directory
// replacing the first OCIRepository plans each app it renders: the apps reading the other OCIRepositories
// from their current artifacts, the chart version bump pulled from the registry by the OCI client.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FleetPlan } from "../../src/fleet/plan/types.js";
import { runCli } from "../support/cli.js";
import { plane, planeCluster } from "../support/fleet-context.js";
import { type OciApps, ociAppFiles, startOciApps, writeDir } from "../support/oci-apps.js";

const mgmt = planeCluster("management");
let apps: OciApps;
let ns: string;

const plan = (...args: string[]) =>
  runCli(["plan", "-n", ns, "-o", "json", ...args, "--kubeconfig", plane("management").kubeconfig], {
    timeoutMs: 180_000,
  });
const appOf = (p: FleetPlan, name: string) => {
  const a = p.apps.find((x) => x.name === name);
  if (!a) throw new Error(`no plan for ${name} in ${JSON.stringify(p.apps.map((x) => x.name))}`);
  return a;
};

beforeAll(async () => {
  apps = await startOciApps("planoci");
  ns = apps.env.ns;
}, 300_000);

afterAll(() => apps?.stop(), 180_000);

describe("flotilla plan with OCI sources and charts", () => {
  it("the OCIRepository replaced by the same files: its reader planned with no change, the unchanged apps it applies not followed", async () => {
    const r = await plan("--source", `OCIRepository/${ns}/manifests=${writeDir(ociAppFiles(ns, "blue", "1.0.0"))}`);
    expect(r.code, r.stderr).toBe(0);
    const p = JSON.parse(r.stdout) as FleetPlan;
    expect(p.apps.map((a) => [a.kind, a.name, a.errors, a.change])).toEqual([["Kustomization", "apps", [], []]]);
  });

  it("a changed directory: the ConfigMap's diff, the chart bump pulled from the OCI registry, a chartRef and an OCI Kustomization re-rendered", async () => {
    const dir = writeDir(ociAppFiles(ns, "green", "1.1.0", "three", "yellow"));
    const r = await plan("--source", `OCIRepository/${ns}/manifests=${dir}`);
    expect(r.code, r.stderr).toBe(1);
    const p = JSON.parse(r.stdout) as FleetPlan;
    expect(appOf(p, "apps").change).toContainEqual({
      subject: `ConfigMap/${ns}/info`,
      diff: [{ path: "data.color", before: "blue", after: "green" }],
    });
    const web = appOf(p, "web");
    expect(web.errors).toEqual([]);
    expect(web.change).toEqual([
      {
        subject: `ConfigMap/${ns}/web-web`,
        diff: [
          { path: "data.chart", before: "web-1.0.0", after: "web-1.1.0" },
          { path: "data.message", before: "one", after: "two" },
        ],
      },
    ]);
    // Rendered from the chartRef OCIRepository's current artifact (web 1.0.0) with the new values.
    expect(appOf(p, "addon").change).toEqual([
      { subject: `ConfigMap/${ns}/addon-web`, diff: [{ path: "data.message", before: "one", after: "three" }] },
    ]);
    // Rendered from inner-src's current artifact with the new substitute.
    expect(appOf(p, "inner").change).toEqual([
      { subject: `ConfigMap/${ns}/inner-info`, diff: [{ path: "data.color", before: "red", after: "yellow" }] },
    ]);
    // Nothing was applied: the live ConfigMap still says blue.
    const cm = await mgmt.client.get<{ data: Record<string, string> }>(`/api/v1/namespaces/${ns}/configmaps/info`);
    expect(cm.data.color).toBe("blue");
  });
});
