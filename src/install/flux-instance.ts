// The FluxInstance `flotilla install` and `bootstrap git` write, as the Flux Operator's CLI makes one
// (cmd/cli/install.go makeFluxInstance): named flux in the controller's namespace, the distribution and
// components asked for (flotilla is the distribution: decision 0043 says what each field maps to), the
// cluster profile, and spec.sync whose kind follows the URL (oci:// → OCIRepository, else GitRepository).
import type { KubeObject } from "../api/meta/object.js";
import { INSTANCE_NAME } from "../api/operator/fluxinstance.js";

/** The Flux Operator CLI's defaults (--instance-components, --instance-distribution-*). */
export const DEFAULT_INSTANCE_COMPONENTS = [
  "source-controller",
  "kustomize-controller",
  "helm-controller",
  "notification-controller",
];
export const DEFAULT_DISTRIBUTION = {
  version: "2.x",
  registry: "ghcr.io/fluxcd",
  artifact: "oci://ghcr.io/controlplaneio-fluxcd/flux-operator-manifests",
};

export interface InstanceSync {
  url: string;
  ref: string;
  path: string;
  pullSecret?: string;
  interval?: string;
}

export interface InstanceOptions {
  namespace: string;
  distribution: { version: string; registry: string; artifact?: string };
  components: string[];
  cluster: { type: string; size: string; domain: string; multitenant: boolean; networkPolicy: boolean };
  sync?: InstanceSync;
  /** On the instance and, through commonMetadata, on what it applies (e.g. a shard key). */
  labels?: Record<string, string>;
}

export const syncKindOf = (url: string) => (url.startsWith("oci://") ? "OCIRepository" : "GitRepository");

export function fluxInstance(o: InstanceOptions): KubeObject {
  const labels = o.labels && Object.keys(o.labels).length ? o.labels : undefined;
  return {
    apiVersion: "fluxcd.controlplane.io/v1",
    kind: "FluxInstance",
    metadata: { name: INSTANCE_NAME, namespace: o.namespace, ...(labels ? { labels } : {}) },
    spec: {
      distribution: o.distribution,
      components: o.components,
      cluster: o.cluster,
      ...(labels ? { commonMetadata: { labels } } : {}),
      ...(o.sync
        ? {
            sync: {
              kind: syncKindOf(o.sync.url),
              url: o.sync.url,
              ref: o.sync.ref,
              path: o.sync.path,
              ...(o.sync.pullSecret ? { pullSecret: o.sync.pullSecret } : {}),
              ...(o.sync.interval ? { interval: o.sync.interval } : {}),
            },
          }
        : {}),
    },
  } as unknown as KubeObject;
}
