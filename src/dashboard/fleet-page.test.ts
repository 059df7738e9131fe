import { describe, expect, it } from "vitest";
import type { KubeObject } from "../api/meta/object.js";
import type { WatchedKind } from "../fleet/status/fleet-cache.js";
import { fleetPage } from "./fleet-page.js";

const ready = (status: string, message = "") => ({
  conditions: [{ type: "Ready", status, reason: "R", message, lastTransitionTime: "" }],
});
const cluster = (name: string, status = "True") => ({
  apiVersion: "fleet.flotilla.dev/v1alpha1",
  kind: "Cluster",
  metadata: { name, namespace: "fleet" },
  spec: { kubeConfig: { secretRef: { name: `${name}-kubeconfig` } } },
  status: { ...ready(status), kubernetesVersion: "v1.36.3" },
});
const ks = (name: string, secret: string, status: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: "kustomize.toolkit.fluxcd.io/v1",
  kind: "Kustomization",
  metadata: { name, namespace: "fleet" },
  spec: {
    kubeConfig: { secretRef: { name: secret } },
    ...spec,
    postBuild: { substitute: { password: "never-shown" } },
  },
  status: ready(status, `${name} says ${status}`),
});

const objects: Partial<Record<WatchedKind, KubeObject[]>> = {
  Cluster: [cluster("tenant1"), cluster("tenant2")],
  Kustomization: [
    ks("a", "tenant1-kubeconfig", "True"),
    ks("b", "tenant2-kubeconfig", "True"),
    ks("c", "tenant2-kubeconfig", "False"),
    ks("d", "tenant2-kubeconfig", "True", { suspend: true }),
  ] as KubeObject[],
};
const cache = { list: <T>(kind: WatchedKind) => (objects[kind] ?? []) as T[] };

describe("the fleet page", () => {
  it("lists every cluster with counts of its apps, the one with a failing app first", () => {
    const page = fleetPage(cache);
    expect(page.clusters.map((c) => [c.cluster, c.counts])).toEqual([
      ["fleet/tenant2", { total: 3, ready: 2, failing: 1, suspended: 1 }],
      ["fleet/tenant1", { total: 1, ready: 1, failing: 0, suspended: 0 }],
    ]);
    expect(page.clusters[0]!.apps[0]).toMatchObject({ name: "c", ready: "False", message: "c says False" });
  });

  it("carries display fields only: no spec values", () => {
    expect(JSON.stringify(fleetPage(cache))).not.toContain("never-shown");
  });
});
