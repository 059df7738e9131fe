// `flotilla trace`, `stats` and `check` as a user runs them (the built CLI, a real process) against the
// management plane: flux's own trace and check goldens byte for byte for the same objects
// (test/fixtures/flux-cli), stats counting what is there, check reading a running controller's lease.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KubeObject } from "../../src/api/meta/object.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { runCli } from "../support/cli.js";
import { type ControllerProcess, startController } from "../support/controller-process.js";
import { eventually, plane, planeCluster, testNamespace } from "../support/fleet-context.js";
import { ensureFluxCrds } from "../support/flux-cli-fixtures.js";

const mgmt = planeCluster("management");
const kubeconfig = () => plane("management").kubeconfig;
const cli = (...args: string[]) =>
  runCli([...args, "--kubeconfig", kubeconfig()], { env: { ...process.env, TZ: "UTC" } });

/** flux's test: the object file with its namespaces filled in, each object created, then its status. */
async function createObjects(file: string, vars: Record<string, string>): Promise<void> {
  let text = readFileSync(`test/fixtures/flux-cli/${file}`, "utf8");
  for (const [k, v] of Object.entries(vars)) text = text.replaceAll(`{{ .${k} }}`, v);
  for (const doc of parseAllDocuments(text)) {
    const obj = doc.toJS() as (KubeObject & { status?: unknown }) | null;
    if (!obj || obj.kind === "Namespace") continue;
    const { status, ...rest } = obj;
    const path = await mgmt.pathOf(obj);
    await mgmt.client.create(path.replace(/\/[^/]+$/, ""), rest);
    if (status) await mgmt.client.patch(`${path}/status`, "merge", { status });
  }
}

const golden = (file: string, vars: Record<string, string>) => {
  let text = readFileSync(`test/fixtures/flux-cli/${file}`, "utf8");
  for (const [k, v] of Object.entries(vars)) text = text.replaceAll(`{{ .${k} }}`, v);
  return text;
};

let controller: ControllerProcess | undefined;
beforeAll(() => ensureFluxCrds(mgmt), 60_000);
afterAll(() => controller?.child.kill("SIGKILL"));

describe("flotilla trace, against flux's goldens", () => {
  let deployment: Record<string, string>;
  let helmrelease: Record<string, string>;
  beforeAll(async () => {
    deployment = {
      ns: await testNamespace(mgmt.client, "trace-podinfo"),
      fluxns: await testNamespace(mgmt.client, "trace-flux-system"),
      helmReleaseLastReconcile: "2021-07-16 15:42:20 +0000 UTC",
      helmChartLastReconcile: "2021-07-16 15:32:09 +0000 UTC",
      helmRepositoryLastReconcile: "2021-07-11 00:25:46 +0000 UTC",
    };
    helmrelease = {
      ns: await testNamespace(mgmt.client, "trace-hr"),
      fluxns: await testNamespace(mgmt.client, "trace-hr-flux-system"),
      kustomizationLastReconcile: "2021-08-01 04:52:56 +0000 UTC",
      gitRepositoryLastReconcile: "2021-07-20 00:48:16 +0000 UTC",
    };
    await createObjects("trace/deployment.yaml", deployment);
    await createObjects("trace/helmrelease.yaml", helmrelease);
  }, 60_000);

  it("traces a Deployment to its HelmRelease, HelmChart and HelmRepository (trace podinfo --kind deployment --api-version=apps/v1)", async () => {
    const r = await cli("trace", "podinfo", "--kind", "deployment", "--api-version=apps/v1", `-n=${deployment.ns!}`);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(golden("trace/deployment.golden", deployment));
  });

  it("traces a HelmRelease to its Kustomization and GitRepository (trace podinfo --kind HelmRelease --api-version=helm.toolkit.fluxcd.io/v2)", async () => {
    const r = await cli(
      "trace",
      "podinfo",
      "--kind",
      "HelmRelease",
      "--api-version=helm.toolkit.fluxcd.io/v2",
      `-n=${helmrelease.ns!}`,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(golden("trace/helmrelease.golden", helmrelease));
  });

  it("takes kubectl's <kind>/<name> too, and names an object no Flux object manages", async () => {
    const r = await cli("trace", "deploy/podinfo", "-n", deployment.ns!);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("\nObject:         Deployment/podinfo\n");
    await mgmt.client.create(`/api/v1/namespaces/${deployment.ns!}/configmaps`, {
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name: "loose" },
    });
    const loose = await cli("trace", "configmap", "loose", "-n", deployment.ns!);
    expect(loose.code).toBe(1);
    expect(loose.stderr).toBe(
      "✗ object not managed by Flux: ConfigMap/loose has no kustomize.toolkit.fluxcd.io/name or helm.toolkit.fluxcd.io/name label\n",
    );
    const none = await cli("trace");
    expect(none.stderr).toBe("✗ either `<resource>/<name>` or `<resource> <name>` is required as an argument\n");
  });
});

describe("flotilla stats and check", () => {
  let ns: string;
  beforeAll(async () => {
    ns = await testNamespace(mgmt.client, "cli-stats");
    await createObjects("trace/helmrelease.yaml", {
      ns,
      fluxns: ns,
      kustomizationLastReconcile: "",
      gitRepositoryLastReconcile: "",
    });
    await mgmt.client.patch(
      `/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/${ns}/kustomizations/infrastructure`,
      "merge",
      { spec: { suspend: true } },
    );
  }, 60_000);

  it("stats counts running, failing and suspended objects per kind, and their artifact storage", async () => {
    const r = await cli("stats", "-n", ns);
    expect(r.code, r.stderr).toBe(0);
    const rows = Object.fromEntries(
      r.stdout
        .trimEnd()
        .split("\n")
        .map((l) => {
          const c = l.split("\t").map((x) => x.trim());
          return [c[0], c.slice(1, 5)];
        }),
    );
    expect(rows.RECONCILERS).toEqual(["RUNNING", "FAILING", "SUSPENDED", "STORAGE"]);
    expect(rows.GitRepository).toEqual(["1", "0", "0", "-"]);
    expect(rows.Kustomization).toEqual(["0", "0", "1", "-"]);
    expect(rows.HelmRelease).toEqual(["1", "0", "0", "-"]);
    expect(rows.ImageRepository).toEqual(["0", "0", "0", "-"]);
  });

  it("check --pre prints flux's golden for this server's version", async () => {
    const v = await mgmt.client.get<{ gitVersion: string }>("/version");
    const r = await cli("check", "--pre");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(golden("check/check_pre.golden", { serverVersion: v.gitVersion.replace(/^v/, "") }));
  });

  it("check names what is missing (no controller ever ran here), then passes once a controller holds the lease", async () => {
    const missing = await cli("check", "-n", ns);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`✗ no flotilla controller has run in the '${ns}' namespace`);
    expect(missing.stderr).toMatch(/✔ kustomizations\.kustomize\.toolkit\.fluxcd\.io\/v1\n/);
    expect(missing.stderr.endsWith("✗ check failed\n")).toBe(true);
    controller = startController({ namespace: ns, shard: ns, storagePath: makeWorkDir("flotilla-check-") });
    await controller.healthUrl();
    const ok = await eventually("check to pass", async () => {
      const r = await cli("check", "-n", ns);
      return r.code === 0 ? r : undefined;
    });
    expect(ok.stderr).toMatch(
      /► checking controllers\n✔ flotilla controller: leader \S+ renewed .* ago\n► checking crds\n/,
    );
    expect(ok.stderr.endsWith("✔ all checks passed\n")).toBe(true);
  });
});

describe("flotilla logs", () => {
  it("prints the controller's own log lines as flux logs does, filtered by kind, name, level and namespace", async () => {
    const ns = await testNamespace(mgmt.client, "cli-logs");
    const c = startController({ namespace: ns, shard: ns, storagePath: makeWorkDir("flotilla-logs-") });
    try {
      await mgmt.client.create(`/apis/source.toolkit.fluxcd.io/v1/namespaces/${ns}/gitrepositories`, {
        apiVersion: "source.toolkit.fluxcd.io/v1",
        kind: "GitRepository",
        metadata: { name: "unreachable", namespace: ns, labels: { "flotilla.dev/shard": ns } },
        spec: { url: "http://127.0.0.1:9/nothing.git", interval: "10m", ref: { branch: "main" } },
      });
      await eventually("the controller to log about the GitRepository", async () =>
        c.logs.some((l) => l.name === "unreachable"),
      );
      const file = join(makeWorkDir("flotilla-logs-file-"), "controller.log");
      writeFileSync(file, c.logs.map((l) => JSON.stringify(l)).join("\n") + "\nnot json\n");
      const r = await cli("logs", "--log-file", file, "-n", ns, "--kind", "gitrepository", "--name", "unreachable");
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.trimEnd().split("\n");
      expect(lines.length).toBeGreaterThan(0);
      for (const l of lines)
        expect(l).toMatch(
          new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\S+ (info|debug|error) GitRepository/unreachable\\.${ns} - `),
        );
      const other = await cli("logs", "--log-file", file, "-n", "default");
      expect(other.stdout).toBe("");
      const errorsOnly = await cli("logs", "--log-file", file, "-A", "--level", "error");
      for (const l of errorsOnly.stdout.trimEnd().split("\n").filter(Boolean)) expect(l).toMatch(/^\S+ error /);
    } finally {
      c.child.kill("SIGKILL");
    }
  });

  it("without --log-file reads the controller pods, and says so when there are none", async () => {
    const r = await cli("logs", "--flux-namespace", "default");
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      "✗ no flotilla controller pods in the 'default' namespace: pass --flux-namespace, or --log-file for a controller run as a process\n",
    );
  });
});
