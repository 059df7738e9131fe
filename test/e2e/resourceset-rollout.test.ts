// A ResourceSet targeting fleet Clusters staged by fleet.flotilla.dev/rollout (decision 0053), against the real
// `flotilla controller` process and the shared fleet's two tenant planes: stage "canary" is tenant1, stage
// "prod" (Manual) is tenant2. A new render reaches tenant1 while tenant2 keeps the old objects; `flotilla
// approve resourceset` opens prod; then tenant2 relabelled out of the selection keeps its objects through
// the grace period (ClusterRemovalPending says until when) and has them pruned after (Prune).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clusterCrd } from "../../src/api/fleet/cluster.js";
import type { KubeObject } from "../../src/api/meta/object.js";
import { operatorCrds } from "../../src/api/flux-crds.js";
import type { ResourceSet } from "../../src/api/operator/resourceset.js";
import { NotFoundError } from "../../src/kube/errors.js";
import { runCli } from "../support/cli.js";
import { eventually, plane, planeCluster, testNamespace } from "../support/fleet-context.js";
import { type Harness, startHarness } from "../support/harness.js";

const SHARD = "flotilla.dev/shard";
const TENANTS = ["tenant1", "tenant2"] as const;
type Tenant = (typeof TENANTS)[number];
const tenants = { tenant1: planeCluster("tenant1"), tenant2: planeCluster("tenant2") };
const stageOf: Record<Tenant, string> = { tenant1: "canary", tenant2: "prod" };
const remoteNs = {} as Record<Tenant, string>;
let h: Harness<"rs">;
let ns: string;
const rsetPath = () => `/apis/fluxcd.controlplane.io/v1/namespaces/${ns}/resourcesets/apps`;
const clusters = () => `/apis/fleet.flotilla.dev/v1alpha1/namespaces/${ns}/clusters`;

const ROLLOUT = `stages:
- name: canary
  clusterSelector: {matchLabels: {stage: canary}}
- name: prod
  clusterSelector: {matchLabels: {stage: prod}}
  approval: Manual
`;

const spec = (version: string) => ({
  inputs: [{ app: "web" }],
  resourcesTemplate: `apiVersion: v1
kind: ConfigMap
metadata:
  name: << inputs.app >>-info
  namespace: << inputs.cluster.variables.target_ns >>
data:
  version: "${version}"
`,
});

async function version(t: Tenant): Promise<string | undefined> {
  try {
    const cm = await tenants[t].client.get<{ data: Record<string, string> }>(
      `/api/v1/namespaces/${remoteNs[t]}/configmaps/web-info`,
    );
    return cm.data.version;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

const rset = () => h.mgmt.client.get<ResourceSet>(rsetPath());
const phases = (r: ResourceSet) => Object.fromEntries((r.status?.rollout?.stages ?? []).map((s) => [s.name, s.phase]));

beforeAll(async () => {
  h = await startHarness({
    namespaces: { rs: "rsroll" },
    crds: [...operatorCrds(), clusterCrd() as unknown as KubeObject],
    controller: { storagePrefix: "rsroll" },
  });
  ns = h.ns.rs;
  for (const t of TENANTS) {
    remoteNs[t] = await testNamespace(tenants[t].client, "rsroll");
    h.onCleanup(() => tenants[t].client.delete(`/api/v1/namespaces/${remoteNs[t]}`).catch(() => undefined));
    const secret = await h.copyKubeconfig(t, ns);
    await h.mgmt.client.create(clusters(), {
      apiVersion: "fleet.flotilla.dev/v1alpha1",
      kind: "Cluster",
      metadata: { name: t, namespace: ns, labels: { [SHARD]: ns, env: "prod", stage: stageOf[t] } },
      spec: { kubeConfig: { secretRef: { name: secret, key: "admin.conf" } }, variables: { target_ns: remoteNs[t] } },
    });
  }
  await h.mgmt.client.create(`/apis/fluxcd.controlplane.io/v1/namespaces/${ns}/resourcesets`, {
    apiVersion: "fluxcd.controlplane.io/v1",
    kind: "ResourceSet",
    metadata: {
      name: "apps",
      namespace: ns,
      labels: { [SHARD]: ns },
      annotations: {
        "fleet.flotilla.dev/target-clusters": "env=prod",
        "fleet.flotilla.dev/rollout": ROLLOUT,
        "fleet.flotilla.dev/on-cluster-removal": "Prune",
        "fleet.flotilla.dev/cluster-removal-grace-period": "20s",
      },
    },
    spec: spec("1"),
  });
}, 180_000);
afterAll(async () => h?.cleanup());

const approve = async () => {
  const out = await runCli([
    "approve",
    "resourceset",
    "apps",
    "-n",
    ns,
    "--kubeconfig",
    plane("management").kubeconfig,
  ]);
  expect(out.code, out.stderr).toBe(0);
};

describe("a ResourceSet staged across fleet Clusters", () => {
  it("gives a new render to the first stage while the Manual stage keeps the old objects until approved", async () => {
    // First render: canary gets it, prod waits for approval; approve it so both hold version 1.
    await eventually("prod waits for approval of the first render", async () =>
      phases(await rset()).prod === "WaitingForApproval" ? true : undefined,
    );
    expect(await version("tenant1")).toBe("1");
    expect(await version("tenant2")).toBeUndefined();
    await approve();
    await eventually("tenant2 at version 1", async () => ((await version("tenant2")) === "1" ? true : undefined));
    // The apply lands before the status that records it: wait for tenant2's inventory entry of the first render.
    const held = (r: ResourceSet) => r.status?.clusterInventories?.find((c) => c.cluster === "tenant2")?.revision;
    const first = await eventually("the first render recorded for tenant2", async () => {
      const r = await rset();
      return held(r) !== undefined && phases(r).prod === "Complete" ? r : undefined;
    });
    await h.mgmt.client.patch(rsetPath(), "merge", { spec: spec("2") });
    const waiting = await eventually("the new render waits for approval at prod", async () => {
      const r = await rset();
      const prod = r.status?.rollout?.stages.find((s) => s.name === "prod");
      return r.status?.observedGeneration === r.metadata.generation && prod?.phase === "WaitingForApproval"
        ? r
        : undefined;
    });
    expect(await version("tenant1")).toBe("2");
    // Positive evidence prod held: its inventory entry still records the first render's revision.
    expect(held(waiting)).toBe(held(first));
    expect(await version("tenant2")).toBe("1");
    const prod = waiting.status!.rollout!.stages.find((s) => s.name === "prod")!;
    expect(prod.message).toContain(`flotilla approve resourceset apps -n ${ns} --stage prod`);
    expect(waiting.status!.rollout!.stages[0]).toMatchObject({
      name: "canary",
      phase: "Complete",
      clusters: ["tenant1"],
    });

    await approve();
    await eventually("tenant2 at version 2", async () => ((await version("tenant2")) === "2" ? true : undefined));
    await eventually("both stages complete", async () => {
      const p = phases(await rset());
      return p.canary === "Complete" && p.prod === "Complete" ? true : undefined;
    });
  });

  it("keeps a leaving Cluster's objects through the grace period, said in status, then prunes them", async () => {
    await h.mgmt.client.patch(`${clusters()}/tenant2`, "merge", { metadata: { labels: { env: "staging" } } });
    const pending = await eventually("ClusterRemovalPending names tenant2", async () => {
      const c = (await rset()).status?.conditions?.find((x) => x.type === "ClusterRemovalPending");
      return c?.status === "True" ? c : undefined;
    });
    expect(pending.message).toMatch(
      /^cluster tenant2 no longer matches fleet\.flotilla\.dev\/target-clusters: its objects kept until \S+Z; then what each was given is pruned there/,
    );
    expect(await version("tenant2")).toBe("2");
    const releaseAt = Date.parse(/kept until (\S+Z)/.exec(pending.message)![1]!);
    await eventually(
      "web-info pruned from tenant2",
      async () => ((await version("tenant2")) === undefined ? true : undefined),
      120_000,
    );
    expect(Date.now()).toBeGreaterThanOrEqual(releaseAt);
    const r = await eventually("the condition gone", async () => {
      const x = await rset();
      return x.status?.conditions?.some((c) => c.type === "ClusterRemovalPending") ? undefined : x;
    });
    expect(r.status?.clusterInventories?.map((c) => c.cluster)).toEqual(["tenant1"]);
    expect(await version("tenant1")).toBe("2");
  });
});
