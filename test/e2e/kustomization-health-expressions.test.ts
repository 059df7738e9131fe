// spec.healthCheckExprs: CEL expressions judge a custom resource's health instead of kstatus, and the
// Kustomization's Ready follows them. The test installs its own CRD (Widget, with a status
// subresource) and moves a Widget's status.phase by hand, as its controller would.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KubeObject } from "../../src/api/meta/object.js";
import { eventually } from "../support/fleet-context.js";
import { type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";

let h: KustomizeHarness;
const GROUP = "cel.flotilla.example.com";
const CRD_NAME = `widgets.${GROUP}`;
const widgetPath = (name: string) => `/apis/${GROUP}/v1/namespaces/${h.ns}/widgets/${name}`;
const widget = (name: string) =>
  JSON.stringify({ apiVersion: `${GROUP}/v1`, kind: "Widget", metadata: { name, namespace: h.ns }, spec: { size: 1 } });
const setPhase = (name: string, phase: string) =>
  h.mgmt.client.patch(`${widgetPath(name)}/status`, "merge", { status: { phase } });
const widgetExists = (name: string) =>
  eventually(`Widget ${name} applied`, () => h.mgmt.client.get(widgetPath(name)).then(() => true));
const EXPRS = [
  {
    apiVersion: `${GROUP}/v1`,
    kind: "Widget",
    current: "status.?phase.orValue('') == 'Ready'",
    failed: "status.?phase.orValue('') == 'Broken'",
  },
];

beforeAll(async () => {
  h = await startKustomizeHarness({ prefix: "cel" });
  const crd = {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: CRD_NAME },
    spec: {
      group: GROUP,
      scope: "Namespaced",
      names: { kind: "Widget", plural: "widgets", singular: "widget", listKind: "WidgetList" },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          subresources: { status: {} },
          schema: {
            openAPIV3Schema: {
              type: "object",
              properties: {
                spec: { type: "object", properties: { size: { type: "integer" } } },
                status: { type: "object", properties: { phase: { type: "string" } } },
              },
            },
          },
        },
      ],
    },
  };
  await h.mgmt.apply(crd as unknown as KubeObject, "flotilla-test", { force: true });
  await h.mgmt.discovery.waitForMapping({ group: GROUP, version: "v1", kind: "Widget" }, 30_000);
  await h.commit(
    {
      "healthy/widget.yaml": widget("healthy-widget"),
      "broken/widget.yaml": widget("broken-widget"),
      "bad-expr/widget.yaml": widget("never-applied"),
    },
    "widgets",
  );
});

afterAll(async () => {
  await h?.stop();
  await h?.mgmt.client.delete(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${CRD_NAME}`).catch(() => {});
});

describe("Kustomization healthCheckExprs", () => {
  it("holds Ready until `current` is true for the custom resource, where kstatus alone would call it ready", async () => {
    await h.createKs("healthy", { path: "./healthy", wait: true, timeout: "10s", healthCheckExprs: EXPRS });
    // kstatus calls a Widget without status Current; the expressions keep it InProgress until the timeout
    // (with no status at all they cannot even be evaluated, as in Flux, and the message says so).
    const waited = await h.waitNotReady("healthy", "HealthCheckFailed", 90_000);
    expect(waited.message).toContain(`Widget/${h.ns}/healthy-widget status: 'InProgress': healthCheckExprs`);
    expect(waited.message).toContain("could not be evaluated: Unknown variable: status");

    await setPhase("healthy-widget", "Ready");
    await h.reconcileNow("healthy");
    const ready = await h.waitReady("healthy", 90_000);
    const healthy = ready.status?.conditions?.find((c) => c.type === "Healthy");
    expect([healthy?.status, healthy?.message]).toEqual(["True", "Health check passed"]);
  });

  it("fails the health check when `failed` is true, naming the object, and recovers when `current` becomes true", async () => {
    await h.createKs("broken", { path: "./broken", wait: true, timeout: "20s", healthCheckExprs: EXPRS });
    await widgetExists("broken-widget");
    await setPhase("broken-widget", "Broken");
    const failed = await h.waitNotReady("broken", "HealthCheckFailed", 90_000);
    expect(failed.message).toContain(`Widget/${h.ns}/broken-widget status: 'Failed'`);
    expect(failed.message).toContain("healthCheckExprs failed is true: status.?phase.orValue('') == 'Broken'");

    await setPhase("broken-widget", "Ready");
    await h.reconcileNow("broken");
    await h.waitReady("broken", 90_000);
  });

  it("an expression that does not parse is Stalled (InvalidCELExpression) naming it, and nothing is applied", async () => {
    await h.createKs("bad-expr", {
      path: "./bad-expr",
      wait: true,
      healthCheckExprs: [{ apiVersion: `${GROUP}/v1`, kind: "Widget", current: "status.phase ==" }],
    });
    const stalled = await h.waitNotReady("bad-expr", "InvalidCELExpression");
    expect(stalled.message).toMatch(
      /^Reconciliation failed terminally due to configuration error: healthCheckExprs\[0\]\.current: failed to parse the CEL expression 'status\.phase ==': /,
    );
    const k = await h.getKs("bad-expr");
    expect(k.status?.conditions?.find((c) => c.type === "Stalled")?.status).toBe("True");
    // Refused before the source was even fetched: no revision attempted, the Widget never applied.
    expect(k.status?.lastAttemptedRevision).toBeUndefined();
    await expect(h.mgmt.client.get(widgetPath("never-applied"))).rejects.toThrow();
  });
});
