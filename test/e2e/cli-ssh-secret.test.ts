// Git over SSH from the command line, against a real OpenSSH server on loopback: `create secret git`
// for an ssh:// URL writes flux's Secret (identity and identity.pub from flux's own test keys, byte for
// byte as its goldens have them, known_hosts scanned from the server as Go's ssh client picks it), and
// `create source git` over ssh applies the Secret and a GitRepository the real source controller
// fetches with it.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { leaveBootstrapped } from "../support/bootstrap-env.js";
import { startController } from "../support/controller-process.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { plane } from "../support/fleet-context.js";
import { type GitSshServer, startGitSshServer } from "../support/git-ssh-server.js";
import { type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";
import type { GitRepoHandle } from "../support/git-repository.js";

const KEYS = "test/fixtures/flux-cli/create/create_secret/git";
let ssh: GitSshServer;
let repo: GitRepoHandle;
let h: KustomizeHarness;

/**
 * Our server's known_hosts line as YAML prints it: on a port other than 22 it starts with "[", a flow
 * indicator, so go-yaml single-quotes it (as flux would for the same server).
 */
const knownHosts = () => `  known_hosts: '${ssh.knownHostsLine}'`;
/** flux's golden with our server in place of github.com's key (the only line that names a host). */
const golden = (file: string) =>
  readFileSync(`${KEYS}/${file}`, "utf8").replace(/^ {2}known_hosts: .*$/m, knownHosts());

beforeAll(async () => {
  ssh = await startGitSshServer();
  repo = await ssh.createRepo("podinfo");
  await repo.commit({ "README.md": "podinfo\n" }, "init");
  h = await startKustomizeHarness({ prefix: "cli-ssh" });
}, 120_000);
afterAll(async () => {
  await h?.stop();
  await ssh?.close();
});

describe("flotilla create secret git for ssh:// URLs", () => {
  it.each([
    ["", "ecdsa.private", "git-ssh-secret.yaml"],
    ["--password=password", "ecdsa-password.private", "git-ssh-secret-password.yaml"],
  ])("--private-key-file %s prints flux's golden (%s)", async (password, key, file) => {
    const args = ["create", "secret", "git", "podinfo-auth", `--url=${repo.url}`, `--private-key-file=${KEYS}/${key}`];
    const r = await runCli([...args, ...(password ? [password] : []), "--namespace=my-namespace", "--export"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(golden(file));
  });

  it("without a key file, generates an ecdsa p384 key as flux does", async () => {
    const r = await runCli(["create", "secret", "git", "gen", `--url=${repo.url}`, "--export"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("  identity: |\n    -----BEGIN OPENSSH PRIVATE KEY-----\n");
    expect(r.stdout).toMatch(/ {2}identity\.pub: \|\n {4}ecdsa-sha2-nistp384 AAAA\S+\n/);
    expect(r.stdout).toContain(`${knownHosts()}\n`);
  });

  it("a key file with the wrong passphrase is one line naming the problem", async () => {
    const r = await runCli([
      "create",
      "secret",
      "git",
      "x",
      `--url=${repo.url}`,
      `--private-key-file=${KEYS}/ecdsa-password.private`,
      "--password=wrong",
      "--export",
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^✗ unable to read the private key: .*\n$/);
    expect(r.stderr).not.toContain("wrong");
  });
});

describe("flotilla create source git over ssh (applied)", () => {
  it("writes the key Secret, then the GitRepository, which the source controller fetches over SSH", async () => {
    const r = await runCli([
      "create",
      "source",
      "git",
      "podinfo",
      `--url=${repo.url}`,
      "--branch=main",
      `--private-key-file=${ssh.clientKey.privateKeyPath}`,
      "--silent",
      "-n",
      h.ns,
      "--kubeconfig",
      plane("management").kubeconfig,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`✚ deploy key: ${ssh.clientKey.publicKey.split(" ").slice(0, 2).join(" ")}\n`);
    expect(r.stderr).toContain(`✔ fetched revision: main@sha1:${await repo.head()}\n`);
    expect(r.stderr).not.toContain("PRIVATE KEY");
    const secret = await h.mgmt.client.get<{ data: Record<string, string> }>(
      `/api/v1/namespaces/${h.ns}/secrets/podinfo`,
    );
    expect(Object.keys(secret.data).sort()).toEqual(["identity", "identity.pub", "known_hosts"]);
  });
});

describe("flotilla bootstrap git over ssh", () => {
  it("pushes with the key it writes into the flux-system Secret, and the cluster reconciles itself over SSH", async () => {
    const ns = `ssh-flux-system-${randomBytes(3).toString("hex")}`;
    await h.mgmt.client.create("/api/v1/namespaces", { apiVersion: "v1", kind: "Namespace", metadata: { name: ns } });
    const controller = startController({ namespace: ns, shard: ns, storagePath: makeWorkDir("flotilla-ssh-boot-") });
    try {
      const fleet = await ssh.createRepo("fleet");
      const r = await runCli(
        [
          "bootstrap",
          "git",
          `--url=${fleet.url}`,
          "--branch=main",
          "--path=clusters/ssh",
          `--private-key-file=${ssh.clientKey.privateKeyPath}`,
          "--silent",
          `--label=flotilla.dev/shard=${ns}`,
          "-n",
          ns,
          "--kubeconfig",
          plane("management").kubeconfig,
        ],
        { timeoutMs: 300_000 },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/✔ committed component manifests to "main" \("[0-9a-f]{40}"\)/);
      expect(r.stderr).toContain("✔ bootstrap finished\n");
      const source = await h.mgmt.client.get<{ spec: { url: string; secretRef: { name: string } } }>(
        `/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories/flux-system`,
      );
      expect(source.spec).toMatchObject({ url: fleet.url, secretRef: { name: "flux-system" } });
      const secret = await h.mgmt.client.get<{ data: Record<string, string> }>(
        `/api/v1/namespaces/${ns}/secrets/flux-system`,
      );
      expect(Object.keys(secret.data).sort()).toEqual(["identity", "identity.pub", "known_hosts"]);
    } finally {
      await leaveBootstrapped(controller, [[ns, "flux-system"]]);
    }
  });
});
