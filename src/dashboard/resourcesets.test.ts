import { describe, expect, it } from "vitest";
import type { FleetCluster } from "../api/fleet/cluster.js";
import type { ResourceSet } from "../api/operator/resourceset.js";
import type { ResourceSetInputProvider } from "../api/operator/resourceset-input-provider.js";
import { fleetPage } from "./fleet-page.js";
import { inputGroup, inventories, providerRow } from "./resourceset-page.js";
import { resourceSetRow } from "./resourcesets.js";

const ready = (status: string, reason = "ReconciliationSucceeded", message = "ok") => ({
  conditions: [{ type: "Ready", status, reason, message, lastTransitionTime: "" }],
});
const cluster = (name: string, labels: Record<string, string>) =>
  ({
    apiVersion: "fleet.flotilla.dev/v1alpha1",
    kind: "Cluster",
    metadata: { name, namespace: "fleet", labels },
    spec: { kubeConfig: { secretRef: { name: `${name}-kubeconfig` } } },
    status: ready("True"),
  }) as unknown as FleetCluster;
const rset = (name: string, annotations: Record<string, string> = {}, status: Record<string, unknown> = {}) =>
  ({
    apiVersion: "fluxcd.controlplane.io/v1",
    kind: "ResourceSet",
    metadata: { name, namespace: "fleet", annotations },
    spec: { inputs: [{ app: "a", token: "never-shown-7c1" }], resourcesTemplate: "x" },
    status: { ...ready("True"), lastAppliedRevision: "sha256:" + "a".repeat(64), ...status },
  }) as unknown as ResourceSet;
const clusters = [cluster("tenant1", { env: "prod" }), cluster("tenant2", { env: "dev" })];
const TARGETS = { "fleet.flotilla.dev/target-clusters": "env=prod" };

describe("ResourceSets on the fleet page", () => {
  it("a row says Ready, reason, revision, inputs and groups, and the Clusters its annotation selects", () => {
    const r = rset("apps", TARGETS, {
      history: [{ digest: "d", metadata: { inputs: "2", resources: "4", clusters: "1" } }],
    });
    expect(resourceSetRow(r, clusters)).toMatchObject({
      ready: "True",
      reason: "ReconciliationSucceeded",
      revision: `sha256:${"a".repeat(64)}`,
      inputs: 2,
      resources: 4,
      groups: 1,
      selector: "env=prod",
      targets: ["fleet/tenant1"],
    });
    expect(resourceSetRow(rset("local"), clusters)).toMatchObject({ groups: 1, targets: ["management"] });
  });

  it("is an app of each cluster it targets (the management cluster without the annotation), values never copied", () => {
    const objects: Record<string, unknown[]> = {
      Cluster: clusters,
      ResourceSet: [
        rset("apps", TARGETS),
        rset("local"),
        rset("off", { "fluxcd.controlplane.io/reconcile": "disabled" }),
      ],
    };
    const page = fleetPage({ list: <T>(kind: string) => (objects[kind] ?? []) as T[] });
    const appsOf = (key: string) =>
      page.clusters.find((c) => c.cluster === key)?.apps.map((a) => `${a.kind}/${a.name}`);
    expect(appsOf("fleet/tenant1")).toEqual(["ResourceSet/apps"]);
    expect(appsOf("fleet/tenant2")).toEqual([]);
    expect(appsOf("management")).toEqual(["ResourceSet/local", "ResourceSet/off"]);
    expect(page.resourceSets.find((r) => r.name === "off")?.suspended).toBe(true);
    expect(JSON.stringify(page)).not.toContain("never-shown-7c1");
  });
});

describe("a ResourceSet's page", () => {
  it("lists each input by id, origin and keys, never a value, and counts what it does not list", () => {
    const sets = Array.from({ length: 120 }, (_, i) => ({
      id: String(i),
      secret: "never-shown-7c1",
      provider: { kind: "ResourceSetInputProvider", name: "p" },
    }));
    const g = inputGroup("fleet/tenant1", sets);
    expect(g.count).toBe(120);
    expect(g.inputs).toHaveLength(100);
    expect(g.inputs[0]).toEqual({ index: 0, id: "0", from: "ResourceSetInputProvider/p", keys: ["secret"] });
    expect(JSON.stringify(g)).not.toContain("never-shown-7c1");
  });

  it("shows a provider's type, exported count, next schedule and address as scheme and host only", () => {
    const p = {
      metadata: { name: "prs", namespace: "fleet" },
      spec: { type: "GitHubPullRequest", url: "https://token@github.example/org/repo?x=1", secretRef: { name: "s" } },
      status: {
        ...ready("True"),
        exportedInputs: [{ id: "1" }, { id: "2" }],
        lastExportedRevision: "sha256:1",
        nextSchedule: { cron: "0 9 * * *", when: "2026-11-29T09:00:00Z" },
      },
    } as unknown as ResourceSetInputProvider;
    expect(providerRow(p)).toMatchObject({
      type: "GitHubPullRequest",
      exportedInputs: 2,
      address: "https://github.example",
      nextSchedule: "2026-11-29T09:00:00Z",
    });
  });

  it("shows the inventory per target: its own cluster's, then each fleet Cluster's", () => {
    const r = rset("apps", TARGETS, {
      clusterInventories: [{ cluster: "tenant1", inventory: { entries: [{ id: "ns1_a-info__ConfigMap", v: "v1" }] } }],
    });
    expect(inventories(r)).toEqual([{ target: "fleet/tenant1", tree: { ns1: { ConfigMap: ["a-info"] } } }]);
  });
});
