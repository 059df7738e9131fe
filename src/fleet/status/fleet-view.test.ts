import { describe, expect, it } from "vitest";
import type { FleetCluster } from "../../api/fleet/cluster.js";
import { type App, fleetView } from "./fleet-view.js";

const ready = (status: string, message = "") => ({
  conditions: [{ type: "Ready", status, reason: "", message, lastTransitionTime: "" }],
});
const cluster = (name: string, status = "True"): FleetCluster =>
  ({
    metadata: { name, namespace: "fleet" },
    spec: { kubeConfig: { secretRef: { name: `${name}-kubeconfig` } } },
    status: { ...ready(status, `probe of ${name}`), kubernetesVersion: "v1.36.3" },
  }) as unknown as FleetCluster;
const app = (name: string, status: string, extra: Partial<App> = {}): App =>
  ({
    kind: "Kustomization",
    metadata: { name, namespace: "fleet", ...(extra.metadata ?? {}) },
    spec: extra.spec ?? {},
    status: { ...ready(status, `${name} is ${status}`), lastAppliedRevision: "main@sha1:abc" },
  }) as App;

describe("fleetView", () => {
  it("puts each app under its cluster — by fleet label, by kubeconfig Secret, or management — failing first", () => {
    const view = fleetView(
      [cluster("eu"), cluster("us")],
      [
        app("eu-ok", "True", { spec: { kubeConfig: { secretRef: { name: "eu-kubeconfig" } } } }),
        app("us-broken", "False", { metadata: { name: "us-broken", labels: { "fleet.flotilla.dev/cluster": "us" } } }),
        app("us-ok", "True", { metadata: { name: "us-ok", labels: { "fleet.flotilla.dev/cluster": "us" } } }),
        app("local", "True"),
        app("elsewhere", "True", { spec: { kubeConfig: { secretRef: { name: "raw" } } } }),
      ],
    );
    expect(view.map((g) => [g.cluster, g.apps.map((a) => a.name)])).toEqual([
      ["fleet/us", ["us-broken", "us-ok"]],
      ["fleet/eu", ["eu-ok"]],
      ["management", ["local"]],
      ["secret/fleet/raw", ["elsewhere"]],
    ]);
    expect(view[0]!.apps[0]).toMatchObject({
      ready: "False",
      message: "us-broken is False",
      revision: "main@sha1:abc",
    });
    expect(view[3]).toMatchObject({
      ready: "Unknown",
      message: "no Cluster object for the kubeconfig Secret fleet/raw",
    });
  });

  it("lists a cluster that is not Ready first even with nothing on it, and keeps only the apps asked for", () => {
    const view = fleetView(
      [cluster("eu"), cluster("down", "False")],
      [app("eu-ok", "True", { spec: { kubeConfig: { secretRef: { name: "eu-kubeconfig" } } } })],
      (a) => a.ready === "False",
    );
    expect(view.map((g) => [g.cluster, g.ready, g.apps.length])).toEqual([
      ["fleet/down", "False", 0],
      ["fleet/eu", "True", 0],
    ]);
  });
});
