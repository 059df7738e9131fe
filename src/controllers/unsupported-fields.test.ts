import { describe, expect, it } from "vitest";
import type { KustomizationSpec } from "../api/kustomize/kustomization.js";
import type { GitRepositorySpec } from "../api/source/git-repository.js";
import type { HelmChart, HelmRepository } from "../api/source/helm.js";
import { GIT_REPOSITORY_UNSUPPORTED } from "./gitrepository/unsupported-fields.js";
import { HELM_CHART_UNSUPPORTED } from "./helmchart/unsupported-fields.js";
import { HELM_REPOSITORY_UNSUPPORTED } from "./helmrepository/unsupported-fields.js";
import { KUSTOMIZATION_UNSUPPORTED } from "./kustomization/unsupported-fields.js";
import { UNSUPPORTED_FIELD, unsupportedField } from "./kit/unsupported.js";

const ks = (extra: Partial<KustomizationSpec>): KustomizationSpec => ({
  sourceRef: { kind: "GitRepository", name: "repo" },
  interval: "10m",
  prune: true,
  ...extra,
});

describe("Flux fields flotilla does not implement", () => {
  it("stalls a Kustomization with kubeConfig.configMapRef, naming the field and the way out", () => {
    const failure = unsupportedField(ks({ kubeConfig: { configMapRef: { name: "eks" } } }), KUSTOMIZATION_UNSUPPORTED);
    expect(failure?.reason).toBe(UNSUPPORTED_FIELD);
    expect(failure?.stalled).toBe(true);
    expect(failure?.message).toMatch(
      /^spec\.kubeConfig\.configMapRef is not supported by flotilla: put the remote cluster's kubeconfig in a Secret and name it in spec\.kubeConfig\.secretRef/,
    );
  });

  it("no longer refuses spec.decryption: SOPS decryption is implemented (decision 0036)", () => {
    expect(unsupportedField(ks({ decryption: { provider: "sops" } }), KUSTOMIZATION_UNSUPPORTED)).toBeUndefined();
  });

  it.each([
    [{ ignore: [{ paths: ["/spec/replicas"] }] }, "spec.ignore"],
    [{ sourceRef: { kind: "ExternalArtifact", name: "a" } }, "spec.sourceRef.kind 'ExternalArtifact'"],
  ] as [Partial<KustomizationSpec>, string][])("refuses Kustomization %o as %s", (extra, named) => {
    expect(unsupportedField(ks(extra), KUSTOMIZATION_UNSUPPORTED)?.message).toMatch(
      new RegExp(`^${named.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is not supported by flotilla: `),
    );
  });

  it("passes every implemented Kustomization field", () => {
    const spec = ks({
      kubeConfig: { secretRef: { name: "remote", key: "value" } },
      healthCheckExprs: [{ apiVersion: "v1", kind: "ConfigMap", current: "true" }],
      ignoreMissingComponents: true,
      postBuild: { substitute: { a: "b" }, substituteStrategy: "Always" },
      dependsOn: [{ name: "infra", readyExpr: "dep.status.lastAppliedRevision != ''" }],
      healthChecks: [{ kind: "Deployment", name: "web" }],
      components: ["../c"],
      wait: true,
      force: true,
      deletionPolicy: "Delete",
    });
    expect(unsupportedField(spec, KUSTOMIZATION_UNSUPPORTED)).toBeUndefined();
  });

  it("stalls an oci:// URL on a default-type HelmRepository, and leaves an OCI HelmRepository to its HelmCharts", () => {
    const repo = (spec: Partial<HelmRepository["spec"]>) =>
      unsupportedField({ url: "https://charts.example.com", ...spec }, HELM_REPOSITORY_UNSUPPORTED);
    expect(repo({ url: "oci://ghcr.io/org/charts" })?.message).toBe(
      "an oci:// spec.url ('oci://ghcr.io/org/charts') with spec.type 'default' is not supported by flotilla: " +
        "set spec.type: oci for a chart registry, or use an OCIRepository with a HelmRelease chartRef",
    );
    expect(repo({ type: "oci", url: "oci://ghcr.io/org/charts" })).toBeUndefined();
    expect(repo({ type: "default" })).toBeUndefined();
  });

  it("stalls a HelmChart asking for signature verification", () => {
    const chart: HelmChart["spec"] = {
      chart: "web",
      interval: "1m",
      sourceRef: { kind: "HelmRepository", name: "r" },
      verify: { provider: "cosign" },
    };
    expect(unsupportedField(chart, HELM_CHART_UNSUPPORTED)?.message).toMatch(
      /^spec\.verify \(provider 'cosign'\) is not supported by flotilla: /,
    );
    expect(unsupportedField({ ...chart, verify: undefined }, HELM_CHART_UNSUPPORTED)).toBeUndefined();
  });

  it("stalls a GitRepository using cloud-provider authentication, not a generic one", () => {
    const git = (extra: Partial<GitRepositorySpec>) =>
      unsupportedField({ url: "https://git.example.com/r.git", interval: "1m", ...extra }, GIT_REPOSITORY_UNSUPPORTED);
    expect(git({ provider: "azure" })?.message).toMatch(/^spec\.provider 'azure' is not supported by flotilla: /);
    expect(git({ provider: "generic" })).toBeUndefined();
    expect(git({})).toBeUndefined();
  });
});
