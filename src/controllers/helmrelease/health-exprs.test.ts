import { describe, expect, it } from "vitest";
import type { HelmRelease, HelmReleaseSpec } from "../../api/helm/helmrelease.js";
import type { KubeObject } from "../../api/meta/object.js";
import { ReconcileFailure } from "../kit/failure.js";
import { pollerExpressions } from "./health-exprs.js";

const hr = (spec: Partial<HelmReleaseSpec>): HelmRelease => ({
  apiVersion: "helm.toolkit.fluxcd.io/v2",
  kind: "HelmRelease",
  metadata: { name: "app", namespace: "apps" },
  spec: { interval: "5m", ...spec },
});
const widget = (phase?: string): KubeObject =>
  ({
    apiVersion: "example.com/v1",
    kind: "Widget",
    metadata: { name: "w", namespace: "apps" },
    ...(phase ? { status: { phase } } : {}),
  }) as KubeObject;
const EXPRS = [
  {
    apiVersion: "example.com/v1",
    kind: "Widget",
    current: "status.?phase.orValue('') == 'Ready'",
    failed: "status.?phase.orValue('') == 'Broken'",
  },
];

describe("HelmRelease healthCheckExprs for the poller", () => {
  it("judges the kinds they name (InProgress, Current, Failed naming the expression) and leaves others to kstatus", () => {
    const judge = pollerExpressions(hr({ healthCheckExprs: EXPRS }))!;
    expect(judge(widget())?.status).toBe("InProgress");
    expect(judge(widget("Ready"))?.status).toBe("Current");
    expect(judge(widget("Broken"))).toEqual({
      status: "Failed",
      message: "healthCheckExprs failed is true: status.?phase.orValue('') == 'Broken'",
    });
    expect(judge({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "c" } })).toBeUndefined();
  });

  it("are not read under waitStrategy legacy, nor when there are none", () => {
    expect(pollerExpressions(hr({ healthCheckExprs: EXPRS, waitStrategy: { name: "legacy" } }))).toBeUndefined();
    expect(pollerExpressions(hr({}))).toBeUndefined();
  });

  it("stall the reconcile as InvalidCELExpression when one does not parse, naming it", () => {
    const bad = [{ apiVersion: "example.com/v1", kind: "Widget", current: "status.phase ==" }];
    let failure: unknown;
    try {
      pollerExpressions(hr({ healthCheckExprs: bad }));
    } catch (err) {
      failure = err;
    }
    expect(failure).toBeInstanceOf(ReconcileFailure);
    const f = failure as ReconcileFailure;
    expect([f.reason, f.stalled]).toEqual(["InvalidCELExpression", true]);
    expect(f.message).toMatch(
      /^Reconciliation failed terminally due to configuration error: healthCheckExprs\[0\]\.current: /,
    );
  });
});
