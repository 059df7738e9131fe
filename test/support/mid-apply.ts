// A Kustomization of a few hundred ConfigMaps applied by the real `flotilla controller` process with a
// slow client (20 requests/s, burst 5), so an apply takes many seconds and a fault — the process
// killed, an apiserver or etcd restarted — lands in the middle of it on any machine. Shared by
// controller-kill-mid-apply and the fault-*-restart tests.
import { expect } from "vitest";
import type { Kustomization } from "../../src/api/kustomize/kustomization.js";
import { REQUESTED_AT_ANNOTATION } from "../../src/api/meta/annotations.js";
import { freePort } from "../../src/local/ports.js";
import type { ControllerProcess } from "./controller-process.js";
import { eventually, type planeCluster } from "./fleet-context.js";
import { startHarness } from "./harness.js";
import { type GitHttpServer, startGitHttpServer } from "./git-http-server.js";
import type { GitRepoHandle } from "./git-repository.js";
import { configMap } from "./kustomize-harness.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

const KS = "kustomize.toolkit.fluxcd.io";
const SOURCE = "source.toolkit.fluxcd.io";
export const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
export const cmName = (i: number) => `cm-${String(i).padStart(3, "0")}`;

/**
 * Flux's leader-election timings (35 s lease, 30 s renew deadline), for a process that must ride out
 * an apiserver or etcd outage of some seconds as a deployed controller does; the harness's short
 * timings are for hand-over tests, and would end the process (a lost lease) before the fault is over.
 */
export const FLUX_LEADER_ELECTION = [
  "--leader-election-lease-duration",
  "35s",
  "--leader-election-renew-deadline",
  "30s",
  "--leader-election-retry-period",
  "5s",
];

export interface OwnedConfigMap {
  uid: string;
  version: string;
}

export interface MidApplyScenario {
  ns: string;
  cluster: ReturnType<typeof planeCluster>;
  repo: GitRepoHandle;
  ksPath: string;
  /** Starts the real controller process (again after a kill: same storage and artifact address). */
  startController(extraArgs?: string[]): ControllerProcess;
  /** The GitRepository and Kustomization "many" (prune on), once the controller has installed the CRDs. */
  createObjects(): Promise<void>;
  /** Commits ConfigMaps `add` at `version` and deletes `drop`; asks the source to fetch; returns the revision. */
  commit(add: number[], version: string, drop?: number[]): Promise<string>;
  /** The ConfigMaps the Kustomization owns (by its labels), name → uid and data.version. */
  owned(): Promise<Map<string, OwnedConfigMap>>;
  /** How many of `names` the cluster has at `version`. */
  written(names: string[], version: string): Promise<number>;
  /** Resolves once some, but not all, of `names` have `version`: the apply is under way. */
  midApply(names: string[], version: string): Promise<number>;
  waitConverged(revision: string, timeoutMs?: number): Promise<Kustomization>;
  /** The controller's logged failures of the Kustomization "many": evidence a fault was felt. */
  failures(c: ControllerProcess): string[];
  /** The Kustomization's inventory as ConfigMap names, sorted. */
  inventoryNames(k: Kustomization): string[];
  cleanup(): Promise<void>;
}

export async function startMidApplyScenario(prefix: string): Promise<MidApplyScenario> {
  const h = await startHarness({ namespaces: { app: prefix } });
  const cluster = h.mgmt;
  const storagePath = makeWorkDir(`flotilla-${prefix}-`);
  const ns = h.ns.app;
  const storagePort = await freePort();
  const git: GitHttpServer = await startGitHttpServer();
  h.onCleanup(() => git.close());
  const repo = await git.createRepo("many");
  const ksPath = `/apis/${KS}/v1/namespaces/${ns}/kustomizations/many`;
  const sourcePath = `/apis/${SOURCE}/v1/namespaces/${ns}/gitrepositories/many`;
  // Nothing will finalize these any more once the controller is gone; let the test namespace go.
  h.onCleanup(async () => {
    for (const path of [ksPath, sourcePath])
      await cluster.client.patch(path, "merge", { metadata: { finalizers: null } }).catch(() => undefined);
  });
  const labels = { "flotilla.dev/shard": ns };

  const owned = async () => {
    const list = await cluster.client.get<{
      items: { metadata: { name: string; uid: string }; data?: Record<string, string> }[];
    }>(`/api/v1/namespaces/${ns}/configmaps?labelSelector=${encodeURIComponent(`${KS}/name=many`)}`);
    return new Map(list.items.map((i) => [i.metadata.name, { uid: i.metadata.uid, version: i.data?.version ?? "" }]));
  };

  const written = async (names: string[], version: string) => {
    const now = await owned();
    return names.filter((name) => now.get(name)?.version === version).length;
  };

  return {
    ns,
    cluster,
    repo,
    ksPath,
    owned,
    // Killed at cleanup, first, as the file's end always did (a test may have killed it already).
    startController: (extraArgs = []) =>
      h.startController({
        storagePath,
        storageAddr: `127.0.0.1:${storagePort}`,
        extraArgs: ["--requeue-dependency", "2s", "--kube-api-qps", "20", "--kube-api-burst", "5", ...extraArgs],
        stopSignal: "SIGKILL",
      }),
    async createObjects() {
      await eventually("the CRDs installed by the controller", async () => {
        await cluster.client.get(`/apis/${KS}/v1/namespaces/${ns}/kustomizations`);
        return true;
      });
      await cluster.client.create(`/apis/${SOURCE}/v1/namespaces/${ns}/gitrepositories`, {
        apiVersion: `${SOURCE}/v1`,
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
          retryInterval: "5s",
          prune: true,
          path: "./many",
          targetNamespace: ns,
          sourceRef: { kind: "GitRepository", name: "many" },
        },
      });
    },
    async commit(add, version, drop = []) {
      const files: Record<string, string | null> = {};
      for (const i of drop) files[`many/${cmName(i)}.yaml`] = null;
      for (const i of add) files[`many/${cmName(i)}.yaml`] = configMap(cmName(i), ns, { version });
      await repo.commit(files, `${add.length} ConfigMaps at version ${version}, ${drop.length} dropped`);
      // Before the first reconcile the object may not exist yet: then there is nothing to ask.
      await cluster.client
        .patch(sourcePath, "merge", {
          metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: new Date().toISOString() } },
        })
        .catch(() => undefined);
      return `main@sha1:${await repo.head()}`;
    },
    written,
    midApply: (names, version) =>
      eventually(
        `the apply of version ${version} to be under way`,
        async () => {
          const n = await written(names, version);
          return n > 0 && n < names.length ? n : undefined;
        },
        120_000,
        100,
      ),
    waitConverged: (revision, timeoutMs = 180_000) =>
      eventually(
        `the Kustomization to converge at ${revision}`,
        async () => {
          const k = await cluster.client.get<Kustomization>(ksPath);
          const ready = k.status?.conditions?.find((c) => c.type === "Ready");
          return ready?.status === "True" && k.status?.lastAppliedRevision === revision ? k : undefined;
        },
        timeoutMs,
      ),
    failures: (c) =>
      c.logs
        .filter((l) => l.level === "error" && l.kind === "Kustomization" && l.name === "many")
        .map((l) => String(l.msg)),
    inventoryNames: (k) =>
      (k.status?.inventory?.entries ?? []).map((e) => e.id.replace(/^[^_]*_([^_]*)__ConfigMap$/, "$1")).sort(),
    cleanup: () => h.cleanup(),
  };
}

/**
 * The restart faults' shared body: 200 objects converged, then version 2 (0–49 dropped, 50–199 changed,
 * 200–299 added) is committed and `fault` (which must return once the component is back) strikes in the
 * middle of its apply. Asserts the fault fell inside the apply, that the same process rode it out, and that
 * the result is exactly Git's objects with the kept ones never re-created (same uid).
 */
export async function convergesThroughFault(s: MidApplyScenario, label: string, fault: () => Promise<void>) {
  const rev1 = await s.commit(range(0, 200), "1");
  const controller = s.startController(FLUX_LEADER_ELECTION);
  await s.createObjects();
  await s.waitConverged(rev1);
  const before = await s.owned();
  expect(before.size).toBe(200);

  const rev2 = await s.commit(range(50, 300), "2", range(0, 50));
  const v2 = range(50, 300).map(cmName);
  const atFault = await s.midApply(v2, "2");
  await fault();
  // The fault fell inside the apply: it was still under way once the component was back.
  const whenBack = await s.written(v2, "2");
  expect(whenBack).toBeLessThan(v2.length);

  const k = await s.waitConverged(rev2);
  console.info(
    `${label}: ${atFault}/${v2.length} written when it began, ${whenBack} when it was over; failed applies logged: ${s.failures(controller).length}`,
  );
  // Ridden out by the same process: it never exited.
  expect(controller.child.exitCode).toBeNull();
  expect(controller.child.signalCode).toBeNull();
  expect(s.inventoryNames(k)).toEqual(v2);
  const after = await s.owned();
  expect([...after.keys()].sort()).toEqual(v2);
  expect([...after.values()].every((o) => o.version === "2")).toBe(true);
  // Kept, not deleted and re-created: same uid as before the fault.
  for (const name of range(50, 200).map(cmName)) expect(after.get(name)!.uid).toBe(before.get(name)!.uid);
}
