// The inventory tree `flux tree kustomization` prints (internal/tree/tree.go): each entry of a
// Kustomization's status.inventory as `Kind/namespace/name` (`Kind/name` when cluster-scoped), child
// Kustomizations expanded with their own inventory, HelmReleases with the objects of their release.
// Unlike flux, a HelmRelease's objects come from its status.inventory, so a release on a remote
// cluster is expanded too (flux skips it); a child Kustomization applied to a remote cluster lives
// there, so it is not expanded, as in flux.

export interface ObjMetadata {
  Namespace: string;
  Name: string;
  GroupKind: { Group: string; Kind: string };
}

/** The JSON shape flux prints with `-o json` (cli-utils ObjMetadata has no json tags). */
export interface ObjTree {
  resource: ObjMetadata;
  resources?: ObjTree[];
}

/** An inventory id `<namespace>_<name>_<group>_<kind>` (names may not hold '_', so the split is exact). */
export function parseInventoryId(id: string): ObjMetadata {
  const parts = id.split("_");
  if (parts.length !== 4) throw new Error(`unable to parse inventory id '${id}'`);
  const [Namespace, Name, Group, Kind] = parts as [string, string, string, string];
  return { Namespace, Name, GroupKind: { Group, Kind } };
}

export const textOf = (m: ObjMetadata) =>
  m.Namespace ? `${m.GroupKind.Kind}/${m.Namespace}/${m.Name}` : `${m.GroupKind.Kind}/${m.Name}`;

const EMPTY = "    ";
const MIDDLE = "├── ";
const CONTINUE = "│   ";
const LAST = "└── ";

function printItems(items: ObjTree[], spaces: boolean[]): string {
  let out = "";
  items.forEach((t, i) => {
    const last = i === items.length - 1;
    out += spaces.map((s) => (s ? EMPTY : CONTINUE)).join("") + (last ? LAST : MIDDLE) + textOf(t.resource) + "\n";
    if (t.resources?.length) out += printItems(t.resources, [...spaces, last]);
  });
  return out;
}

export function printTree(t: ObjTree): string {
  return `${textOf(t.resource)}\n${printItems(t.resources ?? [], [])}`;
}
