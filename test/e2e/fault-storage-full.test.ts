// Fault: the controller's artifact storage (--storage-path) fills up. The real controller process
// stores on a 2 MiB tmpfs that the test fills to the last byte: the GitRepository says
// StorageOperationFailed with "no space left on device", the previous artifact is still served and
// matches its digest, no half-written file is left, and the Kustomization keeps what it applied.
// Once space is freed, the new commit converges.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kustomization } from "../../src/api/kustomize/kustomization.js";
import type { GitRepository } from "../../src/api/source/git-repository.js";
import { REQUESTED_AT_ANNOTATION } from "../../src/api/meta/annotations.js";
import { freePort } from "../../src/local/ports.js";
import { type ControllerProcess, startController } from "../support/controller-process.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { type GitHttpServer, startGitHttpServer } from "../support/git-http-server.js";
import type { GitRepoHandle } from "../support/git-repository.js";
import { configMap } from "../support/kustomize-harness.js";

// Mounting a tmpfs needs root (CAP_SYS_ADMIN); elsewhere the test says it is skipped and why.
const canMount = process.getuid?.() === 0;
const cluster = planeCluster("management");
const storage = mkdtempSync(join(tmpdir(), "flotilla-storage-full-"));
const filler = join(storage, "filler");
let mounted = false;
let ns: string;
let git: GitHttpServer;
let repo: GitRepoHandle;
let controller: ControllerProcess | undefined;

const SOURCE = "source.toolkit.fluxcd.io";
const KS = "kustomize.toolkit.fluxcd.io";
const grPath = () => `/apis/${SOURCE}/v1/namespaces/${ns}/gitrepositories/app`;
const ksPath = () => `/apis/${KS}/v1/namespaces/${ns}/kustomizations/app`;

/** Writes into one file until the filesystem refuses even a byte. */
function fillUp(): void {
  const fd = openSync(filler, "w");
  try {
    for (const size of [1 << 20, 1 << 14, 1 << 10, 64, 1]) {
      const chunk = Buffer.alloc(size, 1);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOSPC") throw err;
      }
    }
  } finally {
    closeSync(fd);
  }
}

const filesIn = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => !f.startsWith(".consumer-cache"));

async function requestReconcile(path: string): Promise<string> {
  const at = new Date().toISOString();
  await cluster.client.patch(path, "merge", { metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: at } } });
  return at;
}

async function owned(): Promise<Record<string, { uid: string; v: string }>> {
  const list = await cluster.client.get<{ items: { metadata: { name: string; uid: string }; data: { v: string } }[] }>(
    `/api/v1/namespaces/${ns}/configmaps?labelSelector=${encodeURIComponent(`${KS}/name=app`)}`,
  );
  return Object.fromEntries(list.items.map((i) => [i.metadata.name, { uid: i.metadata.uid, v: i.data.v }]));
}

const converged = (revision: string) =>
  eventually(
    `the Kustomization at ${revision}`,
    async () => {
      const k = await cluster.client.get<Kustomization>(ksPath());
      const ready = k.status?.conditions?.find((c) => c.type === "Ready");
      return ready?.status === "True" && k.status?.lastAppliedRevision === revision ? k : undefined;
    },
    120_000,
  );

beforeAll(async () => {
  if (!canMount) return;
  execFileSync("mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", storage]);
  mounted = true;
  ns = await testNamespace(cluster.client, "storagefull");
  git = await startGitHttpServer();
  repo = await git.createRepo("app");
});

afterAll(async () => {
  if (controller) {
    controller.child.kill("SIGKILL");
    await controller.exited();
  }
  for (const path of ns ? [ksPath(), grPath()] : [])
    await cluster.client.patch(path, "merge", { metadata: { finalizers: null } }).catch(() => undefined);
  await git?.close();
  if (mounted) execFileSync("umount", [storage]);
  rmSync(storage, { recursive: true, force: true });
});

describe.skipIf(!canMount)("fault: artifact storage full (needs root to mount a tmpfs)", () => {
  it("names the storage failure, keeps serving the previous artifact intact, leaves no partial file, and converges once space is freed", async () => {
    const cm = (v: string) => ({ "app/a.yaml": configMap("a", ns, { v }), "app/b.yaml": configMap("b", ns, { v }) });
    await repo.commit(cm("1"), "v1");
    const rev1 = `main@sha1:${await repo.head()}`;
    controller = startController({
      namespace: ns,
      shard: ns,
      storagePath: storage,
      storageAddr: `127.0.0.1:${await freePort()}`,
    });
    await eventually("the CRDs installed by the controller", async () => {
      await cluster.client.get(`/apis/${KS}/v1/namespaces/${ns}/kustomizations`);
      return true;
    });
    const labels = { "flotilla.dev/shard": ns };
    await cluster.client.create(`/apis/${SOURCE}/v1/namespaces/${ns}/gitrepositories`, {
      apiVersion: `${SOURCE}/v1`,
      kind: "GitRepository",
      metadata: { name: "app", namespace: ns, labels },
      spec: { url: repo.url, interval: "10m", ref: { branch: "main" } },
    });
    await cluster.client.create(`/apis/${KS}/v1/namespaces/${ns}/kustomizations`, {
      apiVersion: `${KS}/v1`,
      kind: "Kustomization",
      metadata: { name: "app", namespace: ns, labels },
      spec: { interval: "10m", prune: true, path: "./app", sourceRef: { kind: "GitRepository", name: "app" } },
    });
    await converged(rev1);
    const stored = (await cluster.client.get<GitRepository>(grPath())).status!.artifact!;
    const before = await owned();
    expect(Object.keys(before).sort()).toEqual(["a", "b"]);

    // Full: the next commit (b dropped, a changed) cannot be stored.
    fillUp();
    const filesBefore = filesIn(storage).sort();
    await repo.commit({ "app/a.yaml": configMap("a", ns, { v: "2" }), "app/b.yaml": null }, "v2");
    const rev2 = `main@sha1:${await repo.head()}`;
    const asked = await requestReconcile(grPath());
    const failed = await eventually("the GitRepository's failed store", async () => {
      const gr = await cluster.client.get<GitRepository>(grPath());
      return gr.status?.lastHandledReconcileAt === asked ? gr : undefined;
    });
    const storageFailed = failed.status!.conditions!.find((c) => c.type === "StorageOperationFailed");
    expect(storageFailed).toMatchObject({ status: "True", reason: "ArchiveOperationFailed" });
    expect(storageFailed!.message).toContain("no space left on device");
    expect(failed.status!.conditions!.find((c) => c.type === "Ready")).toMatchObject({
      status: "False",
      reason: "ArchiveOperationFailed",
    });
    expect(failed.status!.artifact).toEqual(stored);
    // Still served, byte for byte what its digest says; nothing half-written left behind.
    const served = Buffer.from(await (await fetch(stored.url)).arrayBuffer());
    expect(`sha256:${createHash("sha256").update(served).digest("hex")}`).toBe(stored.digest);
    expect(filesIn(storage).sort()).toEqual(filesBefore);
    expect(filesIn(storage).filter((f) => f.includes(".tmp"))).toEqual([]);

    // The Kustomization reconciles (observed) and keeps what it applied: b is not pruned.
    const ksAsked = await requestReconcile(ksPath());
    const during = await eventually("the Kustomization's requested reconcile", async () => {
      const k = await cluster.client.get<Kustomization>(ksPath());
      return k.status?.lastHandledReconcileAt === ksAsked ? k : undefined;
    });
    expect(during.status!.lastAppliedRevision).toBe(rev1);
    expect(await owned()).toEqual(before);

    // Space freed: the new commit is stored and applied; only now is b pruned, as Git says.
    rmSync(filler);
    await requestReconcile(grPath());
    await converged(rev2);
    expect(await owned()).toEqual({ a: { uid: before.a!.uid, v: "2" } });
    const gr = await cluster.client.get<GitRepository>(grPath());
    expect(gr.status!.conditions!.find((c) => c.type === "StorageOperationFailed")).toBeUndefined();
  }, 240_000);
});
