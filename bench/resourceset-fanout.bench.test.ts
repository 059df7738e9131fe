// Benchmark (issue 34): 100 inputs × 5 resources by a ResourceSet, beside a FleetKustomization doing the same
// fan-out — 100 Clusters (each a tenant plane of the fleet, alternating) × the same 5 ConfigMaps — in the same
// run, reconciled by one real `flotilla controller` process (sharded to the bench's namespace). Measured: from
// creating both objects to each Ready with its 500 objects on the planes; the controller's CPU seconds and
// peak RSS over the run; the load average before and after.
// usage: FLOTILLA_TEST_FLEET_DIR=/tmp/flotilla-shared-fleet npx vitest run --config bench/resourceset.vitest.config.ts
//        (FLOTILLA_BENCH_INPUTS=100; without FLOTILLA_TEST_FLEET_DIR a 2-tenant fleet is started for the run)
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, expect, it } from "vitest";
import { pathOf } from "../src/api/paths.js";
import { gvkOf, SERVED_KINDS } from "../src/api/kinds.js";
import { operatorCrds } from "../src/api/flux-crds.js";
import { kustomizationCrd } from "../src/api/kustomize/kustomization.js";
import { gitRepositoryCrd } from "../src/api/source/git-repository.js";
import type { KubeObject } from "../src/api/meta/object.js";
import { eventually, planeCluster } from "../test/support/fleet-context.js";
import { startGitHttpServer } from "../test/support/git-http-server.js";
import { type Harness, startHarness } from "../test/support/harness.js";
import { cpuSeconds, procStatus } from "./support/controller-bench.mjs";

const N = Number(process.env.FLOTILLA_BENCH_INPUTS ?? 100);
const PER = 5;
const SHARD = "flotilla.dev/shard";
const TENANTS = ["tenant1", "tenant2"];
let h: Harness<"bench">;
let ns: string;
/** The FleetKustomization's target namespace on the tenant planes: per run, so two runs never share objects. */
let TARGET: string;
let git: Awaited<ReturnType<typeof startGitHttpServer>>;
type Obj = KubeObject & { status?: { observedGeneration?: number; conditions?: { type: string; status: string }[] } };
const ready = (o: Obj) =>
  o.status?.observedGeneration === o.metadata.generation &&
  o.status?.conditions?.some((c) => c.type === "Ready" && c.status === "True");

beforeAll(async () => {
  h = await startHarness({
    namespaces: { bench: "rsbench" },
    crds: [...operatorCrds(), kustomizationCrd() as unknown as KubeObject, gitRepositoryCrd() as unknown as KubeObject],
    controller: {
      storagePrefix: "rsbench",
      serves: [gvkOf(SERVED_KINDS.Cluster), gvkOf(SERVED_KINDS.FleetKustomization)],
    },
  });
  ns = h.ns.bench;
  TARGET = `${ns}-fk`;
  git = await startGitHttpServer();
  h.onCleanup(() => git.close());
  for (const t of TENANTS) {
    await h.copyKubeconfig(t, ns);
    await planeCluster(t)
      .client.create("/api/v1/namespaces", { metadata: { name: TARGET } })
      .catch(() => undefined);
  }
  await h.mgmt.client.create("/api/v1/namespaces", { metadata: { name: `${ns}-rset` } });
  h.onCleanup(() => h.mgmt.client.delete(`/api/v1/namespaces/${ns}-rset`).catch(() => undefined));
  for (let i = 0; i < N; i++)
    await h.mgmt.client.create(pathOf(SERVED_KINDS.Cluster, ns), {
      apiVersion: "fleet.flotilla.dev/v1alpha1",
      kind: "Cluster",
      metadata: { name: `c${i}`, namespace: ns, labels: { [SHARD]: ns, bench: "rset" } },
      spec: { kubeConfig: { secretRef: { name: `${TENANTS[i % 2]}-admin-kubeconfig`, key: "admin.conf" } } },
    });
  await eventually(
    `${N} Clusters Ready`,
    async () => {
      const list = await h.mgmt.client.get<{ items: Obj[] }>(pathOf(SERVED_KINDS.Cluster, ns));
      return list.items.filter(ready).length === N;
    },
    600_000,
    1000,
  );
  const repo = await git.createRepo("bench");
  const docs = Array.from({ length: PER }, (_, j) =>
    JSON.stringify({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: `\${cluster_name}-cm${j}`, namespace: TARGET, labels: { bench: ns } },
      data: { cluster: "${cluster_name}", index: String(j) },
    }),
  );
  await repo.commit({ "app/configmaps.yaml": docs.join("\n---\n") + "\n" }, "five ConfigMaps");
  await h.mgmt.client.create(pathOf(SERVED_KINDS.GitRepository, ns), {
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: "GitRepository",
    metadata: { name: "bench", namespace: ns, labels: { [SHARD]: ns } },
    spec: { url: repo.url, interval: "10m", ref: { branch: "main" } },
  });
  await eventually(
    "GitRepository Ready",
    async () => ready(await h.mgmt.client.get<Obj>(pathOf(SERVED_KINDS.GitRepository, ns, "bench"))),
    120_000,
  );
}, 900_000);
afterAll(async () => {
  for (const t of TENANTS)
    await planeCluster(t)
      .client.delete(`/api/v1/namespaces/${TARGET}`)
      .catch(() => undefined);
  await h?.cleanup();
}, 600_000);

it(`${N} inputs × ${PER} resources: a ResourceSet beside a FleetKustomization fanning out to ${N} Clusters`, async () => {
  const pid = h.controller.child.pid!;
  const load0 = loadavg();
  const cpu0 = cpuSeconds(pid);
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, procStatus(pid, "VmRSS"))), 250);
  const t0 = performance.now();
  const done: Record<string, number> = {};
  await h.mgmt.client.create(pathOf(SERVED_KINDS.ResourceSet, ns), {
    apiVersion: "fluxcd.controlplane.io/v1",
    kind: "ResourceSet",
    metadata: { name: "bench", namespace: ns, labels: { [SHARD]: ns } },
    spec: {
      inputs: Array.from({ length: N }, (_, i) => ({ id: `c${i}` })),
      resourcesTemplate: Array.from(
        { length: PER },
        (_, j) =>
          `---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: << inputs.id >>-cm${j}\n  namespace: ${ns}-rset\ndata:\n  cluster: << inputs.id >>\n  index: "${j}"\n`,
      ).join(""),
    },
  });
  await h.mgmt.client.create(pathOf(SERVED_KINDS.FleetKustomization, ns), {
    apiVersion: "fleet.flotilla.dev/v1alpha1",
    kind: "FleetKustomization",
    metadata: { name: "bench", namespace: ns, labels: { [SHARD]: ns } },
    spec: {
      clusterSelector: { matchLabels: { bench: "rset" } },
      template: {
        metadata: { labels: { [SHARD]: ns } },
        spec: { sourceRef: { kind: "GitRepository", name: "bench" }, path: "./app", interval: "10m", prune: true },
      },
    },
  });
  const count = async (cluster: string, path: string) =>
    (await planeCluster(cluster).client.get<{ items: unknown[] }>(path)).items.length;
  await Promise.all([
    eventually(
      "ResourceSet Ready with its objects",
      async () => {
        if (done.rset) return true;
        const r = await h.mgmt.client.get<Obj>(pathOf(SERVED_KINDS.ResourceSet, ns, "bench"));
        if (!ready(r) || (await count("management", `/api/v1/namespaces/${ns}-rset/configmaps`)) < N * PER)
          return false;
        done.rset = (performance.now() - t0) / 1000;
        return true;
      },
      1_500_000,
      500,
    ),
    eventually(
      "FleetKustomization Ready with its objects on the planes",
      async () => {
        if (done.fleet) return true;
        const fk = await h.mgmt.client.get<Obj & { status?: { counts?: { ready?: number } } }>(
          pathOf(SERVED_KINDS.FleetKustomization, ns, "bench"),
        );
        if (!ready(fk) || fk.status?.counts?.ready !== N) return false;
        const q = `/api/v1/namespaces/${TARGET}/configmaps?labelSelector=bench%3D${ns}`;
        const total = (await Promise.all(TENANTS.map((t) => count(t, q)))).reduce((a, b) => a + b, 0);
        if (total < N * PER) return false;
        done.fleet = (performance.now() - t0) / 1000;
        return true;
      },
      1_500_000,
      500,
    ),
  ]);
  clearInterval(sampler);
  const cpu = cpuSeconds(pid) - cpu0;
  const load1 = loadavg();
  const fmt = (l: number[]) => l.map((x) => x.toFixed(2)).join(" ");
  const lines = [
    `bench:resourceset-fanout: ${N} inputs × ${PER} resources, one controller process, same run`,
    `  ResourceSet (${N * PER} ConfigMaps on the management plane): Ready in ${done.rset!.toFixed(1)} s`,
    `  FleetKustomization (${N} Clusters on ${TENANTS.length} tenant planes, ${N * PER} ConfigMaps): Ready in ${done.fleet!.toFixed(1)} s`,
    `  controller: ${cpu.toFixed(1)} CPU s, peak RSS ${(peakRss / 1048576).toFixed(0)} MiB`,
    `  load average before: ${fmt(load0)}; after: ${fmt(load1)}`,
  ];
  console.log(lines.join("\n"));
  expect(done.rset).toBeGreaterThan(0);
  expect(done.fleet).toBeGreaterThan(0);
});
