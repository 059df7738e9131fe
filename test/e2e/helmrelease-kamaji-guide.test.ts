// The Kamaji guide as written (only the repository URL changed to a loopback chart repository serving
// a cert-manager v1.10.1 like the guide's): its v2beta1 HelmRelease in the management plane's `tenants`
// namespace installs the chart into tenant1's `default` namespace through tenant1-admin-kubeconfig —
// a real Helm release there (`helm ls` with tenant1's admin.conf), nothing on the management plane or
// tenant2; a values change upgrades; an idle reconcile spawns no helm and writes nothing; a Deployment
// deleted by a tenant user is put back (drift detection on by default).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HelmRelease } from "../../src/api/helm/helmrelease.js";
import { AlreadyExistsError } from "../../src/kube/errors.js";
import { parseAllDocuments } from "yaml";
import type { KubeObject } from "../../src/api/meta/object.js";
import { type ChartRepo, helmEnv, runHelm, startChartRepo } from "../support/chart-repo.js";
import { certManagerLike } from "../support/charts.js";
import { kamajiGuideManifests } from "../support/kamaji-guide.js";
import { type ControllerProcess, startController } from "../support/controller-process.js";
import { adminClient, eventually, plane, planeCluster, testNamespace } from "../support/fleet-context.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

const mgmt = planeCluster("management");
const tenant1 = adminClient("tenant1");
const tenant2 = adminClient("tenant2");
const HR_PATH = "/apis/helm.toolkit.fluxcd.io/v2/namespaces/tenants/helmreleases/tenant1-cert-manager";
const RELEASE = "default-tenant1-cert-manager";
let charts: ChartRepo;
let controller: ControllerProcess;
let runtimeNs: string;

const storagePath = makeWorkDir("flotilla-hr-guide-");
const start = () =>
  startController({
    namespace: runtimeNs,
    shard: runtimeNs,
    storagePath,
  });

const deploymentsOf = (client: typeof tenant1, ns: string) =>
  client
    .get<{ items: KubeObject[] }>(
      `/apis/apps/v1/namespaces/${ns}/deployments?labelSelector=app.kubernetes.io/instance=${RELEASE}`,
    )
    .then((l) => l.items);
const hr = () => mgmt.client.get<HelmRelease>(HR_PATH);
const ready = (o: HelmRelease) => o.status?.conditions?.find((c) => c.type === "Ready");
const helmProcesses = async (c: ControllerProcess) => {
  const text = await (await fetch(`${await c.healthUrl()}/metrics`)).text();
  return text
    .split("\n")
    .filter((l) => l.startsWith("flotilla_helmrelease_helm_processes_total"))
    .reduce((n, l) => n + Number(l.split(" ").pop()), 0);
};

beforeAll(async () => {
  runtimeNs = await testNamespace(mgmt.client, "hr-guide");
  charts = await startChartRepo();
  await certManagerLike(charts);
  await mgmt.client
    .create("/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: "flux-system" } })
    .catch((err) => (err instanceof AlreadyExistsError ? undefined : Promise.reject(err)));
  controller = start();
  await controller.healthUrl();
  // The controller installs the CRDs as it starts (--install-crds): apply once they are served.
  for (const doc of parseAllDocuments(kamajiGuideManifests(charts.url, runtimeNs)))
    await eventually("the guide's object applied", () => mgmt.apply(doc.toJS() as KubeObject, "kubectl"), 60_000, 1000);
}, 120_000);

afterAll(async () => {
  await mgmt.client.delete(HR_PATH).catch(() => undefined);
  await eventually("the HelmRelease gone", async () => !(await hr().catch(() => undefined)), 120_000).catch(
    () => undefined,
  );
  controller?.child.kill("SIGTERM");
  await mgmt.client
    .delete("/apis/source.toolkit.fluxcd.io/v1/namespaces/flux-system/helmrepositories/jetstack")
    .catch(() => undefined);
  await charts?.close();
}, 180_000);

describe("the Kamaji guide's HelmRelease, as written", () => {
  it("installs cert-manager into tenant1's default namespace: the main Deployment 2/2 Available, a real helm release there", async () => {
    const released = await eventually(
      "the HelmRelease Ready",
      async () => {
        const o = await hr();
        return ready(o)?.status === "True" ? o : undefined;
      },
      180_000,
      1000,
    ).catch(async (err: Error) => {
      throw new Error(`${err.message}; status: ${JSON.stringify((await hr()).status?.conditions)}`);
    });
    expect(ready(released)!.message).toBe(
      `Helm install succeeded for release default/${RELEASE}.v1 with chart cert-manager@v1.10.1`,
    );
    expect(released.status?.storageNamespace).toBe("default");
    expect(released.status?.history?.[0]).toMatchObject({ version: 1, status: "deployed", chartVersion: "v1.10.1" });
    // Flux's inventory format: <namespace>_<name>_<group>_<kind>, the scope asked of tenant1's discovery.
    expect(released.status?.inventory?.entries.map((e) => `${e.id} ${e.v}`).sort()).toEqual(
      [
        `default_${RELEASE}_apps_Deployment v1`,
        `default_${RELEASE}-cainjector_apps_Deployment v1`,
        `default_${RELEASE}-webhook_apps_Deployment v1`,
        `default_${RELEASE}-webhook__Service v1`,
        `default_${RELEASE}__ServiceAccount v1`,
      ].sort(),
    );
    const main = await eventually(
      "the main Deployment 2/2 Available",
      async () => {
        const d = (await deploymentsOf(tenant1, "default")).find((x) => x.metadata.name === RELEASE) as
          (KubeObject & { status?: { availableReplicas?: number }; spec: { replicas: number } }) | undefined;
        return d?.status?.availableReplicas === 2 ? d : undefined;
      },
      180_000,
      1000,
    );
    expect(main.spec.replicas).toBe(2);
    expect((await deploymentsOf(tenant1, "default")).map((d) => d.metadata.name).sort()).toEqual([
      RELEASE,
      `${RELEASE}-cainjector`,
      `${RELEASE}-webhook`,
    ]);
    const dir = makeWorkDir("flotilla-helm-ls-");
    const ls = JSON.parse(
      await runHelm(["ls", "-A", "-o", "json", "--kubeconfig", plane("tenant1").kubeconfig], helmEnv(dir)),
    ) as {
      name: string;
      namespace: string;
      status: string;
      revision: string;
    }[];
    expect(ls.find((r) => r.name === RELEASE)).toMatchObject({
      namespace: "default",
      status: "deployed",
      revision: "1",
    });
    expect(await deploymentsOf(mgmt.client, "default")).toEqual([]);
    expect(await deploymentsOf(mgmt.client, "tenants")).toEqual([]);
    expect(await deploymentsOf(tenant2, "default")).toEqual([]);
  }, 400_000);

  it("upgrades to revision 2 on values.replicaCount: 3, history showing both", async () => {
    await mgmt.client.patch(HR_PATH, "merge", { spec: { values: { replicaCount: 3 } } });
    const upgraded = await eventually(
      "revision 2",
      async () => {
        const o = await hr();
        return o.status?.history?.[0]?.version === 2 && ready(o)?.status === "True" ? o : undefined;
      },
      180_000,
      1000,
    );
    expect(ready(upgraded)!.reason).toBe("UpgradeSucceeded");
    expect(upgraded.status!.history!.map((s) => [s.version, s.status])).toEqual([
      [2, "deployed"],
      [1, "superseded"],
    ]);
    await eventually("3 replicas in tenant1", async () => {
      const d = (await deploymentsOf(tenant1, "default")).find((x) => x.metadata.name === RELEASE) as
        (KubeObject & { spec: { replicas: number } }) | undefined;
      return d?.spec.replicas === 3;
    });
  }, 300_000);

  it("a reconcile where nothing changed spawns no helm process and leaves the object untouched", async () => {
    const before = (await hr()).metadata.resourceVersion;
    // A fresh controller reconciles every object once on start: positive evidence of a reconcile.
    controller.child.kill("SIGTERM");
    await controller.exited();
    controller = start();
    await eventually(
      "the restarted controller's reconcile of the HelmRelease",
      async () =>
        controller.logs.some(
          (l) => l.msg === "Reconciliation finished" && l.name === "tenant1-cert-manager" && l.kind === "HelmRelease",
        ),
      180_000,
      1000,
    );
    expect(await helmProcesses(controller)).toBe(0);
    expect((await hr()).metadata.resourceVersion).toBe(before);
  }, 300_000);

  it("puts back a Deployment a tenant user deleted in tenant1", async () => {
    await tenant1.delete(`/apis/apps/v1/namespaces/default/deployments/${RELEASE}-webhook`);
    await mgmt.client.patch(HR_PATH, "merge", {
      metadata: { annotations: { "reconcile.fluxcd.io/requestedAt": new Date().toISOString() } },
    });
    await eventually(
      "the webhook Deployment back",
      async () => (await deploymentsOf(tenant1, "default")).some((d) => d.metadata.name === `${RELEASE}-webhook`),
      180_000,
      1000,
    );
    expect(await helmProcesses(controller)).toBe(0);
  }, 300_000);
});
