import { describe, expect, it } from "vitest";
import type { HelmRelease } from "../../api/helm/helmrelease.js";
import { chartRefOf, helmChartFromTemplate, refuseCrossNamespace } from "./chart-source.js";

const hr = (sourceNamespace?: string): HelmRelease => ({
  apiVersion: "helm.toolkit.fluxcd.io/v2",
  kind: "HelmRelease",
  metadata: { name: "tenant1-cert-manager", namespace: "tenants" },
  spec: {
    interval: "5m",
    chart: {
      metadata: { labels: { team: "a" } },
      spec: {
        chart: "cert-manager",
        version: "v1.10.1",
        sourceRef: { kind: "HelmRepository", name: "jetstack", namespace: sourceNamespace },
      },
    },
  },
});

describe("the chart of a HelmRelease", () => {
  it("is the HelmChart <ns>-<name> in the source's namespace, with the template's labels", () => {
    expect(chartRefOf(hr("flux-system"))).toEqual({ name: "tenants-tenant1-cert-manager", namespace: "flux-system" });
    const chart = helmChartFromTemplate(hr("flux-system"));
    expect(chart.metadata.labels).toEqual({ team: "a" });
    expect(chart.spec).toMatchObject({ chart: "cert-manager", version: "v1.10.1", interval: "5m" });
  });

  it("refuses a source in another namespace under --no-cross-namespace-refs, naming it", () => {
    expect(() => refuseCrossNamespace(hr("flux-system"), true)).toThrow(
      "can't access 'HelmRepository/flux-system/jetstack', cross-namespace references have been blocked",
    );
    expect(() => refuseCrossNamespace(hr("tenants"), true)).not.toThrow();
    expect(() => refuseCrossNamespace(hr("flux-system"), false)).not.toThrow();
  });
});
