// A ResourceSet targeting fleet Clusters (decision 0048), against the real `flotilla controller` process and
// the shared fleet's tenant planes: fleet.flotilla.dev/target-clusters: env=prod selects the Clusters of
// tenant1 and tenant2 (reached through copies of their Kamaji admin kubeconfigs); each plane gets the objects
// of its own input group (inputs.cluster.*), nothing lands on the management plane; `flotilla plan` renders a
// changed ResourceSet from a local checkout and lists per cluster what it would create, change and prune,
// writing nothing; a Cluster relabelled out of the selector has what it got pruned; an unknown
// fleet.flotilla.dev annotation is refused by name.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clusterCrd } from "../../src/api/fleet/cluster.js";
import { kustomizationCrd } from "../../src/api/kustomize/kustomization.js";
import type { KubeObject } from "../../src/api/meta/object.js";
import { operatorCrds } from "../../src/api/flux-crds.js";
import type { ResourceSet } from "../../src/api/operator/resourceset.js";
import type { FleetPlan } from "../../src/fleet/plan/types.js";
import { NotFoundError } from "../../src/kube/errors.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { runCli } from "../support/cli.js";
import { eventually, plane, planeCluster, testNamespace } from "../support/fleet-context.js";
import { type Harness, startHarness } from "../support/harness.js";

const SHARD = "flotilla.dev/shard";
const TENANTS = ["tenant1", "tenant2"] as const;
type Tenant = (typeof TENANTS)[number];
const tenants = { tenant1: planeCluster("tenant1"), tenant2: planeCluster("tenant2") };
const remoteNs = {} as Record<Tenant, string>;
let h: Harness<"rs">;
let ns: string;
let work: string;
const API = "/apis/fluxcd.controlplane.io/v1/namespaces";
const rsets = () => `${API}/${ns}/resourcesets`;
const clusters = () => `/apis/fleet.flotilla.dev/v1alpha1/namespaces/${ns}/clusters`;

const template = (version: string) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: << inputs.app >>-info
  namespace: << inputs.cluster.variables.target_ns >>
data:
  cluster: << inputs.cluster.name >>
  region: << inputs.cluster.labels.region >>
  version: "${version}"
`;

const rsetSpec = (apps: string[], version: string) => ({
  inputs: apps.map((app) => ({ app })),
  resourcesTemplate: template(version),
});

// Pruned at once when a Cluster leaves (decision 0053's removal annotations; the default is Orphan after 10m).
const TARGETS = {
  "fleet.flotilla.dev/target-clusters": "env=prod",
  "fleet.flotilla.dev/on-cluster-removal": "Prune",
  "fleet.flotilla.dev/cluster-removal-grace-period": "0s",
};

const rsetObject = (name: string, annotations: Record<string, string>, spec: Record<string, unknown>) => ({
  apiVersion: "fluxcd.controlplane.io/v1",
  kind: "ResourceSet",
  metadata: { name, namespace: ns, labels: { [SHARD]: ns }, annotations },
  spec,
});

/** The ConfigMap's data on a tenant plane, or undefined when it is not there. */
async function remote(t: Tenant, name: string): Promise<Record<string, string> | undefined> {
  try {
    const cm = await tenants[t].client.get<{ data: Record<string, string> }>(
      `/api/v1/namespaces/${remoteNs[t]}/configmaps/${name}`,
    );
    return cm.data;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

const ready = (name: string, status: "True" | "False", reason?: string) =>
  eventually(
    `ResourceSet ${name} Ready=${status}${reason ? ` ${reason}` : ""}`,
    async () => {
      const r = await h.mgmt.client.get<ResourceSet>(`${rsets()}/${name}`);
      const c = r.status?.conditions?.find((x) => x.type === "Ready");
      return r.status?.observedGeneration === r.metadata.generation &&
        c?.status === status &&
        (!reason || c.reason === reason)
        ? r
        : undefined;
    },
    120_000,
  );

beforeAll(async () => {
  h = await startHarness({
    namespaces: { rs: "rsfleet" },
    crds: [...operatorCrds(), kustomizationCrd() as unknown as KubeObject, clusterCrd() as unknown as KubeObject],
    controller: { storagePrefix: "rsfleet" },
  });
  ns = h.ns.rs;
  work = makeWorkDir("flotilla-rsfleet-");
  h.onCleanup(() => rmSync(work, { recursive: true, force: true }));
  const region: Record<Tenant, string> = { tenant1: "eu-west-1", tenant2: "us-east-1" };
  for (const t of TENANTS) {
    remoteNs[t] = await testNamespace(tenants[t].client, "rsfleet");
    h.onCleanup(() => tenants[t].client.delete(`/api/v1/namespaces/${remoteNs[t]}`).catch(() => undefined));
    const secret = await h.copyKubeconfig(t, ns);
    await h.mgmt.client.create(clusters(), {
      apiVersion: "fleet.flotilla.dev/v1alpha1",
      kind: "Cluster",
      metadata: { name: t, namespace: ns, labels: { [SHARD]: ns, env: "prod", region: region[t] } },
      spec: { kubeConfig: { secretRef: { name: secret, key: "admin.conf" } }, variables: { target_ns: remoteNs[t] } },
    });
  }
  await h.mgmt.client.create(rsets(), rsetObject("apps", TARGETS, rsetSpec(["a", "b"], "1")));
}, 180_000);
afterAll(async () => h?.cleanup());

describe("a ResourceSet targeting fleet Clusters", () => {
  it("applies each selected cluster's own input group to that cluster, and nothing to the management plane", async () => {
    const r = await ready("apps", "True", "ReconciliationSucceeded");
    for (const t of TENANTS)
      for (const app of ["a", "b"])
        expect(await remote(t, `${app}-info`)).toEqual({
          cluster: t,
          region: t === "tenant1" ? "eu-west-1" : "us-east-1",
          version: "1",
        });
    expect(r.status?.inventory?.entries ?? []).toEqual([]);
    expect(r.status?.clusterInventories?.map((c) => [c.cluster, c.inventory.entries.length])).toEqual([
      ["tenant1", 2],
      ["tenant2", 2],
    ]);
    expect(r.status?.history?.[0]?.metadata).toMatchObject({ inputs: "4", resources: "4", clusters: "2" });
  });

  it("flotilla plan lists per cluster what a changed ResourceSet would create, change and prune, writing nothing", async () => {
    await h.mgmt.client.create(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories`, {
      apiVersion: "source.toolkit.fluxcd.io/v1",
      kind: "GitRepository",
      metadata: { name: "platform", namespace: ns },
      spec: { url: "http://127.0.0.1:1/unused.git", interval: "1h", ref: { branch: "main" } },
    });
    // Unsharded (the test's controller leaves it alone): the plan reads it, nothing reconciles it.
    await h.mgmt.client.create(`/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${ns}/kustomizations`, {
      apiVersion: "kustomize.toolkit.fluxcd.io/v1",
      kind: "Kustomization",
      metadata: { name: "platform", namespace: ns },
      spec: { interval: "1h", path: "./", prune: true, sourceRef: { kind: "GitRepository", name: "platform" } },
    });
    const dir = join(work, "checkout");
    mkdirSync(dir, { recursive: true });
    const changed = rsetObject("apps", TARGETS, rsetSpec(["a", "c"], "2"));
    writeFileSync(join(dir, "apps.yaml"), JSON.stringify(changed));
    const before = await h.mgmt.client.get<ResourceSet>(`${rsets()}/apps`);

    const out = await runCli(
      [
        "plan",
        "--source",
        `GitRepository/${ns}/platform=${dir}`,
        "-n",
        ns,
        "-o",
        "json",
        "--kubeconfig",
        plane("management").kubeconfig,
      ],
      { timeoutMs: 180_000 },
    );
    expect(out.code, out.stderr).toBe(1);
    const plan = JSON.parse(out.stdout) as FleetPlan;
    const rsPlans = plan.apps
      .filter((a) => a.kind === "ResourceSet")
      .sort((x, y) => x.cluster.localeCompare(y.cluster));
    expect(rsPlans.map((a) => a.cluster)).toEqual([`${ns}/tenant1`, `${ns}/tenant2`]);
    for (const [i, t] of TENANTS.entries()) {
      const a = rsPlans[i]!;
      expect(a.errors).toEqual([]);
      expect(a.create).toEqual([`ConfigMap/${remoteNs[t]}/c-info`]);
      expect(a.change.map((c) => [c.subject, c.diff.map((d) => d.path)])).toEqual([
        [`ConfigMap/${remoteNs[t]}/a-info`, ["data.version"]],
      ]);
      expect(a.prune).toEqual([`ConfigMap/${remoteNs[t]}/b-info`]);
    }
    // Nothing written: the ResourceSet and what it applied are as they were.
    const after = await h.mgmt.client.get<ResourceSet>(`${rsets()}/apps`);
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    for (const t of TENANTS) {
      expect(await remote(t, "c-info")).toBeUndefined();
      expect((await remote(t, "a-info"))?.version).toBe("1");
    }
  });

  it("prunes what a Cluster got when it is relabelled out of the selector, and keeps the others", async () => {
    await h.mgmt.client.patch(`${clusters()}/tenant2`, "merge", { metadata: { labels: { env: "staging" } } });
    await eventually(
      "a-info and b-info pruned from tenant2",
      async () =>
        (await remote("tenant2", "a-info")) === undefined && (await remote("tenant2", "b-info")) === undefined,
      120_000,
    );
    const r = await ready("apps", "True", "ReconciliationSucceeded");
    expect(r.status?.clusterInventories?.map((c) => c.cluster)).toEqual(["tenant1"]);
    expect(await remote("tenant1", "a-info")).toMatchObject({ cluster: "tenant1" });
  });

  it("refuses an unknown fleet.flotilla.dev annotation by name and applies nothing", async () => {
    await h.mgmt.client.create(
      rsets(),
      rsetObject("typo", { "fleet.flotilla.dev/target-cluster": "env=prod" }, rsetSpec(["z"], "1")),
    );
    const r = await ready("typo", "False", "UnsupportedField");
    const message = r.status?.conditions?.find((c) => c.type === "Ready")?.message ?? "";
    expect(message).toContain("fleet.flotilla.dev/target-cluster ");
    expect(message).toContain("fleet.flotilla.dev/target-clusters");
    expect(r.status?.inventory?.entries ?? []).toEqual([]);
    expect(await remote("tenant1", "z-info")).toBeUndefined();
  });
});
