// --no-cross-namespace-refs for what a fleet parent reads itself: a FleetKustomization with a fallback
// path looks into its template source's artifact to pick each cluster's path. Another namespace's source
// is refused as a Kustomization's sourceRef is — Stalled, AccessDenied, Flux's message — before anything
// of it is fetched: whether a directory exists there is not for another namespace's tenant to learn.
// A dependsOn entry in another namespace is refused the same way, on the parent, before any child names it.
import { ReconcileFailure } from "../../controllers/kit/failure.js";
import type { ChildKind, FleetParent } from "../children/child-kind.js";
import { fleetKindOf } from "../children/fleet-dependencies.js";

export function crossNamespaceRead<P extends FleetParent>(
  kind: ChildKind<P>,
  parent: P,
  noCrossNamespaceRefs: boolean,
): ReconcileFailure | undefined {
  if (noCrossNamespaceRefs) {
    const own = parent.metadata.namespace!;
    const dep = parent.spec.dependsOn?.find((d) => d.namespace && d.namespace !== own);
    if (dep)
      return new ReconcileFailure(
        "AccessDenied",
        `can't access '${fleetKindOf(dep, kind.parent)?.parent.kind ?? dep.kind}/${dep.namespace}/${dep.name}', cross-namespace references have been blocked`,
        { stalled: true },
      );
  }
  const ref = kind.filesSource?.(parent);
  const ns = ref?.namespace ?? parent.metadata.namespace;
  if (!ref || !noCrossNamespaceRefs || ns === parent.metadata.namespace) return undefined;
  return new ReconcileFailure(
    "AccessDenied",
    `can't access '${ref.kind}/${ns}/${ref.name}', cross-namespace references have been blocked`,
    { stalled: true },
  );
}
