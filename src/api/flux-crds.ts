// Every CRD flotilla's controllers watch, in one list: the manager's --install-crds, `flotilla
// install` and the demo all install exactly servedCrds() (a shorter copy once left a controller
// unable to start); fluxCrds() is Flux's part of it, compared field for field with Flux's CRDs.
import { clusterCrd } from "./fleet/cluster.js";
import { fleetHelmReleaseCrd } from "./fleet/fleet-helmrelease.js";
import { fleetKustomizationCrd } from "./fleet/fleet-kustomization.js";
import { helmReleaseCrd } from "./helm/helmrelease.js";
import type { KubeObject } from "./meta/object.js";
import { kustomizationCrd } from "./kustomize/kustomization.js";
import { alertCrd } from "./notification/alert.js";
import { providerCrd } from "./notification/provider.js";
import { receiverCrd } from "./notification/receiver.js";
import { gitRepositoryCrd } from "./source/git-repository.js";
import { helmChartCrd, helmRepositoryCrd } from "./source/helm.js";
import { ociRepositoryCrd } from "./source/oci-repository.js";
import { resourceSetCrd } from "./operator/resourceset.js";
import { resourceSetInputProviderCrd } from "./operator/resourceset-input-provider.js";
import { fluxInstanceCrd } from "./operator/fluxinstance.js";
import { fluxReportCrd } from "./operator/fluxreport.js";

export function fluxCrds(): KubeObject[] {
  return [
    gitRepositoryCrd(),
    helmRepositoryCrd(),
    helmChartCrd(),
    ociRepositoryCrd(),
    kustomizationCrd(),
    helmReleaseCrd(),
    receiverCrd(),
    alertCrd(),
    providerCrd(),
  ].map((crd) => crd as unknown as KubeObject);
}

/** The Flux Operator's kinds flotilla serves (decision 0040). */
export function operatorCrds(): KubeObject[] {
  return [resourceSetCrd(), resourceSetInputProviderCrd(), fluxInstanceCrd(), fluxReportCrd()].map(
    (crd) => crd as unknown as KubeObject,
  );
}

/** Every CRD flotilla serves: Flux's kinds, the Flux Operator's and the fleet's (fleet.flotilla.dev). */
export function servedCrds(): KubeObject[] {
  return [...fluxCrds(), ...operatorCrds(), clusterCrd(), fleetKustomizationCrd(), fleetHelmReleaseCrd()].map(
    (crd) => crd as unknown as KubeObject,
  );
}
