// charts/flotilla renders what `flotilla install --export` prints, object for object (deep equality of
// objects keyed by apiVersion/kind/namespace/name), for the defaults and for each install flag the
// chart has a value for. The chart adds no helm.sh/chart or app.kubernetes.io/managed-by labels (helm
// itself adds none to `template`'s output), so nothing is normalised. The one difference, and only
// with the defaults: install prints the Namespace, which helm needs before the release exists
// (`helm install --create-namespace`); createNamespace=true renders it too.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runHelm } from "../../../src/binaries/helm/run.js";
import { VERSION } from "../../../src/cli/version.js";
import { CHART, helmTemplate, installExport, NAMESPACE_KEY } from "./render.js";

describe("helm template charts/flotilla", () => {
  it("renders, with the defaults, install --export's objects but its Namespace, each equal", async () => {
    const [chart, install] = await Promise.all([helmTemplate(), installExport()]);
    const { [NAMESPACE_KEY("flux-system")]: namespace, ...rest } = install;
    expect(namespace).toBeDefined();
    expect(Object.keys(chart).sort()).toEqual(Object.keys(rest).sort());
    for (const key of Object.keys(rest)) expect(chart[key], key).toEqual(rest[key]);
  }, 60_000);

  it.each([
    ["createNamespace=true (the Namespace too)", ["--set", "createNamespace=true"], [], "flux-system"],
    ["multitenancy.enabled=true", ["--set", "createNamespace=true,multitenancy.enabled=true"], ["--multi-tenant"]],
    [
      "networkPolicies.enabled=false",
      ["--set", "createNamespace=true,networkPolicies.enabled=false"],
      ["--network-policy=false"],
    ],
    [
      "podDisruptionBudget.enabled=true",
      ["--set", "createNamespace=true,podDisruptionBudget.enabled=true"],
      ["--pod-disruption-budget"],
    ],
    [
      "imagePullSecrets={regcred}",
      ["--set", "createNamespace=true,imagePullSecrets={regcred}"],
      ["--image-pull-secret", "regcred"],
    ],
    [
      "image.repository and image.tag",
      ["--set", "createNamespace=true,image.repository=127.0.0.1:5000/mirror/flotilla,image.tag=1.2.3"],
      ["--registry", "127.0.0.1:5000/mirror", "--version", "1.2.3"],
    ],
    [
      "image.digest",
      ["--set", `createNamespace=true,image.repository=registry.test/flotilla,image.digest=sha256:${"b".repeat(64)}`],
      ["--image", `registry.test/flotilla@sha256:${"b".repeat(64)}`],
    ],
    ["another release namespace", ["--set", "createNamespace=true"], ["--namespace", "gitops"], "gitops"],
  ])(
    "with %s equals install --export with the matching flags",
    async (_what, values, flags, ns = "flux-system") => {
      const [chart, install] = await Promise.all([helmTemplate(values, ns), installExport(flags)]);
      expect(Object.keys(chart).sort()).toEqual(Object.keys(install).sort());
      for (const key of Object.keys(install)) expect(chart[key], key).toEqual(install[key]);
    },
    60_000,
  );
});

describe("charts/flotilla", () => {
  it("passes helm lint --strict", async () => {
    const r = await runHelm(["lint", "--strict", CHART]);
    expect(r.stdout).toContain("1 chart(s) linted, 0 chart(s) failed");
  }, 60_000);

  it("is versioned as flotilla (version and appVersion, the default image tag)", () => {
    const chart = readFileSync(`${CHART}/Chart.yaml`, "utf8");
    expect(chart).toMatch(new RegExp(`^version: ${VERSION.replace(/\./g, "\\.")}$`, "m"));
    expect(chart).toMatch(new RegExp(`^appVersion: "${VERSION.replace(/\./g, "\\.")}"$`, "m"));
  });
});
