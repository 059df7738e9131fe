// What the fleet e2e files share beside a kustomize harness: the Cluster and FleetKustomization CRDs
// served on the management plane, and those two controllers run in-process (the harness runs the sources
// and the Kustomization controller that reconciles the children), reading artifacts from its cache.
import { clusterCrd } from "../../src/api/fleet/cluster.js";
import { fleetKustomizationCrd } from "../../src/api/fleet/fleet-kustomization.js";
import type { KubeObject } from "../../src/api/meta/object.js";
import { createController } from "../../src/controllers/kit/setup.js";
import { clusterController } from "../../src/fleet/cluster/setup.js";
import { fleetKustomizationController } from "../../src/fleet/fleetkustomization/setup.js";
import type { Controller } from "../../src/runtime/controller.js";
import { EventRecorder } from "../../src/runtime/events.js";
import { createLogger } from "../../src/runtime/logger.js";
import { SourceFetcher } from "../../src/sources/consumer.js";
import { serveCrds } from "./harness.js";
import type { KustomizeHarness } from "./kustomize-harness.js";

export const serveFleetCrds = (h: KustomizeHarness): Promise<void> =>
  serveCrds(h.mgmt, [clusterCrd(), fleetKustomizationCrd()] as unknown as KubeObject[]);

/**
 * The Cluster prober (no Kamaji discovery) and the FleetKustomization fan-out, started; `labelSelector` shards
 * them; `clusterRemovalGraceMs` is the controller's --cluster-removal-grace-period (a FleetKustomization's own
 * field wins).
 */
export async function startFleetControllers(
  h: KustomizeHarness,
  labelSelector?: string,
  clusterRemovalGraceMs?: number,
): Promise<Controller[]> {
  const log = createLogger({ level: "error", write: () => {} });
  const deps = {
    cluster: h.mgmt,
    events: new EventRecorder(h.mgmt.client, "flotilla-fleet", log),
    sources: new SourceFetcher(h.mgmt.client, h.artifactCacheDir),
    flags: clusterRemovalGraceMs !== undefined ? { clusterRemovalGraceMs } : {},
  };
  const shared = { cluster: h.mgmt, log, concurrency: 2, ...(labelSelector ? { labelSelector } : {}) };
  const controllers = [clusterController(false), fleetKustomizationController].map((setup) =>
    createController(setup, deps, shared),
  );
  for (const c of controllers) await c.start();
  return controllers;
}
