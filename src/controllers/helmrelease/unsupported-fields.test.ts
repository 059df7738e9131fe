import { describe, expect, it } from "vitest";
import type { HelmRelease, HelmReleaseSpec } from "../../api/helm/helmrelease.js";
import { UNSUPPORTED_FIELD, unsupportedField } from "../kit/unsupported.js";
import { useHelmEngine } from "./actions/run-action.js";
import { HELM_RELEASE_UNSUPPORTED } from "./unsupported-fields.js";

const chart = { spec: { chart: "app", sourceRef: { kind: "HelmRepository" as const, name: "repo" } } };
const hr = (spec: Partial<HelmReleaseSpec>, namespace = "tenants"): HelmRelease => ({
  apiVersion: "helm.toolkit.fluxcd.io/v2",
  kind: "HelmRelease",
  metadata: { name: "app", namespace },
  spec: { interval: "5m", chart, ...spec },
});
const refusal = (spec: Partial<HelmReleaseSpec>, namespace?: string) =>
  unsupportedField(hr(spec, namespace), HELM_RELEASE_UNSUPPORTED);
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("HelmRelease fields flotilla does not implement", () => {
  it.each([
    [{ kubeConfig: { configMapRef: { name: "eks" } } }, "spec.kubeConfig.configMapRef"],
    [{ chart: undefined, chartRef: { kind: "ExternalArtifact", name: "a" } }, "spec.chartRef.kind 'ExternalArtifact'"],
    [
      { chart: { spec: { ...chart.spec, sourceRef: { kind: "Bucket", name: "b" } } } },
      "spec.chart.spec.sourceRef.kind 'Bucket'",
    ],
    [
      { chart: { spec: { ...chart.spec, verify: { provider: "notation" } } } },
      "spec.chart.spec.verify (provider 'notation')",
    ],
    [{ postRenderStrategy: "nohooks" }, "spec.postRenderStrategy 'nohooks'"],
    [{ postRenderStrategy: "separate" }, "spec.postRenderStrategy 'separate'"],
    [{ upgrade: { chartNameChangeStrategy: "InPlaceUpdate" } }, "spec.upgrade.chartNameChangeStrategy 'InPlaceUpdate'"],
  ] as [Partial<HelmReleaseSpec>, string][])(
    "stalls a HelmRelease with %o, naming %s and what to do",
    (spec, named) => {
      const failure = refusal(spec);
      expect([failure?.reason, failure?.stalled]).toEqual([UNSUPPORTED_FIELD, true]);
      expect(failure?.message).toMatch(new RegExp(`^${escape(named)} is not supported by flotilla: \\S`));
    },
  );

  it("refuses a storageNamespace other than the target namespace, naming both and saying to remove it", () => {
    expect(refusal({ targetNamespace: "default", storageNamespace: "tenants" })?.message).toBe(
      "spec.storageNamespace 'tenants' (the release's target namespace is 'default') is not supported by flotilla: " +
        "remove spec.storageNamespace; flotilla stores the Helm release in its target namespace, because helm's CLI " +
        "keeps a release in the namespace it installs to",
    );
    // Without targetNamespace the target is the HelmRelease's own namespace.
    expect(refusal({ storageNamespace: "elsewhere" }, "apps")?.message).toMatch(
      /^spec\.storageNamespace 'elsewhere' \(the release's target namespace is 'apps'\)/,
    );
  });

  it("accepts a storageNamespace equal to the target namespace, and none at all", () => {
    expect(refusal({ targetNamespace: "default", storageNamespace: "default" })).toBeUndefined();
    expect(refusal({ storageNamespace: "apps" }, "apps")).toBeUndefined();
    expect(refusal({ targetNamespace: "default" })).toBeUndefined();
  });

  it("passes every field flotilla implements or accepts as harmless, and the Kamaji guide's HelmRelease", () => {
    const kamaji = {
      kubeConfig: { secretRef: { name: "tenant1-admin-kubeconfig", key: "admin.conf" } },
      targetNamespace: "default",
      values: { replicaCount: 2 },
    };
    expect(refusal(kamaji)).toBeUndefined();
    const everything: Partial<HelmReleaseSpec> = {
      ...kamaji,
      dependsOn: [{ name: "base", readyExpr: "dep.status.conditions.size() > 0" }],
      test: { enable: true, filters: [{ name: "smoke", exclude: true }] },
      install: { serverSideApply: false, crds: "CreateReplace", createNamespace: true },
      upgrade: { serverSideApply: "disabled", chartNameChangeStrategy: "Reinstall" },
      rollback: { serverSideApply: "enabled", recreate: true },
      persistentClient: false,
      postRenderStrategy: "combined",
      waitStrategy: { name: "poller" },
      healthCheckExprs: [{ apiVersion: "example.com/v1", kind: "Widget", current: "status.ready" }],
      driftDetection: { mode: "enabled" },
      commonMetadata: { labels: { a: "b" } },
      postRenderers: [{ kustomize: { patches: [{ patch: "p" }] } }],
    };
    expect(refusal(everything)).toBeUndefined();
    expect(refusal({ chart: undefined, chartRef: { kind: "HelmChart", name: "c" } })).toBeUndefined();
  });

  it("refuses healthCheckExprs only when helm actions run as processes (--helm-engine=false), naming the flag", () => {
    const exprs = { healthCheckExprs: [{ apiVersion: "example.com/v1", kind: "Widget", current: "status.ready" }] };
    useHelmEngine(false);
    try {
      expect(refusal(exprs)?.message).toMatch(
        /^spec\.healthCheckExprs \(the controller runs with --helm-engine=false\) is not supported by flotilla: run the HelmRelease controller with the resident helm engine/,
      );
      // Under legacy helm-controller never reads them (only the poller does): nothing to refuse.
      expect(refusal({ ...exprs, waitStrategy: { name: "legacy" } })).toBeUndefined();
    } finally {
      useHelmEngine(true);
    }
    expect(refusal(exprs)).toBeUndefined();
  });
});
