// CONTRACT STUB (is12-base): owned by the values helper, who replaces the bodies.
// A HelmRelease's values in Flux's merge order: valuesFrom in order (ConfigMap/Secret of the
// HelmRelease's namespace on the management cluster, valuesKey default values.yaml, targetPath in
// helm --set syntax, optional), then spec.values, then the targetPath entries win.
import type { KubeClient } from "../../../kube/client.js";
import type { HelmRelease } from "../../../api/helm/helmrelease.js";

export interface ComposedValues {
  values: Record<string, unknown>;
  /** chartutil.DigestValues: "sha256:<hex>" of the values as sorted YAML (empty map = digest of nothing). */
  digest: string;
}

/** Throws a ReconcileFailure (reason ValuesError? — see the brief) naming the missing source or bad key. */
export function composeValues(_client: KubeClient, _hr: HelmRelease): Promise<ComposedValues> {
  throw new Error("not implemented");
}

export function valuesDigest(_values: Record<string, unknown>): string {
  throw new Error("not implemented");
}
