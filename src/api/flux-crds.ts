// Every CRD flotilla's controllers watch, in one list: the manager's --install-crds, `flotilla
// install` and the demo all install exactly this set (a shorter copy once left a controller unable
// to start).
import { helmReleaseCrd } from "./helm/helmrelease.js";
import type { KubeObject } from "./meta/object.js";
import { kustomizationCrd } from "./kustomize/kustomization.js";
import { gitRepositoryCrd } from "./source/git-repository.js";
import { helmChartCrd, helmRepositoryCrd } from "./source/helm.js";

export function fluxCrds(): KubeObject[] {
  return [gitRepositoryCrd(), helmRepositoryCrd(), helmChartCrd(), kustomizationCrd(), helmReleaseCrd()].map(
    (crd) => crd as unknown as KubeObject,
  );
}
