// The real `flotilla controller` process SIGKILLed while a fetch is in flight (the git server holds
// fetch responses for a few seconds), then started again on the same storage: no corrupt or partial
// artifact is ever visible, the stored artifact always matches its digest, and the GitRepository
// converges to Ready with the newest commit.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GitRepository } from "../../src/api/source/git-repository.js";
import { workBase } from "../../src/util/work-dir.js";
import { type ControllerProcess, startController } from "../support/controller-process.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { type GitHttpServer, startGitHttpServer } from "../support/git-http-server.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

const cluster = planeCluster("management");
let git: GitHttpServer;
let ns: string;
const storagePath = makeWorkDir("flotilla-crash-storage-");
const path = () => `/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories/crash`;
const get = () => cluster.client.get<GitRepository>(path());

beforeAll(async () => {
  ns = await testNamespace(cluster.client, "crash");
  git = await startGitHttpServer({ delayFetchMs: 3000 });
});
afterAll(() => git?.close());

/** Every file under the storage root, relative ("/"-separated). */
function storedFiles(dir = storagePath): string[] {
  return readdirSync(dir).flatMap((f) => {
    const full = join(dir, f);
    return statSync(full).isDirectory() ? storedFiles(full) : [relative(storagePath, full)];
  });
}

/** The status artifact is in storage and its bytes hash to its digest. */
function expectIntact(o: GitRepository) {
  const data = readFileSync(join(storagePath, o.status!.artifact!.path));
  expect(`sha256:${createHash("sha256").update(data).digest("hex")}`).toBe(o.status!.artifact!.digest);
  expect(data.length).toBe(o.status!.artifact!.size);
}

async function killMidFetch(controller: ControllerProcess) {
  await eventually("a fetch in flight", async () => git.requests.fetch > 0, 30_000);
  controller.child.kill("SIGKILL");
  await controller.exited();
  killed.push(controller.child.pid!);
}

/** Scratch directories (checkouts) the killed processes left; the next controller sweeps them. */
const killed: number[] = [];
const leftovers = () => killed.filter((pid) => existsSync(join(workBase(), String(pid))));

const start = () => startController({ namespace: ns, shard: ns, storagePath });

describe("flotilla controller killed mid-fetch", () => {
  it("controller killed mid-fetch and restarted leaves no corrupt artifact and converges", async () => {
    const repo = await git.createRepo("crash");
    const first = await repo.commit({ "a.yaml": "a: 1\n" }, "one");
    git.resetCounters();
    const a = start();
    await cluster.client.create(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories`, {
      apiVersion: "source.toolkit.fluxcd.io/v1",
      kind: "GitRepository",
      metadata: { name: "crash", namespace: ns, labels: { "flotilla.dev/shard": ns } },
      spec: { url: repo.url, interval: "10m", ref: { branch: "main" } },
    });
    await killMidFetch(a);
    expect((await get()).status?.artifact).toBeUndefined();
    expect(storedFiles()).toEqual([]);

    const b = start();
    const ready = await eventually(
      "Ready after the restart",
      async () => {
        const o = await get();
        return o.status?.artifact?.revision === `main@sha1:${first}` ? o : undefined;
      },
      60_000,
    );
    expectIntact(ready);
    expect(storedFiles()).toEqual([ready.status!.artifact!.path]);
    expect(leftovers()).toEqual([]);

    // Again with an artifact in place: a kill mid-fetch of the next commit keeps the old one intact.
    const second = await repo.commit({ "a.yaml": "a: 2\n" }, "two");
    git.resetCounters();
    await cluster.client.patch(path(), "merge", {
      metadata: { annotations: { "reconcile.fluxcd.io/requestedAt": new Date().toISOString() } },
    });
    await killMidFetch(b);
    const during = await get();
    expect(during.status!.artifact!.revision).toBe(`main@sha1:${first}`);
    expectIntact(during);

    start();
    const converged = await eventually(
      "the new commit after the second restart",
      async () => {
        const o = await get();
        const c = o.status?.conditions?.find((x) => x.type === "Ready");
        return o.status?.artifact?.revision === `main@sha1:${second}` && c?.status === "True" ? o : undefined;
      },
      60_000,
    );
    expectIntact(converged);
    const files = storedFiles();
    expect(files.some((f) => f.includes(".tmp-"))).toBe(false);
    expect(files.sort()).toEqual([ready.status!.artifact!.path, converged.status!.artifact!.path].sort());
    expect(leftovers()).toEqual([]);
  });
});
