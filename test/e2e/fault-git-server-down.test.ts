// Fault: the Git server goes down. The GitRepository says its fetch failed, naming the URL without the
// credentials in it; the artifact it had stays stored and served intact; the Kustomization keeps what
// it applied (a source it cannot reach is no reason to prune). Back on the same port, a new commit
// converges, and only then is what Git dropped pruned.
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GitRepository } from "../../src/api/source/git-repository.js";
import { REQUESTED_AT_ANNOTATION } from "../../src/api/meta/annotations.js";
import { eventually } from "../support/fleet-context.js";
import { type GitHttpServer, startGitHttpServer } from "../support/git-http-server.js";
import type { GitRepoHandle } from "../support/git-repository.js";
import { configMap, type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";

const PASSWORD = randomBytes(12).toString("hex");
let h: KustomizeHarness;
let git: GitHttpServer;
let repo: GitRepoHandle;

const sourcePath = () => `/apis/source.toolkit.fluxcd.io/v1/namespaces/${h.ns}/gitrepositories/app`;
const names = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `app-${from + i}`);
const files = (list: string[], v: string) =>
  Object.fromEntries(list.map((n) => [`app/${n}.yaml`, configMap(n, h.ns, { v })]));

async function configMaps(): Promise<Map<string, { uid: string; v: string }>> {
  const list = await h.mgmt.client.get<{ items: { metadata: { name: string; uid: string }; data: { v: string } }[] }>(
    `/api/v1/namespaces/${h.ns}/configmaps?labelSelector=${encodeURIComponent("kustomize.toolkit.fluxcd.io/name=app")}`,
  );
  return new Map(list.items.map((i) => [i.metadata.name, { uid: i.metadata.uid, v: i.data.v }]));
}

async function reconcileSource(): Promise<GitRepository> {
  const at = new Date().toISOString();
  await h.mgmt.client.patch(sourcePath(), "merge", { metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: at } } });
  return eventually("the GitRepository's requested reconcile", async () => {
    const gr = await h.mgmt.client.get<GitRepository>(sourcePath());
    return gr.status?.lastHandledReconcileAt === at ? gr : undefined;
  });
}

beforeAll(async () => {
  h = await startKustomizeHarness({ prefix: "gitdown" });
  git = await startGitHttpServer({ auth: { username: "fleet", password: PASSWORD } });
  repo = await git.createRepo("app");
}, 180_000);

afterAll(async () => {
  await h?.stop();
  await git?.close();
});

describe("fault: Git server down", () => {
  it("reports the fetch failure without credentials, keeps the artifact and the applied objects, and converges when back", async () => {
    const v1 = names(0, 20);
    await repo.commit(files(v1, "1"), "v1");
    const rev1 = `main@sha1:${await repo.head()}`;
    await h.mgmt.client.create(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${h.ns}/gitrepositories`, {
      apiVersion: "source.toolkit.fluxcd.io/v1",
      kind: "GitRepository",
      metadata: { name: "app", namespace: h.ns },
      spec: { url: `http://fleet:${PASSWORD}@127.0.0.1:${git.port}/app.git`, interval: "10m", ref: { branch: "main" } },
    });
    await h.createKs("app", { path: "./app", sourceRef: { kind: "GitRepository", name: "app" } });
    expect((await h.waitReady("app")).status?.lastAppliedRevision).toBe(rev1);
    const stored = (await h.mgmt.client.get<GitRepository>(sourcePath())).status!.artifact!;
    const before = await configMaps();
    expect([...before.keys()].sort()).toEqual([...v1].sort());

    // Down: a new commit (app-0 dropped, the rest changed, app-20 added) cannot be fetched.
    await git.goDown();
    await repo.commit({ ...files(names(1, 21), "2"), "app/app-0.yaml": null }, "v2");
    const rev2 = `main@sha1:${await repo.head()}`;
    const failed = await reconcileSource();
    const fetchFailed = failed.status!.conditions!.find((c) => c.type === "FetchFailed");
    expect(fetchFailed).toMatchObject({ status: "True", reason: "GitOperationFailed" });
    expect(fetchFailed!.message).toContain(`127.0.0.1:${git.port}/app.git`);
    expect(JSON.stringify(failed.status)).not.toContain(PASSWORD);
    expect(failed.status!.conditions!.find((c) => c.type === "Ready")).toMatchObject({ status: "False" });
    // The last artifact stays, and is still served with the bytes its digest names.
    expect(failed.status!.artifact).toEqual(stored);
    const served = Buffer.from(await (await fetch(stored.url)).arrayBuffer());
    expect(`sha256:${createHash("sha256").update(served).digest("hex")}`).toBe(stored.digest);

    // The Kustomization reconciles (observed) from that artifact: nothing pruned, nothing changed.
    await h.reconcileNow("app");
    const during = await h.getKs("app");
    expect(during.status?.lastAppliedRevision).toBe(rev1);
    expect(during.status?.inventory?.entries).toHaveLength(20);
    const kept = await configMaps();
    expect(kept).toEqual(before);

    // Back on the same port: the new commit converges; only now is app-0 pruned, as Git says.
    await git.comeBack();
    await reconcileSource();
    const converged = await eventually(
      "the Kustomization at the new commit",
      async () => {
        const k = await h.getKs("app");
        const ready = k.status?.conditions?.find((c) => c.type === "Ready");
        return k.status?.lastAppliedRevision === rev2 && ready?.status === "True" ? k : undefined;
      },
      120_000,
    );
    expect(converged.status!.inventory!.entries).toHaveLength(20);
    const after = await configMaps();
    expect([...after.keys()].sort()).toEqual(names(1, 21).sort());
    for (const n of names(1, 20)) expect(after.get(n)).toEqual({ uid: before.get(n)!.uid, v: "2" });
  }, 300_000);
});
