// A fleet parent's spec.dependsOn, per cluster. Entries are Flux's dependsOn entries (apiVersion, kind,
// name, namespace, ready, readyExpr; decision 0041). One naming a fleet kind — or a plain one, without
// kind, meaning the parent's own kind as before — resolves on each cluster to its sibling: the child of
// the named fleet object for the same cluster, `<name>-<cluster>`, of the child kind (a FleetHelmRelease
// becomes a HelmRelease). Any other entry (a CRD, a plain HelmRelease) is handed to every child as written.
import { apiVersionOf, type KindEntry, SERVED_KINDS } from "../../api/kinds.js";
import type { DependencyReference } from "../../api/meta/object.js";

export const FLEET_KUSTOMIZATION_LABEL = "fleet.flotilla.dev/fleet-kustomization";
export const FLEET_HELMRELEASE_LABEL = "fleet.flotilla.dev/fleet-helmrelease";

/** Every fleet kind: its child kind and the label naming the parent on each child. */
export const FLEET_KINDS: { parent: KindEntry; child: KindEntry; parentLabel: string }[] = [
  {
    parent: SERVED_KINDS.FleetKustomization,
    child: SERVED_KINDS.Kustomization,
    parentLabel: FLEET_KUSTOMIZATION_LABEL,
  },
  { parent: SERVED_KINDS.FleetHelmRelease, child: SERVED_KINDS.HelmRelease, parentLabel: FLEET_HELMRELEASE_LABEL },
];

const groupOf = (apiVersion: string | undefined) =>
  apiVersion?.includes("/") ? apiVersion.slice(0, apiVersion.indexOf("/")) : "";

/**
 * The fleet kind an entry of a `own` parent names: `own` for a plain entry, the named fleet kind for one
 * with a fleet kind, undefined for any other kind.
 */
export function fleetKindOf(dep: DependencyReference, own: KindEntry): (typeof FLEET_KINDS)[number] | undefined {
  const kind = dep.kind ?? own.kind;
  if (dep.kind && dep.apiVersion && groupOf(dep.apiVersion) !== SERVED_KINDS.FleetKustomization.group) return undefined;
  return FLEET_KINDS.find((k) => k.parent.kind === kind);
}

/** The child's dependsOn entry for `dep` of a parent of kind `own` on `cluster`. */
export function childDependency(dep: DependencyReference, own: KindEntry, cluster: string): DependencyReference {
  const fleet = fleetKindOf(dep, own);
  if (!fleet) return dep;
  const { apiVersion: _a, kind: _k, ...rest } = dep;
  const sibling = { ...rest, name: `${dep.name}-${cluster}` };
  // Plain stays plain (Flux's classic entry); another fleet kind names its child kind explicitly.
  if (!dep.kind || fleet.parent === own) return sibling;
  return { apiVersion: apiVersionOf(fleet.child), kind: fleet.child.kind, ...sibling };
}

/** The child's spec with the parent's dependencies resolved on this cluster, after the template's own. */
export function withFleetDependencies(
  spec: Record<string, unknown>,
  deps: DependencyReference[] | undefined,
  own: KindEntry,
  cluster: string,
): Record<string, unknown> {
  if (!deps?.length) return spec;
  const template = (spec.dependsOn as DependencyReference[] | undefined) ?? [];
  return { ...spec, dependsOn: [...template, ...deps.map((d) => childDependency(d, own, cluster))] };
}

/** `<Kind>/<namespace>/<name>` of the fleet object an entry names, or undefined for another kind. */
export function fleetDependencyId(dep: DependencyReference, own: KindEntry, namespace: string): string | undefined {
  const fleet = fleetKindOf(dep, own);
  return fleet && `${fleet.parent.kind}/${dep.namespace ?? namespace}/${dep.name}`;
}
