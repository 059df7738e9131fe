// GitRepository end to end: a real git smart-HTTP server on loopback, a real apiserver, our
// controller in-process with an artifact server.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GitRepository, gitRepositoryCrd } from "../../src/api/source/git-repository.js";
import { GitRepositoryReconciler } from "../../src/controllers/gitrepository/reconciler.js";
import type { KubeObject } from "../../src/api/meta/object.js";
import { Controller } from "../../src/runtime/controller.js";
import { REQUESTED_AT_ANNOTATION } from "../../src/api/meta/annotations.js";
import { EventRecorder } from "../../src/runtime/events.js";
import { createLogger } from "../../src/runtime/logger.js";
import { startArtifactServer } from "../../src/sources/artifact/server.js";
import { Storage } from "../../src/sources/artifact/storage.js";
import { readTarball } from "../../src/sources/artifact/tarball.js";
import { ArtifactNotReadyError, SourceFetcher, SourceNotFoundError } from "../../src/sources/consumer.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { type GitHttpServer, startGitHttpServer } from "../support/git-http-server.js";
import { type GitSshServer, startGitSshServer } from "../support/git-ssh-server.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

const cluster = planeCluster("management");
const log = createLogger({ level: "error", write: () => {} });
const KIND = { group: "source.toolkit.fluxcd.io", version: "v1", kind: "GitRepository" };
let git: GitHttpServer;
let authGit: GitHttpServer;
let ssh: GitSshServer;
let ns: string;
let controller: Controller;
let artifacts: Awaited<ReturnType<typeof startArtifactServer>>;

const path = (name: string) => `/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories/${name}`;
const get = (name: string) => cluster.client.get<GitRepository>(path(name));
const ready = (o: GitRepository) => o.status?.conditions?.find((c) => c.type === "Ready");

async function create(name: string, spec: Record<string, unknown>): Promise<void> {
  await cluster.client.create(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories`, {
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: "GitRepository",
    metadata: { name, namespace: ns },
    spec: { interval: "10m", ...spec },
  });
}

async function requestReconcile(name: string): Promise<string> {
  const at = new Date().toISOString();
  await cluster.client.patch(path(name), "merge", { metadata: { annotations: { [REQUESTED_AT_ANNOTATION]: at } } });
  return at;
}

beforeAll(async () => {
  await cluster.apply(gitRepositoryCrd() as unknown as KubeObject, "flotilla-test", { force: true });
  await eventually(
    "the GitRepository CRD to be served",
    async () => (await cluster.discovery.waitForMapping(KIND, 1000), true),
  );
  git = await startGitHttpServer();
  authGit = await startGitHttpServer({ auth: { username: "flux", password: "s3cret-pass" } });
  ssh = await startGitSshServer();
  ns = await testNamespace(cluster.client, "gitrepo");
  const storage = new Storage(makeWorkDir("flotilla-storage-"), "http://127.0.0.1:0");
  artifacts = await startArtifactServer(storage, "127.0.0.1", 0);
  (storage as { baseUrl: string }).baseUrl = artifacts.url;
  const reconciler = new GitRepositoryReconciler(
    cluster,
    storage,
    new EventRecorder(cluster.client, "source-controller", log),
  );
  controller = new Controller({
    name: "gitrepository",
    kind: KIND,
    cluster,
    reconciler,
    log,
    namespace: ns,
    concurrency: 2,
  });
  await controller.start();
});

afterAll(async () => {
  await controller?.stop();
  await Promise.all([git?.close(), authGit?.close(), ssh?.close(), artifacts?.close()]);
});

describe("GitRepository", () => {
  it("stores an artifact of the branch head in Flux's revision format, without excluded files, served over HTTP", async () => {
    const repo = await git.createRepo("app");
    const sha = await repo.commit(
      {
        "deploy/app.yaml": "kind: ConfigMap\n",
        ".github/workflows/ci.yml": "on: push\n",
        "logo.png": "png",
        "README.md": "hi\n",
      },
      "first commit",
    );
    await create("app", { url: repo.url, ref: { branch: "main" } });
    const obj = await eventually("Ready", async () => {
      const o = await get("app");
      return ready(o)?.status === "True" ? o : undefined;
    });
    expect(obj.status!.artifact!.revision).toBe(`main@sha1:${sha}`);
    expect(ready(obj)!.message).toBe(`stored artifact for revision 'main@sha1:${sha}'`);
    expect(obj.status!.artifact!.path).toBe(`gitrepository/${ns}/app/${sha}.tar.gz`);
    const res = await fetch(obj.status!.artifact!.url);
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.length).toBe(obj.status!.artifact!.size);
    const files = readTarball(body)
      .filter((e) => e.type === "file")
      .map((e) => e.path);
    expect(files).toEqual(["README.md", "deploy/app.yaml"]);
  });

  it("picks up a new commit, and fetches nothing when ls-remote shows no change", async () => {
    const repo = await git.createRepo("moving");
    await repo.commit({ "a.yaml": "a: 1\n" }, "one");
    await create("moving", { url: repo.url, ref: { branch: "main" }, interval: "2s" });
    await eventually("Ready", async () => ready(await get("moving"))?.status === "True");

    const second = await repo.commit({ "a.yaml": "a: 2\n" }, "two");
    await eventually(
      "the new revision within one interval",
      async () => (await get("moving")).status?.artifact?.revision === `main@sha1:${second}`,
      15_000,
    );

    git.resetCounters();
    const at = await requestReconcile("moving");
    await eventually(
      "the requested reconcile",
      async () => (await get("moving")).status?.lastHandledReconcileAt === at,
    );
    expect(git.requests.fetch).toBe(0);
    expect(git.requests.lsRefs + git.requests.infoRefs).toBeGreaterThan(0);
  });

  it("reports a missing branch naming the ref, and recovers on request once the branch exists", async () => {
    const repo = await git.createRepo("late");
    await repo.commit({ "a.yaml": "a: 1\n" }, "one");
    await create("late", { url: repo.url, ref: { branch: "release" } });
    const failed = await eventually("Ready=False", async () => {
      const c = ready(await get("late"));
      return c?.status === "False" ? c : undefined;
    });
    expect(failed.reason).toBe("GitOperationFailed");
    expect(failed.message).toBe(
      `failed to checkout and determine revision: unable to clone '${repo.url}': couldn't find remote ref "refs/heads/release"`,
    );

    const sha = await repo.commit({ "a.yaml": "a: 2\n" }, "release", { branch: "release" });
    await requestReconcile("late");
    await eventually(
      "recovery without waiting for the interval",
      async () => (await get("late")).status?.artifact?.revision === `release@sha1:${sha}`,
      10_000,
    );
  });

  it("reports wrong credentials as AuthenticationFailed and never shows credentials from the URL", async () => {
    const repo = await authGit.createRepo("private");
    await repo.commit({ "a.yaml": "a: 1\n" }, "one");
    await cluster.client.create(`/api/v1/namespaces/${ns}/secrets`, {
      metadata: { name: "wrong" },
      stringData: { username: "flux", password: "not-the-password" },
    });
    await create("wrong-creds", { url: repo.url, secretRef: { name: "wrong" } });
    const failed = await eventually("Ready=False", async () => {
      const c = ready(await get("wrong-creds"));
      return c?.status === "False" ? c : undefined;
    });
    expect(failed.reason).toBe("AuthenticationFailed");

    const withCreds = repo.url.replace("http://", "http://flux:s3cret-pass@");
    await create("url-creds", { url: withCreds, ref: { branch: "does-not-exist" } });
    await eventually("Ready=False", async () => ready(await get("url-creds"))?.status === "False");
    const status = JSON.stringify((await get("url-creds")).status);
    const events = JSON.stringify(await cluster.client.get(`/api/v1/namespaces/${ns}/events`));
    expect(status).toContain("http://***@127.0.0.1");
    expect(status).not.toContain("s3cret-pass");
    expect(events).not.toContain("s3cret-pass");

    // With the right credentials in the URL, it works (they are sent as a header, not in argv).
    await create("url-creds-ok", { url: withCreds, ref: { branch: "main" } });
    await eventually("Ready", async () => ready(await get("url-creds-ok"))?.status === "True");
  });

  it("fetches over SSH with the identity and known_hosts from the secret, and refuses an unknown host key", async () => {
    const repo = await ssh.createRepo("over-ssh");
    const sha = await repo.commit({ "a.yaml": "a: 1\n" }, "one");
    await cluster.client.create(`/api/v1/namespaces/${ns}/secrets`, {
      metadata: { name: "ssh-key" },
      stringData: { identity: ssh.clientKey.privateKeyPem, known_hosts: ssh.knownHostsLine },
    });
    await create("over-ssh", { url: repo.url, ref: { branch: "main" }, secretRef: { name: "ssh-key" } });
    await eventually(
      "Ready over ssh",
      async () => (await get("over-ssh")).status?.artifact?.revision === `main@sha1:${sha}`,
    );

    const otherHost = ssh.knownHostsLine.replace(
      /ssh-ed25519 \S+/,
      "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBn4Q2o8QyC6w2j0iPv3dQy8m0qK4U6Jv1Hf6Yk5u5o7",
    );
    await cluster.client.create(`/api/v1/namespaces/${ns}/secrets`, {
      metadata: { name: "ssh-wrong-host" },
      stringData: { identity: ssh.clientKey.privateKeyPem, known_hosts: otherHost },
    });
    await create("ssh-wrong-host", { url: repo.url, secretRef: { name: "ssh-wrong-host" } });
    const failed = await eventually("Ready=False", async () => {
      const c = ready(await get("ssh-wrong-host"));
      return c?.status === "False" ? c : undefined;
    });
    expect(failed.reason).toBe("AuthenticationFailed");
  });

  it("never serves a half-written artifact: an interrupted write is ignored and cleaned up", async () => {
    const repo = await git.createRepo("crash");
    const sha = await repo.commit({ "a.yaml": "a: 1\n" }, "one");
    // A controller killed mid-write leaves only a temporary file next to where the artifact goes.
    const dir = `gitrepository/${ns}/crash`;
    const { mkdirSync, writeFileSync, existsSync, readdirSync } = await import("node:fs");
    await create("crash", { url: repo.url, ref: { branch: "main" } });
    const obj = await eventually("Ready", async () => {
      const o = await get("crash");
      return o.status?.artifact ? o : undefined;
    });
    const root = (controller.options.reconciler as GitRepositoryReconciler).storage.root;
    mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, dir, `${"0".repeat(40)}.tar.gz.tmp-dead`), "partial");
    expect((await fetch(`${artifacts.url}/${dir}/${"0".repeat(40)}.tar.gz.tmp-dead`)).status).toBe(404);
    const second = await repo.commit({ "a.yaml": "a: 2\n" }, "two");
    await requestReconcile("crash");
    await eventually(
      "the next artifact",
      async () => (await get("crash")).status?.artifact?.revision === `main@sha1:${second}`,
    );
    expect(readdirSync(join(root, dir)).some((f) => f.includes(".tmp-"))).toBe(false);
    expect(existsSync(join(root, obj.status!.artifact!.path))).toBe(true); // previous kept (retention 2)
    expect(sha).not.toBe(second);
  });

  it("lets consumers fetch, verify and unpack a source's artifact, with distinct errors for missing sources and artifacts", async () => {
    const fetcher = new SourceFetcher(cluster.client, makeWorkDir("flotilla-consumer-"));
    const fetched = await fetcher.fetch({ kind: "GitRepository", name: "app" }, ns);
    const { readFileSync } = await import("node:fs");
    expect(readFileSync(join(fetched.dir, "deploy/app.yaml"), "utf8")).toBe("kind: ConfigMap\n");
    expect((await fetcher.fetch({ kind: "GitRepository", name: "app" }, ns)).dir).toBe(fetched.dir); // cached by digest
    await expect(fetcher.fetch({ kind: "GitRepository", name: "nope" }, ns)).rejects.toBeInstanceOf(
      SourceNotFoundError,
    );
    await cluster.client.create(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories`, {
      apiVersion: "source.toolkit.fluxcd.io/v1",
      kind: "GitRepository",
      metadata: { name: "no-artifact-yet", namespace: ns },
      spec: { interval: "10m", url: "http://127.0.0.1:1/none.git", suspend: true },
    });
    await expect(fetcher.fetch({ kind: "GitRepository", name: "no-artifact-yet" }, ns)).rejects.toBeInstanceOf(
      ArtifactNotReadyError,
    );
  });

  it("accepts a manifest written for source.toolkit.fluxcd.io/v1beta2 as is", async () => {
    await cluster.client.create(`/apis/source.toolkit.fluxcd.io/v1beta2/namespaces/${ns}/gitrepositories`, {
      apiVersion: "source.toolkit.fluxcd.io/v1beta2",
      kind: "GitRepository",
      metadata: { name: "old-docs", namespace: ns },
      spec: {
        interval: "1m",
        url: (await git.createRepo("old")).url,
        ref: { branch: "main" },
        gitImplementation: "go-git",
        timeout: "60s",
      },
    });
    const v1 = await get("old-docs");
    expect(v1.spec.url).toContain("/old.git");
  });
});
