// A Kustomization is reconciled again when its source gets a new artifact revision, as Flux does:
// an informer index from source to the Kustomizations that reference it.
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { Watch } from "../../runtime/controller.js";

export const SOURCE_INDEX = "sourceRef";

export function sourceIndex(ks: KubeObject): string[] {
  const ref = (ks as Kustomization).spec?.sourceRef;
  return ref ? [`${ref.kind}/${ref.namespace ?? ks.metadata.namespace}/${ref.name}`] : [];
}

const revisionOf = (o: KubeObject) =>
  (o.status as { artifact?: { revision?: string } } | undefined)?.artifact?.revision;

export const sourceWatch = (kind: "GitRepository" | "OCIRepository" | "Bucket" = "GitRepository"): Watch => ({
  kind: { group: "source.toolkit.fluxcd.io", version: "v1", kind },
  predicate: (o, n) => revisionOf(o) !== revisionOf(n),
  map: (source, controller) =>
    controller.informer
      .byIndex(SOURCE_INDEX, `${kind}/${source.metadata.namespace}/${source.metadata.name}`)
      .map((k) => `${k.metadata.namespace}/${k.metadata.name}`),
});
