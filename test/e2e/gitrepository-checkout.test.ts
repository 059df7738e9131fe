// How a GitRepository is checked out, against real git servers on loopback: submodules (same
// credentials, same server only, file:// refused), sparse checkout, refs by name, and an HTTP proxy
// from spec.proxySecretRef.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GitRepository } from "../../src/api/source/git-repository.js";
import { planeCluster, testNamespace } from "../support/fleet-context.js";
import { type GitHttpServer, startGitHttpServer } from "../support/git-http-server.js";
import { type HttpProxy, startHttpProxy } from "../support/http-proxy.js";
import { artifactFiles, type SourceControllers, startSourceControllers } from "../support/source-controllers.js";

const cluster = planeCluster("management");
const GR = "gitrepositories";
const CREDS = { username: "flux", password: "sub-module-pass" };
let git: GitHttpServer;
let other: GitHttpServer;
let proxy: HttpProxy;
let sc: SourceControllers;
let ns: string;

const condition = (o: GitRepository, type: string) => o.status?.conditions?.find((c) => c.type === type);
const gitmodules = (url: string) => `[submodule "sub"]\n\tpath = sub\n\turl = ${url}\n`;

async function secret(name: string, stringData: Record<string, string>) {
  await cluster.client.create(`/api/v1/namespaces/${ns}/secrets`, { metadata: { name }, stringData });
}

beforeAll(async () => {
  ns = await testNamespace(cluster.client, "checkout");
  git = await startGitHttpServer({ auth: CREDS });
  other = await startGitHttpServer({ auth: CREDS });
  proxy = await startHttpProxy({ auth: { username: "p", password: "proxy-pass" } });
  sc = await startSourceControllers(cluster, ns);
  await secret("creds", CREDS);
});

afterAll(async () => {
  await sc?.stop();
  await Promise.all([git?.close(), other?.close(), proxy?.close()]);
});

describe("GitRepository checkout", () => {
  it("recurseSubmodules fetches submodules from the same server with the same credentials", async () => {
    const sub = await git.createRepo("sub");
    const subSha = await sub.commit({ "lib/cm.yaml": "kind: ConfigMap\n" }, "sub one");
    const main = await git.createRepo("with-sub");
    await main.commit({ ".gitmodules": gitmodules("../sub.git"), sub: { gitlink: subSha }, "a.yaml": "a: 1\n" }, "m");
    const spec = { url: main.url, ref: { branch: "main" }, secretRef: { name: "creds" } };
    await sc.create(GR, "with-sub", { ...spec, recurseSubmodules: true });
    await sc.create(GR, "without-sub", spec);
    const withSub = await sc.waitReady<GitRepository>(GR, "with-sub");
    expect(withSub.status!.observedRecurseSubmodules).toBe(true);
    expect(Object.keys(await artifactFiles(withSub.status!.artifact!.url)).sort()).toEqual([
      "a.yaml",
      "sub/lib/cm.yaml",
    ]);
    const without = await sc.waitReady<GitRepository>(GR, "without-sub");
    expect(Object.keys(await artifactFiles(without.status!.artifact!.url))).toEqual(["a.yaml"]);
  });

  it("never sends the credentials to a submodule on another server, and refuses file:// submodules", async () => {
    const elsewhere = await other.createRepo("elsewhere");
    const sha = await elsewhere.commit({ "x.yaml": "x: 1\n" }, "x");
    const main = await git.createRepo("foreign-sub");
    await main.commit({ ".gitmodules": gitmodules(elsewhere.url), sub: { gitlink: sha } }, "m");
    other.resetCounters();
    const spec = { ref: { branch: "main" }, secretRef: { name: "creds" }, recurseSubmodules: true };
    await sc.create(GR, "foreign-sub", { url: main.url, ...spec });
    const failed = await sc.waitReady<GitRepository>(GR, "foreign-sub", "False");
    expect(condition(failed, "Ready")!.reason).toBe("AuthenticationFailed");
    expect(other.requests.unauthorized).toBeGreaterThan(0);
    expect(other.log.every((r) => r.status === 401)).toBe(true);

    const local = await git.createRepo("file-sub");
    await local.commit({ ".gitmodules": gitmodules(`file://${other.root}/elsewhere.git`), sub: { gitlink: sha } }, "m");
    await sc.create(GR, "file-sub", { url: local.url, ...spec });
    const refused = await sc.waitReady<GitRepository>(GR, "file-sub", "False");
    expect(condition(refused, "Ready")!.reason).toBe("GitOperationFailed");
    expect(condition(refused, "FetchFailed")!.message).toContain("transport 'file' not allowed");
  });

  it("sparseCheckout puts only the listed directories in the artifact, and names a missing one", async () => {
    const repo = await git.createRepo("sparse");
    await repo.commit({ "apps/a.yaml": "a\n", "infra/b.yaml": "b\n", "docs/c.md": "c\n", "root.yaml": "r\n" }, "s");
    const base = { url: repo.url, ref: { branch: "main" }, secretRef: { name: "creds" } };
    await sc.create(GR, "sparse", { ...base, sparseCheckout: ["./apps", "infra/"] });
    const obj = await sc.waitReady<GitRepository>(GR, "sparse");
    expect(Object.keys(await artifactFiles(obj.status!.artifact!.url)).sort()).toEqual(["apps/a.yaml", "infra/b.yaml"]);
    expect(obj.status!.observedSparseCheckout).toEqual(["./apps", "infra/"]);

    await sc.create(GR, "sparse-missing", { ...base, sparseCheckout: ["nope"] });
    const failed = await sc.waitReady<GitRepository>(GR, "sparse-missing", "False");
    expect(condition(failed, "Ready")).toMatchObject({
      reason: "GitOperationFailed",
      message: "failed to sparse checkout directories : sparse checkout dir 'nope' does not exist in repository",
    });
  });

  it("ref.name checks out any reference and reports it in full in the revision", async () => {
    const repo = await git.createRepo("named");
    const sha = await repo.commit({ "a.yaml": "a: 1\n" }, "one");
    await repo.tag("v1.0.0", sha, true);
    const base = { url: repo.url, secretRef: { name: "creds" } };
    await sc.create(GR, "by-branch-name", { ...base, ref: { name: "refs/heads/main" } });
    await sc.create(GR, "by-tag-name", { ...base, ref: { name: "refs/tags/v1.0.0" } });
    expect((await sc.waitReady<GitRepository>(GR, "by-branch-name")).status!.artifact!.revision).toBe(
      `refs/heads/main@sha1:${sha}`,
    );
    expect((await sc.waitReady<GitRepository>(GR, "by-tag-name")).status!.artifact!.revision).toBe(
      `refs/tags/v1.0.0@sha1:${sha}`,
    );
  });

  it("proxySecretRef sends every git request through the proxy; a secret without address, or an ssh URL, is reported", async () => {
    const repo = await git.createRepo("proxied");
    const sha = await repo.commit({ "a.yaml": "a: 1\n" }, "one");
    await secret("proxy", { address: proxy.url, username: "p", password: "proxy-pass" });
    await secret("proxy-no-address", { username: "p" });
    const base = { url: repo.url, ref: { branch: "main" }, secretRef: { name: "creds" } };
    await sc.create(GR, "proxied", { ...base, proxySecretRef: { name: "proxy" } });
    expect((await sc.waitReady<GitRepository>(GR, "proxied")).status!.artifact!.revision).toBe(`main@sha1:${sha}`);
    expect(proxy.requests.forwarded).toBeGreaterThan(0);
    expect(proxy.requests.rejected).toBe(0);

    await sc.create(GR, "proxy-no-address", { ...base, proxySecretRef: { name: "proxy-no-address" } });
    const bad = await sc.waitReady<GitRepository>(GR, "proxy-no-address", "False");
    expect(condition(bad, "Ready")).toMatchObject({
      reason: "AuthenticationFailed",
      message: `failed to configure proxy options: secret '${ns}/proxy-no-address': key 'address' not found`,
    });

    await sc.create(GR, "proxy-ssh", { url: "ssh://git@127.0.0.1:1/x.git", proxySecretRef: { name: "proxy" } });
    const ssh = await sc.waitReady<GitRepository>(GR, "proxy-ssh", "False");
    expect(condition(ssh, "Stalled")).toMatchObject({ status: "True", reason: "UnsupportedProxy" });
    expect(JSON.stringify(ssh.status)).not.toContain("proxy-pass");
  });
});
