// Where a SOPS plaintext goes, through the real `flotilla controller` process (all controllers, debug
// log, a private TMPDIR): the usual chain — a Kustomization decrypts a Secret of Helm values and a
// HelmRelease reads it with valuesFrom — lands the value in the release, and a unique marker of it is
// never on the controller's disk (storage, unpacked artifacts, scratch), in its log, in events, in any
// status, nor in `flotilla diff`/`plan` output. One tenant's key never decrypts another tenant's files.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { USED_KINDS } from "../../src/api/kinds.js";
import { pathOf } from "../../src/api/paths.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { benchChart } from "../support/charts.js";
import { runCli } from "../support/cli.js";
import { plane, planeCluster, testNamespace } from "../support/fleet-context.js";
import { type GitHttpServer, startGitHttpServer } from "../support/git-http-server.js";
import type { GitRepoHandle } from "../support/git-repository.js";
import { type HelmReleaseEnv, startHelmReleaseEnv } from "../support/helmrelease-env.js";
import { type KustomizationsIn, kustomizationsIn } from "../support/kustomizations-in.js";
import { type AgeIdentity, newAgeIdentity, sopsEncrypt } from "../support/sops.js";

const mgmt = planeCluster("management");
const MARKER = `sops-marker-${Date.now().toString(36)}-d8f1`;
const TENANT_A_VALUE = `tenant-a-first-${Date.now().toString(36)}`;
let env: HelmReleaseEnv;
let git: GitHttpServer;
let repo: GitRepoHandle;
let ks: KustomizationsIn;
let tmp: string;
let work: string;
let keyA: AgeIdentity;
let keyB: AgeIdentity;

const secretYaml = (name: string, key: string, value: string) =>
  `apiVersion: v1\nkind: Secret\nmetadata:\n  name: ${name}\ntype: Opaque\nstringData:\n  ${key}: ${JSON.stringify(value)}\n`;
const encrypted = (plain: string, key: AgeIdentity) =>
  sopsEncrypt(plain, "secret.yaml", ["--age", key.recipient, "--encrypted-regex", "^(data|stringData)$"]).toString();
const valuesSecret = (message: string) =>
  encrypted(secretYaml("web-values", "values.yaml", `message: ${message}\n`), keyA);
const shard = () => ({ "flotilla.dev/shard": env.ns });
const create = (path: string, body: Record<string, unknown>) => mgmt.client.create(path, body);
const keySecret = (ns: string, name: string, key: AgeIdentity) =>
  create(pathOf(USED_KINDS.Secret, ns), { metadata: { name, namespace: ns }, stringData: { "age.agekey": key.file } });
const commit = async (files: Record<string, string>, message: string) => {
  await repo.commit(files, message);
};

/** Every file under `dir` whose bytes contain `needle`. */
function filesContaining(dir: string, needle: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && statSync(p).size < 64 << 20 && readFileSync(p).includes(needle)) out.push(p);
    }
  };
  walk(dir);
  return out;
}

beforeAll(async () => {
  keyA = newAgeIdentity();
  keyB = newAgeIdentity();
  work = makeWorkDir("flotilla-hostile-sops-");
  tmp = join(work, "controller-tmp");
  mkdirSync(tmp);
  env = await startHelmReleaseEnv("hostile-sops", {
    extraArgs: ["--log-level", "debug"],
    env: { ...process.env, TMPDIR: tmp },
  });
  ks = kustomizationsIn(mgmt, env.ns);
  await benchChart(env.charts);
  git = await startGitHttpServer();
  repo = await git.createRepo("secrets");
  await commit(
    {
      "values/kustomization.yaml": "resources:\n  - secret.enc.yaml\n",
      "values/secret.enc.yaml": valuesSecret(MARKER),
      "tenant-a/secret.enc.yaml": encrypted(secretYaml("tenant-a", "token", TENANT_A_VALUE), keyA),
    },
    "encrypted values",
  );
  await create(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${env.ns}/gitrepositories`, {
    apiVersion: "source.toolkit.fluxcd.io/v1",
    kind: "GitRepository",
    metadata: { name: "platform", namespace: env.ns, labels: shard() },
    spec: { interval: "10m", url: repo.url, ref: { branch: "main" } },
  });
  await keySecret(env.ns, "sops-age", keyA);
}, 180_000);
afterAll(async () => {
  await env?.stop();
  await git?.close();
});

const createKs = (name: string, spec: Record<string, unknown>) =>
  create(`/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${env.ns}/kustomizations`, {
    apiVersion: "kustomize.toolkit.fluxcd.io/v1",
    kind: "Kustomization",
    metadata: { name, namespace: env.ns, labels: shard() },
    spec: { interval: "10m", prune: true, sourceRef: { kind: "GitRepository", name: "platform" }, ...spec },
  });

describe("SOPS plaintext through the controller process", () => {
  it("HelmRelease valuesFrom a Secret a Kustomization decrypted: the value reaches the release", async () => {
    await createKs("values", {
      path: "./values",
      targetNamespace: env.ns,
      decryption: { provider: "sops", secretRef: { name: "sops-age" } },
    });
    await ks.waitReady("values", 120_000);
    await env.createRelease(
      "web",
      { name: "bench", version: "1.0.0" },
      {
        valuesFrom: [{ kind: "Secret", name: "web-values" }],
      },
    );
    await env.waitReady("web");
    const cm = await mgmt.client.get<{ data: Record<string, string> }>(pathOf(USED_KINDS.ConfigMap, env.ns, "web"));
    expect(cm.data.message).toBe(MARKER);
  });

  it("hostile: the plaintext is never on the controller's disk, in its log, in events or in any status", async () => {
    // The scan reads where the controller keeps files: the encrypted source is found there, its plaintext not.
    const recipientSeen = [
      ...filesContaining(env.storagePath, keyA.recipient),
      ...filesContaining(tmp, keyA.recipient),
    ];
    expect(recipientSeen.length).toBeGreaterThan(0);
    expect(filesContaining(env.storagePath, MARKER)).toEqual([]);
    expect(filesContaining(tmp, MARKER)).toEqual([]);
    expect(env.controller.logs.length).toBeGreaterThan(0);
    expect(JSON.stringify(env.controller.logs)).not.toContain(MARKER);
    expect(JSON.stringify(await mgmt.client.get(`/api/v1/namespaces/${env.ns}/events`))).not.toContain(MARKER);
    const statuses = await Promise.all([ks.getKs("values"), env.hr("web")]);
    expect(JSON.stringify(statuses.map((o) => o.status))).not.toContain(MARKER);
  });

  it("hostile: flotilla diff and plan never print the plaintext, old or new", async () => {
    const checkout = join(work, "checkout");
    mkdirSync(join(checkout, "values"), { recursive: true });
    const changed = `${MARKER}-changed`;
    writeFileSync(join(checkout, "values/kustomization.yaml"), "resources:\n  - secret.enc.yaml\n");
    writeFileSync(join(checkout, "values/secret.enc.yaml"), valuesSecret(changed));
    const keyFile = join(work, "a.agekey");
    writeFileSync(keyFile, keyA.file, { mode: 0o600 });
    const kubeconfig = plane("management").kubeconfig;
    const diff = await runCli([
      ...["diff", "ks", "values", "-n", env.ns, "--path", join(checkout, "values")],
      ...["--decryption-key", keyFile, "--kubeconfig", kubeconfig],
    ]);
    expect(diff.code, diff.stderr).toBe(1);
    expect(diff.stdout).toContain(`► Secret/${env.ns}/web-values drifted`);
    const plan = await runCli(
      ["plan", "-n", env.ns, "--source", `GitRepository/${env.ns}/platform=${checkout}`, "--kubeconfig", kubeconfig],
      { timeoutMs: 180_000 },
    );
    expect(plan.stdout + plan.stderr).toContain("web-values");
    for (const out of [diff.stdout + diff.stderr, plan.stdout + plan.stderr]) {
      expect(out).not.toContain(MARKER);
      expect(out).not.toContain(keyA.identity);
    }
  });

  it("hostile: tenant A cannot use tenant B's key Secret, and a file encrypted for B fails in A, leaving A's Secret", async () => {
    const tenantB = await testNamespace(mgmt.client, "hostile-sops-b");
    await keySecret(tenantB, "b-age", keyB);
    await createKs("borrow", {
      path: "./tenant-a",
      targetNamespace: env.ns,
      decryption: { provider: "sops", secretRef: { name: "b-age" } },
    });
    expect((await ks.waitNotReady("borrow", "BuildFailed", 120_000)).message).toMatch(
      new RegExp(`^decryption Secret '${env.ns}/b-age' not found`),
    );
    await createKs("tenant-a", {
      path: "./tenant-a",
      targetNamespace: env.ns,
      decryption: { provider: "sops", secretRef: { name: "sops-age" } },
    });
    await ks.waitReady("tenant-a", 120_000);
    const token = async () =>
      (await mgmt.client.get<{ data: Record<string, string> }>(pathOf(USED_KINDS.Secret, env.ns, "tenant-a"))).data
        .token;
    const before = await token();
    expect(Buffer.from(before!, "base64").toString()).toBe(TENANT_A_VALUE);
    await commit(
      { "tenant-a/secret.enc.yaml": encrypted(secretYaml("tenant-a", "token", "written-for-b"), keyB) },
      "tenant A's path now holds a file for B",
    );
    await mgmt.client.patch(
      `/apis/source.toolkit.fluxcd.io/v1/namespaces/${env.ns}/gitrepositories/platform`,
      "merge",
      {
        metadata: { annotations: { "reconcile.fluxcd.io/requestedAt": new Date().toISOString() } },
      },
    );
    const failed = await ks.waitNotReady("tenant-a", "BuildFailed", 120_000);
    expect(failed.message).toMatch(
      /^failed to decrypt Secret\/[^ ]+\/tenant-a \(from tenant-a\/secret\.enc\.yaml\): .*check that/,
    );
    expect(await token()).toBe(before);
    expect(failed.message).not.toContain("written-for-b");
  });
});
