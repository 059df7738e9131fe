// The end-of-build fix-up: every field that names an object of a renamed kind (see
// name-reference-table.ts) and still carries one of its previous names gets its current name. The
// choice among several renamed objects follows kustomize's nameref filter step by step: previous
// name, kind, roleRef kind, namespace, then the referrer's own prefixes and suffixes.
import { KustomizeError } from "../errors.js";
import { groupVersion, type JsonObject, kindOf, nameOf, namespaceOf, resId, type Resource } from "../resource.js";
import type { Json } from "../yaml/emit.js";
import { type FieldSpec, specMatches, splitPath, walkPath } from "./field-spec.js";
import { NAME_REFERENCES, type Referral } from "./name-reference-table.js";
import { originalKind } from "./rename.js";
import { effectiveNamespace, isClusterScoped } from "./scope.js";

const clusterScoped = (r: Resource) => isClusterScoped(kindOf(r), groupVersion(r).group);

/** kustomize's SubsetThatCouldBeReferencedByResource. */
function couldBeReferencedBy(referrer: Resource, all: Resource[]): Resource[] {
  if (clusterScoped(referrer)) return all;
  const bindingNamespaces = new Set<string>();
  if (kindOf(referrer) === "RoleBinding" && Array.isArray(referrer.obj.subjects)) {
    for (const s of referrer.obj.subjects as JsonObject[]) {
      if (!s || typeof s !== "object" || !("namespace" in s) || !("kind" in s) || s.kind !== "ServiceAccount") continue;
      if (typeof s.namespace !== "string")
        throw new KustomizeError(`Invalid Input: namespace is blank for resource "${resId(referrer)}"`);
      bindingNamespaces.add(s.namespace);
    }
  }
  return all.filter(
    (t) =>
      clusterScoped(t) ||
      effectiveNamespace(t) === effectiveNamespace(referrer) ||
      bindingNamespaces.has(namespaceOf(t)),
  );
}

/** kustomize's SameEndingSubSlice: one list ends with the other (two empty lists are equal). */
function sameEnding(a: string[], b: string[]): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (!short.length) return long.length === 0;
  return short.every((x, i) => long[i + long.length - short.length] === x);
}

function affixesEqual(r: Resource, referrer: Resource, allowEmpty: boolean): boolean {
  const [rp, op, rs, os] = [r.prefixes ?? [], referrer.prefixes ?? [], r.suffixes ?? [], referrer.suffixes ?? []];
  if (!allowEmpty) return sameEnding(rp, op) && sameEnding(rs, os);
  return (!rp.length || !op.length || sameEnding(rp, op)) && (!rs.length || !os.length || sameEnding(rs, os));
}

interface Filter {
  referrer: Resource;
  spec: FieldSpec;
  target: Referral;
  candidates: Resource[];
}

function roleRefKind(referrer: Resource): { kind: string; group: string } | undefined {
  const ref = referrer.obj.roleRef as JsonObject | undefined;
  if (!ref || typeof ref !== "object" || ref.apiGroup == null || ref.kind == null) return undefined;
  return { kind: String(ref.kind), group: String(ref.apiGroup) };
}

function selectReferral(
  f: Filter,
  oldName: string,
  candidates: Resource[],
  identical: (rs: Resource[]) => boolean,
): Resource | undefined {
  // kustomize's Gvk.IsSelected: an unset group or version selects any.
  const prevSelected = (r: Resource, kind: string, group?: string, version?: string) =>
    r.previous.some((p) => p.kind === kind) &&
    (!group || groupVersion(r).group === group) &&
    (!version || groupVersion(r).version === version);
  let c = candidates.filter((r) => r.previous.some((p) => p.name === oldName));
  c = c.filter((r) => prevSelected(r, f.target.kind, f.target.group, f.target.version));
  const roleRef = f.spec.path.endsWith("roleRef/name") ? roleRefKind(f.referrer) : undefined;
  if (roleRef) c = c.filter((r) => prevSelected(r, roleRef.kind, roleRef.group));
  if (!clusterScoped(f.referrer))
    c = c.filter(
      (r) =>
        clusterScoped(r) || kindOf(r) === "ServiceAccount" || effectiveNamespace(r) === effectiveNamespace(f.referrer),
    );
  if (c.length === 1) return c[0];
  c = c.filter((r) => affixesEqual(r, f.referrer, true));
  if (c.length > 1) c = c.filter((r) => affixesEqual(r, f.referrer, false));
  if (c.length <= 1) return c[0];
  if (identical(c)) return c[0];
  throw new KustomizeError(
    `found multiple possible referrals: ${c.map(resId).join(", ")} for ${f.spec.path} "${oldName}" in ${resId(f.referrer)}`,
  );
}

const sameNames = (rs: Resource[]) => rs.every((r) => nameOf(r) === nameOf(rs[0]!));
const sameNamesAndNamespaces = (rs: Resource[]) =>
  rs.every((r) => nameOf(r) === nameOf(rs[0]!) && namespaceOf(r) === namespaceOf(rs[0]!));

function setScalar(f: Filter, value: string): string {
  const referral = selectReferral(f, value, f.candidates, sameNames);
  return referral ? nameOf(referral) : value;
}

/** A `{name, namespace}` reference; candidates narrowed by its namespace as kustomize does. */
function setMapping(f: Filter, node: JsonObject): void {
  if (!("name" in node)) throw new KustomizeError(`path config error; no 'name' field in node (${f.spec.path})`);
  if (node.name === null || typeof node.name === "object") return;
  let candidates = f.candidates;
  if (typeof node.namespace === "string" || typeof node.namespace === "number") {
    const ns = String(node.namespace);
    const namespaced = f.candidates.filter((r) => !clusterScoped(r));
    const original = namespaced.filter((r) => effectiveNamespace(r, r.previous[0]?.namespace ?? namespaceOf(r)) === ns);
    candidates = original.length ? original : namespaced.filter((r) => effectiveNamespace(r) === ns);
  }
  const oldName = String(node.name);
  const referral = selectReferral(f, oldName, candidates, sameNamesAndNamespaces);
  if (!referral) return;
  if (nameOf(referral) === oldName && !namespaceOf(referral)) return;
  node.name = nameOf(referral);
  if (namespaceOf(referral)) node.namespace = namespaceOf(referral);
}

function set(f: Filter, parent: JsonObject, key: string): void {
  const value: Json | undefined = parent[key];
  if (value === null || value === undefined) return;
  const one = (v: Json): Json => {
    if (typeof v === "string") return setScalar(f, v);
    if (typeof v === "number" || typeof v === "boolean") return v;
    if (v && typeof v === "object" && !Array.isArray(v)) {
      setMapping(f, v);
      return v;
    }
    throw new KustomizeError(`${resId(f.referrer)}: ${f.spec.path} is expected to be either a string or a map`);
  };
  if (Array.isArray(value)) parent[key] = value.map((v) => (v === null ? v : one(v)));
  else parent[key] = one(value);
}

/** Rewrites references per `referrals` (kustomize's table, as configurations extended it). */
export function fixNameReferences(resources: Resource[], referrals: Referral[] = NAME_REFERENCES): void {
  if (!resources.some((r) => r.previous.length)) {
    // Nothing renamed, nothing to rewrite; kustomize still refuses a RoleBinding subject without namespace.
    for (const r of resources) if (kindOf(r) === "RoleBinding") couldBeReferencedBy(r, []);
    return;
  }
  for (const referrer of resources) {
    let candidates: Resource[] | undefined;
    for (const target of referrals) {
      for (const spec of target.referrers) {
        if (!specMatches(spec, referrer, originalKind(referrer))) continue;
        candidates ??= couldBeReferencedBy(referrer, resources);
        const f: Filter = { referrer, spec, target, candidates };
        walkPath(referrer.obj, splitPath(spec.path), false, (parent, key) => set(f, parent, key));
      }
    }
  }
}
