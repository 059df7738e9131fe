// HelmRelease spec.healthCheckExprs with the poller (decision 0047): a chart installs a custom resource
// (its CRD in the chart's crds/) whose readiness only an expression decides. The install waits — its
// release held pending-install in Helm's storage — until the test writes the status that makes
// `current` true, then the release is Ready; a `failed` expression turning true fails the install at
// once, as helm-controller reports it, naming the expression. The test plays the CR's controller.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HelmRelease } from "../../src/api/helm/helmrelease.js";
import type { KubeObject } from "../../src/api/meta/object.js";
import { eventually, planeCluster } from "../support/fleet-context.js";
import { condOf, type HelmReleaseEnv, startHelmReleaseEnv } from "../support/helmrelease-env.js";

const GROUP = "poller.flotilla.example.com";
const CRD_NAME = `widgets.${GROUP}`;
const mgmt = planeCluster("management");
let env: HelmReleaseEnv;

const CRD = {
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
const WIDGET = [
  `apiVersion: ${GROUP}/v1`,
  "kind: Widget",
  "metadata:",
  "  name: {{ .Release.Name }}",
  "spec:",
  "  size: 1",
  "",
].join("\n");
const EXPRS = [
  {
    apiVersion: `${GROUP}/v1`,
    kind: "Widget",
    current: "status.?phase.orValue('') == 'Ready'",
    failed: "status.?phase.orValue('') == 'Broken'",
  },
];

const widgetPath = (name: string) => `/apis/${GROUP}/v1/namespaces/${env.ns}/widgets/${name}`;
const setPhase = (name: string, phase: string) =>
  mgmt.client.patch(`${widgetPath(name)}/status`, "merge", { status: { phase } });
/** Helm's storage says the install is still running: the release's first revision is pending-install. */
const pendingInstall = async (release: string) => {
  const secrets = await mgmt.list({ group: "", version: "v1", kind: "Secret" }, env.ns, {
    labelSelector: `owner=helm,name=${release},status=pending-install`,
  });
  return secrets.length === 1;
};
/**
 * The install is waiting on the Widget: it exists, Helm holds the release pending-install, and the
 * HelmRelease says so (Reconciling=True running 'install', Ready=Unknown), as helm-controller's does.
 */
const waitingOnWidget = (name: string) => {
  let seen: unknown;
  return eventually(
    `HelmRelease ${name}'s install waiting on its Widget`,
    async () => {
      const widget = await mgmt.client.get<KubeObject>(widgetPath(name)).catch(() => undefined);
      const hr = await env.hr(name);
      const pending = await pendingInstall(name);
      seen = { widget: !!widget, pending, conditions: hr.status?.conditions };
      const running = condOf(hr, "Reconciling")?.message?.startsWith("Running 'install' action");
      return widget && pending && running && condOf(hr, "Ready")?.status === "Unknown" ? hr : undefined;
    },
    90_000,
    1000,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; last seen: ${JSON.stringify(seen)}`);
  });
};

beforeAll(async () => {
  env = await startHelmReleaseEnv("hr-poller");
  await env.charts.addChart("widget", "1.0.0", {
    files: {
      "templates/configmap.yaml": null,
      "templates/widget.yaml": WIDGET,
      "crds/widget.yaml": JSON.stringify(CRD),
    },
  });
  const spec = (timeout: string) => ({ timeout, waitStrategy: { name: "poller" }, healthCheckExprs: EXPRS });
  // Both releases wait at once: the file takes as long as the slower one.
  await env.createRelease("ready", { name: "widget", version: "1.0.0" }, spec("3m"));
  await env.createRelease("broken", { name: "widget", version: "1.0.0" }, spec("3m"));
});

afterAll(async () => {
  await env?.stop();
  await mgmt.client.delete(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${CRD_NAME}`).catch(() => {});
});

describe("HelmRelease healthCheckExprs with the poller", () => {
  it("holds the install not Ready until the custom resource's `current` expression is true, then is Ready", async () => {
    const waiting = await waitingOnWidget("ready");
    expect(condOf(waiting, "Ready")?.message).toBe("Reconciliation in progress");
    await setPhase("ready", "Ready");
    const ready: HelmRelease = await env.waitReady("ready", "True", 120_000);
    expect(condOf(ready, "Released")).toMatchObject({ status: "True", reason: "InstallSucceeded" });
    expect(ready.status?.history?.[0]?.status).toBe("deployed");
  }, 240_000);

  it("fails the install at once when the `failed` expression turns true, naming the Widget and the expression", async () => {
    await waitingOnWidget("broken");
    await setPhase("broken", "Broken");
    const failed = await env.waitReady("broken", "False", 120_000);
    const ready = condOf(failed, "Ready")!;
    expect(ready.reason).toBe("InstallFailed");
    expect(ready.message).toMatch(
      new RegExp(
        `^Helm install failed for release ${env.ns}/broken with chart widget@1\\.0\\.0: (Error: )?failed early due to stalled resources: \\[`,
      ),
    );
    expect(ready.message).toContain(
      `Widget/${env.ns}/broken status: 'Failed': healthCheckExprs failed is true: status.?phase.orValue('') == 'Broken'`,
    );
    // helm recorded the failed action itself, as helm-controller's does: the history says failed.
    expect(failed.status?.history?.[0]?.status).toBe("failed");
    expect(condOf(failed, "Released")).toMatchObject({ status: "False", reason: "InstallFailed" });
  }, 240_000);
});
