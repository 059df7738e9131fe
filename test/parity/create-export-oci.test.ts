// `flotilla create source oci … --export` against flux's goldens (cmd/flux/testdata/oci, copied to
// test/fixtures/flux-cli/create/create_source_oci) with the args create_source_oci_test.go passes, and its
// refusals in flux's words. Two things of flux's test harness are put back as the real binary has them:
// resetCmdArgs zeroes the flags between cases, so its goldens carry `interval: 0s` where the case passes no
// --interval (the same bytes come out with --interval=0s) and lack the --provider default, `generic`, that
// the real `flux` writes (one `provider: generic` line, sorted between interval/layerSelector and ref).
// The real binary runs each time (bin/flotilla.js; no cluster is needed for --export).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const FIXTURES = "test/fixtures/flux-cli/create/create_source_oci";
const URL = "--url=oci://ghcr.io/stefanprodan/manifests/podinfo --tag=6.3.5";

/** The golden as the real flux binary prints it: its default provider in place. */
const asRealFlux = (file: string) => {
  const golden = readFileSync(join(FIXTURES, file), "utf8");
  expect(golden).toContain("\n  ref:\n");
  return golden.replace("\n  ref:\n", "\n  provider: generic\n  ref:\n");
};

function flotilla(args: string) {
  // flux's tests split args on spaces (no shell); so does this.
  const r = spawnSync(process.execPath, ["bin/flotilla.js", ...args.split(" ").filter(Boolean)], {
    encoding: "utf8",
    env: { ...process.env, KUBECONFIG: "/nonexistent" },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("create source oci --export prints flux's OCIRepository goldens", () => {
  it.each([
    [`${URL} --interval 10m`, "export.golden"],
    [`${URL} --interval 10m --secret-ref=creds`, "export_with_secret.golden"],
    [
      `${URL} --interval 10m --verify-provider=cosign --verify-secret-ref=cosign-pub`,
      "export_with_verify_secret.golden",
    ],
    [
      `${URL} --interval 10m --layer-selector=application/vnd.cncf.helm.chart.content.v1.tar+gzip:copy`,
      "export_with_layer_selector.golden",
    ],
    [`${URL} --verify-issuer=github --verify-provider=cosign --interval=0s`, "export_with_issuer.golden"],
    [`${URL} --verify-subject=stefanprodan --verify-provider=cosign --interval=0s`, "export_with_subject.golden"],
    [
      `${URL} --verify-issuer=github --verify-subject=stefanprodan --verify-provider=cosign --interval=0s`,
      "export_with_complete_verification.golden",
    ],
  ])("flotilla create source oci podinfo %s --export", (args, file) => {
    const r = flotilla(`create source oci podinfo ${args} --export`);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(asRealFlux(file));
  });

  it("writes every other field flux's create_source_oci.go sets, sorted as sigs.k8s.io/yaml prints them", () => {
    const r = flotilla(
      "create source oci apps --url=oci://127.0.0.1:5000/fleet/apps --tag-semver=>=1.0.0 --digest=sha256:" +
        "a".repeat(64) +
        " --proxy-secret-ref=proxy --service-account=puller --cert-ref=ca --ignore-paths=*.md,docs/ --insecure" +
        " --provider=generic --fetch-timeout=90s --label=team=a -n apps --export",
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      "---\napiVersion: source.toolkit.fluxcd.io/v1\nkind: OCIRepository\nmetadata:\n  labels:\n    team: a\n" +
        "  name: apps\n  namespace: apps\nspec:\n  certSecretRef:\n    name: ca\n  ignore: |-\n    *.md\n    docs/\n" +
        "  insecure: true\n  interval: 1m0s\n  provider: generic\n  proxySecretRef:\n    name: proxy\n  ref:\n" +
        `    digest: sha256:${"a".repeat(64)}\n    semver: '>=1.0.0'\n  serviceAccountName: puller\n  timeout: 1m30s\n` +
        "  url: oci://127.0.0.1:5000/fleet/apps\n",
    );
  });
});

describe("create source oci refuses what flux refuses, in its words", () => {
  it.each([
    ["create source oci", "name is required"],
    ["create source oci podinfo", "url is required"],
    [
      "create source oci podinfo --url=oci://ghcr.io/stefanprodan/manifests/podinfo",
      "--tag, --tag-semver or --digest is required",
    ],
    [
      `create source oci podinfo ${URL} --verify-secret-ref=cosign-pub`,
      "a verification provider must be specified when a secret is specified",
    ],
    [
      `create source oci podinfo ${URL} --verify-issuer=github.com`,
      "a verification provider must be specified when OIDC issuer/subject is specified",
    ],
    [
      `create source oci podinfo ${URL} --verify-subject=developer`,
      "a verification provider must be specified when OIDC issuer/subject is specified",
    ],
    [
      `create source oci podinfo ${URL} --layer-selector=application/vnd.cncf.helm.chart.content.v1.tar+gzip:move --export`,
      'invalid --layer-selector "application/vnd.cncf.helm.chart.content.v1.tar+gzip:move": operation must be "extract" or "copy"',
    ],
    [
      `create source oci podinfo ${URL} --layer-selector=application/vnd.cncf.helm.chart.content.v1.tar+gzip --export`,
      `invalid --layer-selector "application/vnd.cncf.helm.chart.content.v1.tar+gzip": must be in the format '<media-type>:<operation>'`,
    ],
    [
      `create source oci podinfo ${URL} --provider=quay --export`,
      `invalid argument "quay" for "--provider" flag: source OCI provider 'quay' is not supported, must be one of: generic, aws, azure, gcp`,
    ],
    [
      `create source oci podinfo ${URL} --verify-provider=notation --export`,
      `invalid argument "notation" for "--verify-provider" flag: source OCI verify provider 'notation' is not supported, must be one of: cosign`,
    ],
  ])("flotilla %s", (args, message) => {
    const r = flotilla(args);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`✗ ${message}\n`);
  });
});
