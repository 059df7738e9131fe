// `flotilla controller` SIGKILLed in the middle of applying a Kustomization, then started again:
// it converges, the inventory is exactly what Git declares, what the previous revision applied and
// Git dropped is pruned, and nothing is lost — the status of the last completed reconcile is the
// record the restarted process works from.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kustomization } from "../../src/api/kustomize/kustomization.js";
import { REQUESTED_AT_ANNOTATION } from "../../src/api/meta/annotations.js";
import { freePort } from "../../src/local/ports.js";
import { type ControllerProcess, startController } from "../support/controller-process.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { type GitHttpServer, startGitHttpServer } from "../support/git-http-server.js";
import type { GitRepoHandle } from "../support/git-repository.js";
import { configMap } from "../support/kustomize-harness.js";

const cluster = planeCluster("management");
const storage = mkdtempSync(join(tmpdir(), "flotilla-kill-apply-"));
let git: GitHttpServer;
let repo: GitRepoHandle;
let ns: string;
let storagePort: number;

const KS = "kustomize.toolkit.fluxcd.io";
const ksPath = () => `/apis/${KS}/v1/namespaces/${ns}/kustomizations/many`;
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
const name = (i: number) => `cm-${String(i).padStart(3, "0")}`;

const start = () =>
  startController({
    namespace: ns,
    shard: ns,
    storagePath: storage,
    storageAddr: `127.0.0.1:${storagePort}`,
    // A slow client (20 requests/s, burst 5) stretches a 300-object apply over many seconds, so the kill lands
    // mid-apply on any machine instead of racing a fast poll.
    extraArgs: ["--requeue-dependency", "2s", "--kube-api-qps", "20", "--kube-api-burst", "5"],
  });

async function ownedConfigMaps(): Promise<Set<string>> {
  const list = await cluster.client.get<{ items: { metadata: { name: string } }[] }>(
    `/api/v1/namespaces/${ns}/configmaps?labelSelector=${encodeURIComponent(`${KS}/name=many`)}`,
  );
  return new Set(list.items.map((i) => i.metadata.name));
}

/** Kills the controller once some, but not all, of `expected` exist: in the middle of the apply. */
async function killMidApply(c: ControllerProcess, expected: string[]): Promise<number> {
  const seen = await eventually(
    "the apply to be under way",
    async () => {
      const owned = await ownedConfigMaps();
      const n = expected.filter((e) => owned.has(e)).length;
      return n > 0 && n < expected.length ? n : undefined;
    },
    90_000,
  );
  c.child.kill("SIGKILL");
  await c.exited();
  return seen;
}

function filesFor(indices: number[], version: string): Record<string, string | null> {
  return Object.fromEntries(indices.map((i) => [`many/${name(i)}.yaml`, configMap(name(i), ns, { version })]));
}

async function waitConverged(revision: string): Promise<Kustomization> {
  return eventually(
    `the Kustomization to converge at ${revision}`,
    async () => {
      const k = await cluster.client.get<Kustomization>(ksPath());
      const ready = k.status?.conditions?.find((c) => c.type === "Ready");
      return ready?.status === "True" && k.status?.lastAppliedRevision === revision ? k : undefined;
    },
    120_000,
  );
}

beforeAll(async () => {
  ns = await testNamespace(cluster.client, "killapply");
  storagePort = await freePort();
  git = await startGitHttpServer();
  repo = await git.createRepo("many");
});

afterAll(async () => {
  // Nothing will finalize these any more; let the test namespace go.
  for (const path of [ksPath(), `/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories/many`])
    await cluster.client.patch(path, "merge", { metadata: { finalizers: null } }).catch(() => undefined);
  await git?.close();
});

describe("controller killed mid-apply", () => {
  it("converges after a restart with an exact inventory, prunes what the new revision dropped, and loses nothing", async () => {
    const v1 = range(0, 300).map(name);
    await repo.commit(filesFor(range(0, 300), "1"), "300 ConfigMaps");
    let c = start();
    const labels = { "flotilla.dev/shard": ns };
    await eventually("the CRDs", async () => {
      try {
        await cluster.client.get(`/apis/${KS}/v1/namespaces/${ns}/kustomizations`);
        return true;
      } catch {
        return false;
      }
    });
    await cluster.client.create(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories`, {
      apiVersion: "source.toolkit.fluxcd.io/v1",
      kind: "GitRepository",
      metadata: { name: "many", namespace: ns, labels },
      spec: { url: repo.url, interval: "10m", ref: { branch: "main" } },
    });
    await cluster.client.create(`/apis/${KS}/v1/namespaces/${ns}/kustomizations`, {
      apiVersion: `${KS}/v1`,
      kind: "Kustomization",
      metadata: { name: "many", namespace: ns, labels },
      spec: {
        interval: "10m",
        prune: true,
        path: "./many",
        targetNamespace: ns,
        sourceRef: { kind: "GitRepository", name: "many" },
      },
    });

    // First apply: killed part-way, before any inventory was recorded.
    const partial = await killMidApply(c, v1);
    expect(partial).toBeGreaterThan(0);
    const killed = await cluster.client.get<Kustomization>(ksPath());
    expect(killed.status?.inventory?.entries ?? []).toHaveLength(0);
    c = start();
    const rev1 = `main@sha1:${await repo.head()}`;
    let k = await waitConverged(rev1);
    expect(k.status!.inventory!.entries.map((e) => e.id).sort()).toEqual(v1.map((n) => `${ns}_${n}__ConfigMap`).sort());
    expect([...(await ownedConfigMaps())].sort()).toEqual(v1);

    // Second revision drops 0–99 and adds 300–499; killed while adding.
    const removed = Object.fromEntries(range(0, 100).map((i) => [`many/${name(i)}.yaml`, null]));
    await repo.commit({ ...removed, ...filesFor(range(300, 500), "2") }, "drop 100, add 200");
    const rev2 = `main@sha1:${await repo.head()}`;
    await cluster.client.patch(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories/many`, "merge", {
      metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: new Date().toISOString() } },
    });
    const added = range(300, 500).map(name);
    await killMidApply(c, added);
    k = await cluster.client.get<Kustomization>(ksPath());
    // The record of the last completed reconcile is intact: still revision 1's 300 objects.
    expect(k.status!.lastAppliedRevision).toBe(rev1);
    expect(k.status!.inventory!.entries).toHaveLength(300);

    c = start();
    k = await waitConverged(rev2);
    const v2 = range(100, 500).map(name);
    expect(k.status!.inventory!.entries.map((e) => e.id).sort()).toEqual(v2.map((n) => `${ns}_${n}__ConfigMap`).sort());
    expect([...(await ownedConfigMaps())].sort()).toEqual(v2);
    const sample = await cluster.client.get<{ data: Record<string, string> }>(
      `/api/v1/namespaces/${ns}/configmaps/${name(450)}`,
    );
    expect(sample.data).toEqual({ version: "2" });
  });
});
