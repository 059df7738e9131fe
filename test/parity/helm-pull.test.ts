// helmCharts with `repo:`: a chart that is not vendored is pulled only when pulls are allowed. The
// repository is a loopback HTTP server holding a chart packaged by the pinned helm, in a child
// process (builds run helm synchronously, so a server in this process could not answer); the
// real kustomize and ours each pull into their own copy of the kustomization and must print the same.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireTool } from "../../scripts/parity-cases.mjs";
import { buildKustomization } from "../../src/kustomize/index.js";
import { locateHelm } from "../../src/binaries/helm/index.js";
import { locateToolchain } from "../../src/local/toolchain.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

const { kustomize } = locateToolchain();
const helm = locateHelm();
const CHART = "test/fixtures/kustomize/helm-local-chart-values-inline/charts/web";
// Checked in every test, not in beforeAll alone: a failing hook reports its tests as skipped.
const requireTools = () => {
  requireTool("helm", helm);
  requireTool("kustomize", kustomize);
};
const toolsPresent = existsSync(helm) && existsSync(kustomize);

let work: string;
let server: ChildProcess;
let repoUrl: string;

function run(cmd: string, args: string[]): string {
  const helmHome = join(work, "helm-home");
  const env = { ...process.env, HELM_CONFIG_HOME: helmHome, HELM_CACHE_HOME: join(helmHome, "cache") };
  const r = spawnSync(cmd, args, { encoding: "utf8", env });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

function kustomization(name: string): string {
  const dir = join(work, name);
  cpSync("test/fixtures/kustomize/helm-local-chart-values-inline/kustomization.yaml", join(dir, "kustomization.yaml"));
  const k = readFileSync(join(dir, "kustomization.yaml"), "utf8");
  writeFileSync(
    join(dir, "kustomization.yaml"),
    k.replace("- name: web\n", `- name: web\n  repo: ${repoUrl}\n  version: 0.3.0\n`),
  );
  return dir;
}

beforeAll(async () => {
  if (!toolsPresent) return;
  work = makeWorkDir("flotilla-helm-pull-");
  const repo = join(work, "repo");
  run(helm, ["package", CHART, "--destination", repo]);
  const serve = `
    const { createServer } = require("node:http");
    const { readFileSync } = require("node:fs");
    const { join } = require("node:path");
    const server = createServer((req, res) => {
      try { res.end(readFileSync(join(process.argv[1], new URL(req.url, "http://x").pathname))); }
      catch { res.statusCode = 404; res.end(); }
    });
    server.listen(0, "127.0.0.1", () => console.log(server.address().port));`;
  server = spawn(process.execPath, ["-e", serve, repo], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<string>((resolve) =>
    server.stdout!.once("data", (d: Buffer) => resolve(d.toString().trim())),
  );
  repoUrl = `http://127.0.0.1:${port}`;
  run(helm, ["repo", "index", repo, "--url", repoUrl]);
});

afterAll(async () => {
  server?.kill();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("helmCharts from a chart repository", () => {
  it("refuses to pull unless pulls are allowed, naming the repo", async () => {
    requireTools();
    const dir = kustomization("refused");
    await expect(buildKustomization(dir, { enableHelm: true, helmCommand: helm })).rejects.toThrow(
      `pulling it from ${repoUrl} is disabled`,
    );
  });

  it("pulls into chartHome/name-version and prints what kustomize prints", async () => {
    requireTools();
    const real = run(kustomize, ["build", "--enable-helm", "--helm-command", helm, kustomization("real")]);
    const dir = kustomization("ours");
    const ours = await buildKustomization(dir, { enableHelm: true, helmCommand: helm, helmAllowPull: true });
    expect(ours).toBe(real);
    expect(readFileSync(join(dir, "charts", "web-0.3.0", "web", "Chart.yaml"), "utf8")).toContain("name: web");
  });
});
