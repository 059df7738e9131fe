// The fleet layer's controllers, for the manager to run beside Flux's kinds: the Cluster prober
// always, Kamaji discovery when asked and when the TenantControlPlane CRD is served (checked at
// start: a Kamaji installed later needs a controller restart to be discovered).
import { USED_KINDS } from "../api/kinds.js";
import type { Cluster } from "../kube/cluster.js";
import { NotFoundError } from "../kube/errors.js";
import type { ControllerSetup } from "../controllers/kit/setup.js";
import { clusterController } from "./cluster/setup.js";
import { fleetHelmReleaseController } from "./fleethelmrelease/kind.js";
import { fleetKustomizationController } from "./fleetkustomization/setup.js";
import { kamajiDiscoveryController } from "./kamaji/discovery.js";

export async function kamajiServed(cluster: Cluster): Promise<boolean> {
  const k = USED_KINDS.TenantControlPlane;
  try {
    await cluster.client.get(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${k.plural}.${k.group}`);
    return true;
  } catch (err) {
    if (err instanceof NotFoundError) return false;
    throw err;
  }
}

export async function fleetControllers(
  cluster: Cluster,
  options: { kamajiDiscovery: boolean },
): Promise<ControllerSetup[]> {
  const kamaji = options.kamajiDiscovery && (await kamajiServed(cluster));
  return [
    clusterController(kamaji),
    ...(kamaji ? [kamajiDiscoveryController] : []),
    fleetKustomizationController,
    fleetHelmReleaseController,
  ] as ControllerSetup[];
}
