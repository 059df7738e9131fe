// `flotilla diff|build kustomization NAME --path DIR`, `export` and `get -o yaml` as a user runs them
// (the built CLI, a real process) against Kustomizations the real controllers reconciled — on this
// cluster and on a remote tenant plane (which flux diff skips). diff's exit codes are flux's: 0 no
// change, 1 changes, 2 an error; Secret values never appear.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { runCli } from "../support/cli.js";
import { plane, planeCluster } from "../support/fleet-context.js";
import { configMap, type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";

let h: KustomizeHarness;
let local: string;
const SECRET_VALUE = "s3cr3t-preview-value";
const NEW_SECRET_VALUE = "n3w-s3cr3t-preview-value";
const cli = (...args: string[]) => runCli([...args, "-n", h.ns, "--kubeconfig", plane("management").kubeconfig]);
const secret = (value: string) =>
  JSON.stringify({ apiVersion: "v1", kind: "Secret", metadata: { name: "creds" }, stringData: { token: value } });

/** The local checkout of `app/` with `files` laid over it (null deletes). */
function localApp(files: Record<string, string | null>): string {
  rmSync(local, { recursive: true, force: true });
  mkdirSync(local, { recursive: true });
  const base: Record<string, string> = {
    "cm.yaml": configMap("preview", undefined, { v: "1" }),
    "gone.yaml": configMap("preview-gone", undefined, { v: "1" }),
    "secret.yaml": secret(SECRET_VALUE),
  };
  for (const [f, text] of Object.entries({ ...base, ...files })) if (text !== null) writeFileSync(join(local, f), text);
  return local;
}

beforeAll(async () => {
  h = await startKustomizeHarness({ prefix: "cli-preview" });
  local = join(makeWorkDir("flotilla-preview-"), "app");
  const remote = await h.copyAdminKubeconfig("tenant1");
  await h.commit(
    {
      "app/cm.yaml": configMap("preview", undefined, { v: "1" }),
      "app/gone.yaml": configMap("preview-gone", undefined, { v: "1" }),
      "app/secret.yaml": secret(SECRET_VALUE),
      "remote/cm.yaml": configMap(`${h.ns}-remote`, "default", { v: "1" }),
      "made/cm.yaml": configMap("made", h.ns, { v: "1" }),
    },
    "v1",
  );
  await h.createKs("app", { path: "./app", prune: true, targetNamespace: h.ns });
  await h.createKs("remote", {
    path: "./remote",
    prune: true,
    kubeConfig: { secretRef: { name: remote, key: "admin.conf" } },
  });
  await h.waitReady("app");
  await h.waitReady("remote");
}, 180_000);
afterAll(() => h?.stop());

describe("flotilla diff kustomization", () => {
  it("exit 0 and nothing printed when the local manifests are what was applied", async () => {
    const r = await cli("diff", "kustomization", "app", "--path", localApp({}));
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
  });

  it("exit 1 with the change: a changed field, a new object, a deleted one, a Secret masked", async () => {
    const dir = localApp({
      "cm.yaml": configMap("preview", undefined, { v: "2" }),
      "new.yaml": configMap("preview-new", undefined, { v: "1" }),
      "gone.yaml": null,
      "secret.yaml": secret(NEW_SECRET_VALUE),
    });
    const r = await cli("diff", "ks", "app", "--path", dir);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toBe("⚠️ identified at least one change, exiting with non-zero exit code\n");
    expect(r.stdout).toContain(`► ConfigMap/${h.ns}/preview drifted\n\ndata.v\n  ± value change\n    - 1\n    + 2\n`);
    expect(r.stdout).toContain(`► ConfigMap/${h.ns}/preview-new created\n`);
    expect(r.stdout).toContain(`► ConfigMap/${h.ns}/preview-gone deleted\n`);
    expect(r.stdout).toContain(`► Secret/${h.ns}/creds drifted`);
    expect(r.stdout + r.stderr).not.toContain(SECRET_VALUE);
    expect(r.stdout + r.stderr).not.toContain(NEW_SECRET_VALUE);
    // A diff writes nothing.
    const live = await h.mgmt.client.get<{ data: Record<string, string> }>(
      `/api/v1/namespaces/${h.ns}/configmaps/preview`,
    );
    expect(live.data.v).toBe("1");
  });

  it("exit 1 on drift: an object changed in the cluster since the apply", async () => {
    await h.mgmt.client.patch(`/api/v1/namespaces/${h.ns}/configmaps/preview`, "merge", { data: { v: "edited" } });
    const r = await cli("diff", "ks", "app", "--path", localApp({}));
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain(
      `► ConfigMap/${h.ns}/preview drifted\n\ndata.v\n  ± value change\n    - edited\n    + 1\n`,
    );
    await h.mgmt.client.patch(`/api/v1/namespaces/${h.ns}/configmaps/preview`, "merge", { data: { v: "1" } });
  });

  it("exit 2 with one line on a bad path", async () => {
    const r = await cli("diff", "ks", "app", "--path", "/nonexistent/flotilla/path");
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe('✗ invalid resource path "/nonexistent/flotilla/path": not a directory\n');
  });

  it("a Kustomization with a kubeConfig is diffed against its remote cluster (flux skips it)", async () => {
    const remoteDir = join(local, "..", "remote");
    mkdirSync(remoteDir, { recursive: true });
    writeFileSync(join(remoteDir, "cm.yaml"), configMap(`${h.ns}-remote`, "default", { v: "1" }));
    const same = await cli("diff", "ks", "remote", "--path", remoteDir);
    expect(same.code, same.stderr).toBe(0);
    writeFileSync(join(remoteDir, "cm.yaml"), configMap(`${h.ns}-remote`, "default", { v: "2" }));
    const changed = await cli("diff", "ks", "remote", "--path", remoteDir);
    expect(changed.code, changed.stderr).toBe(1);
    expect(changed.stdout).toContain(`► ConfigMap/default/${h.ns}-remote drifted`);
    // Only the tenant plane has that object: the diff read it there.
    expect(
      await planeCluster("management").get({
        apiVersion: "v1",
        kind: "ConfigMap",
        metadata: { name: `${h.ns}-remote`, namespace: "default" },
      }),
    ).toBeUndefined();
  });
});

describe("flotilla build kustomization, export, get -o yaml", () => {
  it("build prints the objects as the Kustomization builds them: its namespace, owner labels, Secret values masked", async () => {
    const r = await cli("build", "ks", "app", "--path", localApp({}));
    expect(r.code, r.stderr).toBe(0);
    const docs = r.stdout
      .split(/^---\n/m)
      .filter(Boolean)
      .map((d) => parse(d) as { kind: string; metadata: { namespace: string; labels: Record<string, string> } });
    expect(docs.map((d) => d.kind).sort()).toEqual(["ConfigMap", "ConfigMap", "Secret"]);
    for (const d of docs) {
      expect(d.metadata.namespace).toBe(h.ns);
      expect(d.metadata.labels["kustomize.toolkit.fluxcd.io/name"]).toBe("app");
    }
    expect(r.stdout).not.toContain(SECRET_VALUE);
    expect(r.stdout).toContain("token: '**SECRET**'");
  });

  it("export prints the Kustomization as flux export does: spec only, durations as Go prints them", async () => {
    const r = await cli("export", "ks", "app");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      `---\napiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: app\n  namespace: ${h.ns}\nspec:\n  interval: 10m0s\n  path: ./app\n  prune: true\n  sourceRef:\n    kind: GitRepository\n    name: platform\n  targetNamespace: ${h.ns}\n`,
    );
    const all = await cli("export", "source", "git", "--all");
    // Annotations stay (flux export keeps them): the harness's reconcile requests are among them.
    expect(all.stdout).toMatch(
      /^kind: GitRepository\nmetadata:\n( {2}annotations:\n( {4}.*\n)+)? {2}name: platform\n/m,
    );
    expect(all.stdout).not.toContain("status:");
  });

  it("get -o yaml prints the live object as kubectl -o yaml does", async () => {
    const r = await cli("get", "ks", "app", "-o", "yaml");
    expect(r.code, r.stderr).toBe(0);
    const o = parse(r.stdout) as { kind: string; metadata: { name: string }; status: { conditions: unknown[] } };
    expect(o.kind).toBe("Kustomization");
    expect(o.metadata.name).toBe("app");
    expect(o.status.conditions.length).toBeGreaterThan(0);
    expect(r.stdout.startsWith("apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n")).toBe(
      true,
    );
  });
});

describe("flotilla create kustomization (applied)", () => {
  it("applies it, waits for Ready and prints the applied revision; again with other flags, updates it", async () => {
    const r = await cli(
      "create",
      "kustomization",
      "made",
      "--source=GitRepository/platform",
      "--path=./made",
      "--prune",
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /^✚ generating Kustomization\n► applying Kustomization\n✔ Kustomization created\n◎ waiting for Kustomization reconciliation\n✔ Kustomization made is ready\n✔ applied revision main@sha1:[0-9a-f]{40}\n$/,
    );
    const again = await cli(
      "create",
      "ks",
      "made",
      "--source=GitRepository/platform",
      "--path=./made",
      "--interval=5m",
    );
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain("✔ Kustomization updated\n");
    const ks = await h.getKs("made");
    expect(ks.spec.interval).toBe("5m0s");
    expect(ks.spec.prune).toBe(false);
  });
});
