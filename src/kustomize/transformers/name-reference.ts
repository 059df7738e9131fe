// The end-of-build fix-up: every field that names an object of a renamed kind (see
// name-reference-table.ts) and still carries one of its previous names gets its current name.
import { KustomizeError } from "../errors.js";
import { groupVersion, type JsonObject, kindOf, nameOf, namespaceOf, type Resource } from "../resource.js";
import type { Json } from "../yaml/emit.js";
import { specMatches, splitPath, walkPath } from "./field-spec.js";
import { NAME_REFERENCES, type Referral } from "./name-reference-table.js";
import { isClusterScoped } from "./scope.js";

const history = (t: Resource) => [...t.previous, { kind: kindOf(t), name: nameOf(t), namespace: namespaceOf(t) }];

/** An unset namespace of a namespaced object means "default". */
const effective = (ns: string) => ns || "default";

function candidatesFor(
  value: string,
  namespace: string | undefined,
  targets: Resource[],
  referral: Referral,
): Resource[] {
  return targets.filter((t) => {
    const renamed = t.previous.length > 0;
    if (!renamed) return false;
    return history(t).some(
      (h) =>
        h.name === value &&
        (namespace === undefined ||
          effective(h.namespace) === effective(namespace) ||
          isClusterScoped(referral.kind, referral.group)),
    );
  });
}

function pick(value: string, referrer: Resource, matches: Resource[], field: string): Resource | undefined {
  if (matches.length <= 1) return matches[0];
  const sameNs = matches.filter((m) => namespaceOf(m) === namespaceOf(referrer));
  if (sameNs.length === 1) return sameNs[0];
  throw new KustomizeError(
    `found multiple possible referrals for ${field} "${value}" in ${kindOf(referrer)}/${nameOf(referrer)}: ${matches.map((m) => `${kindOf(m)}/${namespaceOf(m)}/${nameOf(m)}`).join(", ")}`,
  );
}

function fixValue(value: Json, referrer: Resource, targets: Resource[], referral: Referral, field: string): Json {
  const referrerNs = namespaceOf(referrer) || undefined;
  if (typeof value === "string") {
    const ns =
      isClusterScoped(referral.kind, referral.group) || isClusterScoped(kindOf(referrer), groupVersion(referrer).group)
        ? undefined
        : (referrerNs ?? "");
    const target = pick(value, referrer, candidatesFor(value, ns, targets, referral), field);
    return target ? nameOf(target) : value;
  }
  if (Array.isArray(value)) return value.map((v) => fixValue(v, referrer, targets, referral, field));
  if (value && typeof value === "object" && typeof value.name === "string") {
    const obj = value as JsonObject;
    if (obj.kind !== undefined && obj.kind !== referral.kind) return value; // e.g. subjects of kind User
    const ns = typeof obj.namespace === "string" ? obj.namespace : (referrerNs ?? "");
    const target = pick(obj.name as string, referrer, candidatesFor(obj.name as string, ns, targets, referral), field);
    if (!target) return value;
    const out: JsonObject = { ...obj, name: nameOf(target) };
    if (namespaceOf(target)) out.namespace = namespaceOf(target);
    return out;
  }
  return value;
}

export function fixNameReferences(resources: Resource[], extra: Referral[] = []): void {
  for (const referral of [...NAME_REFERENCES, ...extra]) {
    const targets = resources.filter((r) => kindOf(r) === referral.kind && groupVersion(r).group === referral.group);
    if (!targets.some((t) => t.previous.length)) continue;
    for (const referrer of resources) {
      for (const fs of referral.referrers) {
        if (!specMatches(fs, referrer)) continue;
        walkPath(referrer.obj, splitPath(fs.path), false, (parent, key) => {
          // roleRef names a Role or a ClusterRole: only rewrite when the kind matches.
          if (
            key === "name" &&
            typeof parent.kind === "string" &&
            parent.apiGroup !== undefined &&
            parent.kind !== referral.kind
          )
            return;
          parent[key] = fixValue(parent[key]!, referrer, targets, referral, fs.path);
        });
      }
    }
  }
}
