// GitRepository spec.include against a real apiserver and a real git smart-HTTP server: included
// artifacts are copied in at toPath from fromPath, status.includedArtifacts records them, a new
// artifact of an included repository rebuilds the includer (same revision, new digest), and a
// missing include is IncludeUnavailable until it appears.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GitRepository } from "../../src/api/source/git-repository.js";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { type GitHttpServer, startGitHttpServer } from "../support/git-http-server.js";
import type { GitRepoHandle } from "../support/git-repository.js";
import { artifactFiles, type SourceControllers, startSourceControllers } from "../support/source-controllers.js";

const cluster = planeCluster("management");
const GR = "gitrepositories";
let git: GitHttpServer;
let sc: SourceControllers;
let lib: GitRepoHandle;

beforeAll(async () => {
  const ns = await testNamespace(cluster.client, "include");
  git = await startGitHttpServer();
  sc = await startSourceControllers(cluster, ns, { requeueDependencyMs: 2000 });
});

afterAll(async () => {
  await sc?.stop();
  await git?.close();
});

const condition = (o: GitRepository, type: string) => o.status?.conditions?.find((c) => c.type === type);

describe("GitRepository include", () => {
  it("copies an included repository's fromPath to toPath, records includedArtifacts, and keeps the revision", async () => {
    lib = await git.createRepo("lib");
    await lib.commit({ "deploy/base/cm.yaml": "kind: ConfigMap\n", "README.md": "lib\n" }, "lib one");
    const app = await git.createRepo("app-incl");
    const appSha = await app.commit({ "app.yaml": "app: 1\n" }, "app one");
    await sc.create(GR, "lib", { url: lib.url, ref: { branch: "main" } });
    await sc.create(GR, "app", {
      url: app.url,
      ref: { branch: "main" },
      include: [
        { repository: { name: "lib" }, fromPath: "deploy/base", toPath: "vendor/lib" },
        { repository: { name: "lib" } },
      ],
    });
    const obj = await sc.waitReady<GitRepository>(GR, "app");
    const libObj = await sc.get(GR, "lib");
    expect(obj.status!.artifact!.revision).toBe(`main@sha1:${appSha}`);
    expect(obj.status!.includedArtifacts).toEqual([libObj.status!.artifact, libObj.status!.artifact]);
    expect(obj.status!.observedInclude).toHaveLength(2);
    const files = await artifactFiles(obj.status!.artifact!.url);
    expect(Object.keys(files).sort()).toEqual([
      "app.yaml",
      "lib/README.md",
      "lib/deploy/base/cm.yaml",
      "vendor/lib/cm.yaml",
    ]);
    expect(files["vendor/lib/cm.yaml"]).toBe("kind: ConfigMap\n");
  });

  it("rebuilds the includer at once when an included repository gets a new artifact", async () => {
    const before = await sc.get(GR, "app");
    await lib.commit({ "deploy/base/cm.yaml": "kind: ConfigMap\nmetadata: {name: two}\n" }, "lib two");
    await sc.requestReconcile(GR, "lib"); // the included repository notices its new commit...
    const after = await eventually(
      "the includer's new artifact",
      async () => {
        const o = await sc.get(GR, "app");
        return o.status?.artifact?.digest !== before.status!.artifact!.digest ? o : undefined;
      },
      20_000,
    );
    // ...and the includer is rebuilt without a request of its own: same commit, new content.
    expect(after.status!.artifact!.revision).toBe(before.status!.artifact!.revision);
    expect(after.metadata.annotations?.["reconcile.fluxcd.io/requestedAt"]).toBeUndefined();
    const files = await artifactFiles(after.status!.artifact!.url);
    expect(files["vendor/lib/cm.yaml"]).toContain("name: two");
    expect(after.status!.includedArtifacts![0]!.digest).toBe((await sc.get(GR, "lib")).status!.artifact!.digest);
  });

  it("reports a missing include as IncludeUnavailable, and becomes Ready once it has an artifact", async () => {
    const app = await git.createRepo("waiting");
    await app.commit({ "a.yaml": "a: 1\n" }, "one");
    await sc.create(GR, "waiting", {
      url: app.url,
      include: [{ repository: { name: "later" } }],
      ref: { branch: "main" },
    });
    const failed = await sc.waitReady<GitRepository>(GR, "waiting", "False");
    expect(condition(failed, "Ready")).toMatchObject({
      reason: "NotFound",
      message: "could not get resource for include 'later': GitRepository 'later' not found",
    });
    expect(condition(failed, "IncludeUnavailable")).toMatchObject({ status: "True", reason: "NotFound" });

    const later = await git.createRepo("later");
    await later.commit({ "l.yaml": "l: 1\n" }, "later");
    await sc.create(GR, "later", { url: later.url, ref: { branch: "main" } });
    const ok = await sc.waitReady<GitRepository>(GR, "waiting");
    expect(condition(ok, "IncludeUnavailable")).toBeUndefined();
    expect(Object.keys(await artifactFiles(ok.status!.artifact!.url)).sort()).toEqual(["a.yaml", "later/l.yaml"]);
  });
});
