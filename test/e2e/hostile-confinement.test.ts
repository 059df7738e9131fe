// A hostile tenant against confinement (issue #11): it tries to build another tenant's unpacked
// artifact by relative path, by a symlink in its Git repository, and by an include written through a
// symlink; and to make the controller archive a repository over the (test-lowered) artifact limits.
// Each attempt is refused by name, applies nothing, shows none of the other tenant's content in
// status or events — and the other tenant keeps reconciling.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SERVED_KINDS } from "../../src/api/kinds.js";
import type { Condition } from "../../src/api/meta/conditions.js";
import { pathOf } from "../../src/api/paths.js";
import type { GitRepository } from "../../src/api/source/git-repository.js";
import { eventually } from "../support/fleet-context.js";
import { type GitHttpServer, startGitHttpServer } from "../support/git-http-server.js";
import type { GitRepoHandle } from "../support/git-repository.js";
import {
  configMap,
  type KustomizationsIn,
  type KustomizeHarness,
  startKustomizeHarness,
} from "../support/kustomize-harness.js";

const LIMITS = { maxSize: 32 * 1024, maxFiles: 20 };
/** What must never show outside the victim's own namespace. */
const SECRET = "victim-only-token-5c1e7a";

let h: KustomizeHarness;
let victim: KustomizationsIn;
let git: GitHttpServer;
let victimRepo: GitRepoHandle;
/** The victim's unpacked artifact, as the controller's consumer cache names it. */
let victimDir: string;

const gitRepoPath = (ns: string, name?: string) => pathOf(SERVED_KINDS.GitRepository, ns, name);
const readyOf = (o: { status?: { conditions?: Condition[] } }) => o.status?.conditions?.find((c) => c.type === "Ready");

/** Everything the attacker can read about its own objects: their status and the events in its namespace. */
async function attackerView(name: string): Promise<string> {
  const events = await h.mgmt.client.get<{ items: unknown[] }>(`/api/v1/namespaces/${h.ns}/events`);
  return JSON.stringify([(await h.getKs(name)).status, events.items]);
}

const absent = async (name: string) =>
  expect(
    await h.mgmt.get({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, namespace: h.ns } }),
  ).toBeUndefined();

beforeAll(async () => {
  h = await startKustomizeHarness({ prefix: "confine", artifactLimits: LIMITS });
  victim = await h.addNamespace("confine-victim");
  git = await startGitHttpServer();
  victimRepo = await git.createRepo("victim");
  await victimRepo.commit(
    {
      "app/kustomization.yaml": "resources:\n- cm.yaml\n",
      "app/cm.yaml": configMap("victim-data", undefined, { token: SECRET }),
    },
    "victim's app",
  );
  await h.createGitRepository(victim.ns, "victim-src", victimRepo.url);
  await victim.createKs("app", {
    sourceRef: { kind: "GitRepository", name: "victim-src" },
    path: "./app",
    targetNamespace: victim.ns,
  });
  await victim.waitReady("app");
  const src = await h.mgmt.client.get<GitRepository>(gitRepoPath(victim.ns, "victim-src"));
  victimDir = join(h.artifactCacheDir, src.status!.artifact!.digest.replace(/[^a-z0-9]/gi, "-"));
  expect(readdirSync(victimDir)).toEqual(["app"]);
}, 120_000);

afterAll(async () => {
  await h?.stop();
  await git?.close();
});

describe("a tenant cannot read another tenant's artifact", () => {
  it("by a relative base: resources ../../<other artifact>/app is refused by name, nothing applied, nothing leaked", async () => {
    const entry = `../../${victimDir.split("/").pop()}/app`;
    await h.commit({ "steal-relative/kustomization.yaml": `resources:\n- ${entry}\n` }, "relative attempt");
    await h.createKs("steal-relative", { path: "./steal-relative", targetNamespace: h.ns });
    const failed = await h.waitNotReady("steal-relative", "BuildFailed");
    expect(failed.message).toContain(`resources entry "${entry}" leads outside the source artifact`);
    expect(failed.message).toContain(`security; file '${join(victimDir, "app")}' is not in or below`);
    await absent("victim-data");
    expect((await h.getKs("steal-relative")).status?.inventory?.entries ?? []).toEqual([]);
    expect(await attackerView("steal-relative")).not.toContain(SECRET);
  });

  it("by a symlink in its Git repository: the link is not in the artifact, so the base is not found, by name", async () => {
    await h.commit(
      {
        "evil-link": { symlink: join(victimDir, "app") },
        "steal-link/kustomization.yaml": "resources:\n- ../evil-link\n",
      },
      "symlink attempt",
    );
    await h.createKs("steal-link", { path: "./steal-link", targetNamespace: h.ns });
    const failed = await h.waitNotReady("steal-link", "BuildFailed");
    expect(failed.message).toContain('resources entry "../evil-link": no such file or directory');
    await h.createKs("steal-link-path", { path: "./evil-link", targetNamespace: h.ns });
    const noPath = await h.waitNotReady("steal-link-path", "ArtifactFailed");
    expect(noPath.message).toBe("kustomization path not found: stat ./evil-link: no such file or directory");
    await absent("victim-data");
    expect(await attackerView("steal-link")).not.toContain(SECRET);
    expect(await attackerView("steal-link-path")).not.toContain(SECRET);
  });

  it("by an include written through a symlink into the other artifact: refused, the other artifact untouched", async () => {
    const smuggler = await git.createRepo("smuggler");
    await smuggler.commit({ drop: { symlink: victimDir }, "README.md": "x\n" }, "a link to the victim's artifact");
    await h.createGitRepository(h.ns, "smuggler", smuggler.url, {
      include: [{ repository: { name: "platform" }, toPath: "drop" }],
    });
    const ready = await h.reconcileGitRepository(h.ns, "smuggler");
    expect(ready).toMatchObject({ status: "False", reason: "IllegalPath" });
    expect(ready.message).toBe("path calculation for include 'platform' failed: 'drop' is outside the artifact");
    expect(readdirSync(victimDir)).toEqual(["app"]);
  });
});

describe("artifact limits (lowered for the test: 20 files, 32 KiB)", () => {
  let repo: GitRepoHandle;
  const appliedData = async () => {
    const cm = await h.mgmt.get({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "limits-cm", namespace: h.ns },
    });
    return (cm as { data?: Record<string, string> } | undefined)?.data;
  };

  beforeAll(async () => {
    repo = await git.createRepo("limits");
    await repo.commit({ "app/cm.yaml": configMap("limits-cm", undefined, { v: "1" }) }, "within the limits");
    await h.createGitRepository(h.ns, "limits", repo.url);
    await h.createKs("limits", {
      sourceRef: { kind: "GitRepository", name: "limits" },
      path: "./app",
      targetNamespace: h.ns,
    });
    await h.waitReady("limits");
  });

  it("a repository with more files than --artifact-max-files is refused when archived, naming the limit; nothing new applied", async () => {
    const many = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`filler/f${i}.txt`, `${i}\n`]));
    const sha = await repo.commit(
      { ...many, "app/cm.yaml": configMap("limits-cm", undefined, { v: "2" }) },
      "too many files",
    );
    const ready = await h.reconcileGitRepository(h.ns, "limits");
    expect(ready).toMatchObject({ status: "False", reason: "ArchiveOperationFailed" });
    expect(ready.message).toBe(
      `refused to archive: the repository at revision 'main@sha1:${sha}' holds more than 20 files, the limit set by --artifact-max-files; ` +
        "split the repository, exclude files with .sourceignore or spec.ignore, or raise the limit",
    );
    await h.reconcileNow("limits");
    expect((await h.getKs("limits")).status?.lastAppliedRevision).not.toContain(sha);
    expect(await appliedData()).toEqual({ v: "1" });
  });

  it("a file larger than --artifact-max-size is refused by name when archived; nothing new applied", async () => {
    const removeMany = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`filler/f${i}.txt`, null]));
    const sha = await repo.commit(
      { ...removeMany, "big.bin": "x".repeat(40 * 1024), "app/cm.yaml": configMap("limits-cm", undefined, { v: "3" }) },
      "one big file",
    );
    const ready = await h.reconcileGitRepository(h.ns, "limits");
    expect(ready).toMatchObject({ status: "False", reason: "ArchiveOperationFailed" });
    expect(ready.message).toContain(
      `the repository at revision 'main@sha1:${sha}': file 'big.bin' alone is larger than 32 KiB unpacked, the limit set by --artifact-max-size`,
    );
    await h.reconcileNow("limits");
    expect(await appliedData()).toEqual({ v: "1" });
  });

  it("once back within the limits the repository is archived and applied again", async () => {
    const sha = await repo.commit(
      { "big.bin": null, "app/cm.yaml": configMap("limits-cm", undefined, { v: "4" }) },
      "back within the limits",
    );
    expect(await h.reconcileGitRepository(h.ns, "limits")).toMatchObject({ status: "True" });
    await h.reconcileNow("limits");
    await eventually("the new revision applied", async () => (await appliedData())?.v === "4");
    expect((await h.getKs("limits")).status?.lastAppliedRevision).toBe(`main@sha1:${sha}`);
  });
});

describe("the other tenant", () => {
  it("keeps reconciling after every attempt: a new commit of its own becomes Ready", async () => {
    const sha = await victimRepo.commit(
      { "app/cm.yaml": configMap("victim-data", undefined, { token: SECRET, v: "2" }) },
      "victim moves on",
    );
    expect(await h.reconcileGitRepository(victim.ns, "victim-src")).toMatchObject({ status: "True" });
    await eventually("the victim's Kustomization at its new commit", async () => {
      const ks = await victim.getKs("app");
      return readyOf(ks)?.status === "True" && ks.status?.lastAppliedRevision === `main@sha1:${sha}`;
    });
  });
});
