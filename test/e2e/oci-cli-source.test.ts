// `flotilla create|get|reconcile|suspend|resume|delete source oci` against flux's goldens
// (cmd/flux/testdata/oci, the sequence of source_oci_test.go), with the OCIRepository controller
// reconciling on the management plane and the artifact pushed by `flotilla push artifact` to a real
// registry on loopback; then `get sources all`, `export source oci` and `reconcile ks --with-source`.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { runCli } from "../support/cli.js";
import { plane } from "../support/fleet-context.js";
import { fluxGolden } from "../support/flux-cli-fixtures.js";
import { type OciEnv, startOciEnv } from "../support/oci-env.js";
import { type OciRegistry, startOciRegistry } from "../support/oci-registry.js";

// podinfo 6.3.5's manifest digest in flux's goldens; here, the digest of the artifact pushed below.
const FLUX_DIGEST = "6c959c51ccbb952e5fe4737563338a0aaf975675dcf812912cf09e5463181871";
let reg: OciRegistry;
let env: OciEnv;
let digest: string;

const cli = (...args: string[]) => runCli([...args, "--kubeconfig", plane("management").kubeconfig, "-n", env.ns]);
const golden = (file: string) =>
  fluxGolden(`oci/${file}`, "")
    .replaceAll("{{ .ns }}", env.ns)
    .replaceAll(FLUX_DIGEST, digest)
    .replaceAll(FLUX_DIGEST.slice(0, 8), digest.slice(0, 8)); // get's truncated revision

beforeAll(async () => {
  reg = await startOciRegistry();
  env = await startOciEnv({ prefix: "oci-cli-source" });
  const dir = makeWorkDir("oci-cli-source-");
  mkdirSync(join(dir, "deploy"));
  writeFileSync(join(dir, "deploy", "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: podinfo\n");
  const url = `${reg.url}/stefanprodan/manifests/podinfo:6.3.5`;
  const push = await runCli(["push", "artifact", url, "-f", dir, "--source=s", "--revision=6.3.5", "-o", "json"]);
  expect(push.code, push.stderr).toBe(0);
  digest = (JSON.parse(push.stdout) as { digest: string }).digest.replace("sha256:", "");
}, 120_000);

afterAll(async () => {
  await env?.stop();
  await reg?.stop();
});

describe("source oci, flux's source_oci_test.go sequence against its goldens", () => {
  it("create, get, reconcile, suspend, resume and delete print what flux prints", async () => {
    const steps: [string[], string][] = [
      [
        ["create", "source", "oci", "thrfg", `--url=${reg.url}/stefanprodan/manifests/podinfo`, "--tag=6.3.5", "--interval", "10m"],
        "create_source_oci.golden",
      ],
      [["get", "source", "oci", "thrfg"], "get_oci.golden"],
      [["reconcile", "source", "oci", "thrfg"], "reconcile_oci.golden"],
      [["suspend", "source", "oci", "thrfg"], "suspend_oci.golden"],
      [["resume", "source", "oci", "thrfg"], "resume_oci.golden"],
    ]; // prettier-ignore
    for (const [args, file] of steps) {
      const r = await cli(...args);
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(0);
      expect(r.stderr + r.stdout, args.join(" ")).toBe(golden(file));
    }
  });

  it("get sources all lists OCIRepositories first, as flux's get_source_all.go; export source oci prints the spec (the CRD's 60s timeout as Go prints it)", async () => {
    const all = await cli("get", "sources", "all");
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout.split("\n")[1]).toMatch(/^ocirepository\/thrfg\s*\t6\.3\.5@sha256:[a-f0-9]{8}\s*\tFalse/);
    const exported = await cli("export", "source", "oci", "thrfg");
    expect(exported.code, exported.stderr).toBe(0);
    // flux exports annotations too: the reconcile above left its requestedAt.
    const requestedAt = (await env.getOci("thrfg")).metadata.annotations!["reconcile.fluxcd.io/requestedAt"];
    expect(exported.stdout).toBe(
      `---\napiVersion: source.toolkit.fluxcd.io/v1\nkind: OCIRepository\nmetadata:\n  annotations:\n` +
        `    reconcile.fluxcd.io/requestedAt: "${requestedAt}"\n  name: thrfg\n  namespace: ${env.ns}\n` +
        `spec:\n  interval: 10m0s\n  provider: generic\n  ref:\n    tag: 6.3.5\n  timeout: 1m0s\n` +
        `  url: ${reg.url}/stefanprodan/manifests/podinfo\n`,
    );
  });

  it("reconcile ks --with-source reconciles its OCIRepository first", async () => {
    await env.createKs("from-oci", {
      targetNamespace: env.ns,
      sourceRef: { kind: "OCIRepository", name: "thrfg" },
      path: "./deploy",
      prune: true,
      interval: "10m",
    });
    const r = await cli("reconcile", "ks", "from-oci", "--with-source");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split("\n").slice(0, 4)).toEqual([
      `► annotating OCIRepository thrfg in ${env.ns} namespace`,
      "✔ OCIRepository annotated",
      "◎ waiting for OCIRepository reconciliation",
      `✔ fetched revision 6.3.5@sha256:${digest}`,
    ]);
  });

  it("delete --silent removes it with flux's lines", async () => {
    const r = await cli("delete", "source", "oci", "thrfg", "--silent");
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr + r.stdout).toBe(golden("delete_oci.golden"));
  });
});
