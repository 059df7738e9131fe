// The objects the plan's unit tests start from: Clusters, fleet parents, a source checkout on disk and
// each cluster's objects in an in-memory client, with the ManagementState and PlanContext around them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { FleetCluster } from "../../../api/fleet/cluster.js";
import type { FleetHelmRelease } from "../../../api/fleet/fleet-helmrelease.js";
import type { FleetKustomization } from "../../../api/fleet/fleet-kustomization.js";
import type { KubeObject } from "../../../api/meta/object.js";
import { InMemoryKube } from "../../../kube/testing/in-memory-client.js";
import type { PlanContext } from "../app-plans.js";
import type { ManagementState } from "../management-state.js";
import { type MemoryFleet, memoryBackend } from "./memory-backend.js";

export const NS = "fleet";
export const REPO = `GitRepository/${NS}/repo`;

export const fleetCluster = (name: string, labels: Record<string, string> = { env: "prod" }): FleetCluster => ({
  apiVersion: "fleet.flotilla.dev/v1alpha1",
  kind: "Cluster",
  metadata: { name, namespace: NS, labels },
  spec: { kubeConfig: { secretRef: { name: `${name}-kubeconfig` } } },
});

/** A fleet parent over the clusters labelled env=prod; `spec` adds its template (or replaces any field). */
const fleetParent = <K extends string, S extends object>(kind: K, name: string, spec: S) => ({
  apiVersion: "fleet.flotilla.dev/v1alpha1",
  kind,
  metadata: { name, namespace: NS, uid: `uid-${name}` },
  spec: { clusterSelector: { matchLabels: { env: "prod" } }, ...spec },
});

export const fleetKustomization = (spec: Partial<FleetKustomization["spec"]> = {}): FleetKustomization =>
  fleetParent("FleetKustomization", "web", {
    template: {
      spec: { interval: "5m", path: "./apps", prune: true, sourceRef: { kind: "GitRepository", name: "repo" } },
    },
    ...spec,
  });

export const fleetHelmRelease = (values: Record<string, unknown>): FleetHelmRelease =>
  fleetParent("FleetHelmRelease", "cache", {
    template: {
      spec: {
        interval: "5m",
        targetNamespace: "apps",
        chart: {
          spec: { chart: "./charts/cache", version: "1.0.0", sourceRef: { kind: "GitRepository", name: "repo" } },
        },
        values,
      },
    },
  });

const scratch: string[] = [];
const scratchDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratch.push(dir);
  return dir;
};
/** Removes every directory the fixtures made (a test file's afterAll). */
export const removeScratch = () => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
};

/** A checkout: files by path, written under a fresh directory. */
export function checkout(files: Record<string, string>): string {
  const dir = scratchDir("plan-unit-");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** The ConfigMap `apps/info` a checkout's apps/cm.yaml holds, as the apply of child `child` (namespace fleet) writes it. */
export const infoConfigMap = (data: Record<string, string>, child?: string): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: {
    name: "info",
    namespace: "apps",
    ...(child
      ? { labels: { "kustomize.toolkit.fluxcd.io/name": child, "kustomize.toolkit.fluxcd.io/namespace": NS } }
      : {}),
  },
  data,
});

export const infoYaml = (color: string) =>
  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: info\n  namespace: apps\ndata:\n" +
  `  color: ${color}\n  cluster: \${cluster_name}\n`;

/** A cluster holding these objects (created through the in-memory client). */
export async function clusterHolding(...objects: KubeObject[]): Promise<InMemoryKube> {
  const kube = new InMemoryKube();
  for (const o of objects) {
    const [group, version] = o.apiVersion.includes("/") ? o.apiVersion.split("/") : ["", o.apiVersion];
    const base = group ? `/apis/${group}/${version}` : `/api/${version}`;
    await kube.client.create(`${base}/namespaces/${o.metadata.namespace}/${o.kind.toLowerCase()}s`, o);
  }
  kube.writes.length = 0; // what the plan writes, from here on: nothing
  return kube;
}

export function emptyState(): ManagementState {
  return {
    gitRepositories: [],
    kustomizations: [],
    helmReleases: [],
    helmCharts: [],
    helmRepositories: [],
    fleetKustomizations: [],
    fleetHelmReleases: [],
    clusters: [],
  };
}

/** A plan context over `state`, replacing the sources in `overrides`, diffing against `fleet.clusters`. */
export function planContext(
  state: ManagementState,
  overrides: Record<string, string>,
  fleet: Omit<MemoryFleet, "clusterObjects">,
  more: Partial<PlanContext> = {},
) {
  const backend = memoryBackend({ ...fleet, clusterObjects: state.clusters });
  const bySecret = new Map(state.clusters.map((c) => [`${NS}/${c.spec.kubeConfig.secretRef.name}`, c]));
  const ctx: PlanContext = {
    state,
    backend,
    overrides: new Map(Object.entries(overrides)),
    bySecret,
    work: scratchDir("plan-work-"),
    ...more,
  };
  return { ctx, backend };
}
