// A rewritten kubeconfig Secret (Kamaji rotating a tenant's certificate or CA, a plane moved to another
// address) re-queues every object that reaches a cluster through it, at once (decision 0044): its
// reconcile reads the Secret again, claims the new credential and the pool closes the old connection —
// no waiting for the interval or for a 401/403. Secrets are watched as metadata only (a resourceVersion
// change is all that matters; their data is never held), and every Secret is watched, not only the
// labelled ones Flux's --watch-configs-label-selector picks: Kamaji does not label its kubeconfigs so.
import { gvkOf, USED_KINDS } from "../../api/kinds.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { Controller, Watch } from "../../runtime/controller.js";

export const KUBECONFIG_SECRET_INDEX = "kubeconfigSecret";

const keyOf = (o: KubeObject) => `${o.metadata.namespace}/${o.metadata.name}`;

/** `namespace/name` of the Secret an object's spec.kubeConfig.secretRef names (Kustomization, HelmRelease, Cluster). */
export function kubeconfigSecretIndex(o: KubeObject): string[] {
  const name = (o.spec as { kubeConfig?: { secretRef?: { name?: string } } } | undefined)?.kubeConfig?.secretRef?.name;
  return name ? [`${o.metadata.namespace}/${name}`] : [];
}

/** Keys of the controller's objects whose kubeconfig is this Secret. */
export function ownersOfSecret(controller: Controller, secret: KubeObject): string[] {
  return controller.informer.byIndex(KUBECONFIG_SECRET_INDEX, keyOf(secret)).map(keyOf);
}

/** Any write to the Secret (metadata-only objects carry no data to compare: the version tells). */
export const secretRewritten = (o: KubeObject, n: KubeObject) =>
  o.metadata.resourceVersion !== n.metadata.resourceVersion;

/** The watch each kind reaching clusters through kubeconfig Secrets adds (with the index above). */
export const kubeconfigSecretWatch: Watch = {
  kind: gvkOf(USED_KINDS.Secret),
  metadataOnly: true,
  predicate: secretRewritten,
  onDelete: true,
  map: (secret, controller) => ownersOfSecret(controller, secret),
};

/** The index and watch to spread into a ControllerSetup. */
export const kubeconfigSecretWiring = {
  index: { [KUBECONFIG_SECRET_INDEX]: kubeconfigSecretIndex },
  watch: kubeconfigSecretWatch,
};
