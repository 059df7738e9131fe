// Every verb of the command line, given a typical user mistake, answers with one `✗` line that says what
// is wrong and what to do, and exit code 1 — never "unexpected error", which is kept for real bugs.
import { rmSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

const scratch = makeWorkDir("flotilla-mistakes-");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// A well-formed kubeconfig for a cluster that is not there: flag mistakes must be caught before it matters.
const kubeconfig = join(scratch, "kubeconfig");
writeFileSync(
  kubeconfig,
  `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}}]
users: [{name: u, user: {token: not-a-real-token}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`,
);
const badYaml = join(scratch, "bad-yaml");
mkdirSync(badYaml);
writeFileSync(join(badYaml, "kustomization.yaml"), "resources:\n  - a.yaml\n  b: [\n");
const noFleet = join(scratch, "no-fleet");

// [verb line, the phrase the one error line must contain]
const mistakes: [string[], string][] = [
  [["local", "up", "--tenants", "abc", "--dir", noFleet], "--tenants must be a whole number"],
  [["local", "status", "--dir", noFleet], `no local fleet in ${noFleet}`],
  [["local", "restart", "tenant1", "--dir", noFleet], `no local fleet in ${noFleet}`],
  [["local", "down", "--dir", noFleet], `no local fleet in ${noFleet}`],
  [["kustomize", "build", join(scratch, "missing")], "does not exist"],
  [["kustomize", "build", scratch], "unable to find one of 'kustomization.yaml'"],
  [["kustomize", "build", badYaml], "kustomization.yaml"],
  [["controller", "--kubeconfig", kubeconfig, "--feature-gates=Typo=true"], 'unknown feature gate "Typo"'],
  [["controller", "--kubeconfig", kubeconfig, "--concurrent", "many"], "--concurrent must be a whole number"],
  [["controller", "--kubeconfig", kubeconfig, "--kube-api-qps", "fast"], "--kube-api-qps must be a positive number"],
  [["controller", "--kubeconfig", kubeconfig, "--health-addr", "nowhere"], '--health-addr: invalid address "nowhere"'],
  [
    ["controller", "--kubeconfig", kubeconfig, "--requeue-dependency", "5x"],
    '--requeue-dependency: invalid duration "5x"',
  ],
  [["controller", "--kubeconfig", kubeconfig, "--no-cross-namespace-refs=yes"], "takes true or false"],
  [["controller", "--kubeconfig", kubeconfig, "--no-remote-bases=false"], "never fetches remote kustomize bases"],
  [["controller", "--kubeconfig", join(scratch, "missing.kubeconfig")], "cannot read kubeconfig"],
  [["controller"], "no --kubeconfig given"],
  [["install"], "no cluster: pass --kubeconfig"],
  [["install", "--kubeconfig", join(scratch, "missing.kubeconfig")], "cannot read kubeconfig"],
  [["demo", "--dir", noFleet], `no running local fleet in ${noFleet}`],
];

describe("a user mistake on any verb", () => {
  it.each(mistakes)("flotilla %j says what is wrong in one line, exit 1", async (args, phrase) => {
    const env: NodeJS.ProcessEnv = { ...process.env, KUBECONFIG: "", HOME: scratch };
    delete env.KUBERNETES_SERVICE_HOST;
    const result = await runCli(args, { env, timeoutMs: 60_000 });
    const errorLines = result.stderr.split("\n").filter((l) => l.startsWith("✗"));
    expect(result.code, result.stderr).toBe(1);
    expect(errorLines, result.stderr).toHaveLength(1);
    expect(errorLines[0]).toContain(phrase);
    expect(result.stderr).not.toContain("unexpected error");
    expect(result.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it("takes --verbose anywhere on the line, and root options only before the verb", async () => {
    // `install --version` is the image tag: before root options became positional, it printed flotilla's version.
    const result = await runCli(["install", "--export", "--verbose", "--version", "9.9.9"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("ghcr.io/flotilla-dev/flotilla:9.9.9");
  });
});
