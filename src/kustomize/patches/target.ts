// Patch targets: group/version/kind/name/namespace are anchored regular expressions (name and
// namespace also match earlier values), label and annotation selectors use Kubernetes syntax.
import { KustomizeError } from "../errors.js";
import type { Target } from "../kustomization-file.js";
import { groupVersion, type JsonObject, kindOf, meta, nameOf, namespaceOf, type Resource } from "../resource.js";
import { isClusterScoped } from "../transformers/scope.js";

function anchored(pattern: string, field: string): RegExp {
  try {
    return new RegExp(`^(?:${pattern})$`);
  } catch (err) {
    throw new KustomizeError(
      `patch target ${field} "${pattern}" is not a valid regular expression: ${(err as Error).message}`,
    );
  }
}

/** `a=b,c!=d,e in (x,y),f notin (z),g,!h` against a string map. */
function matchesSelector(selector: string, values: Record<string, string>): boolean {
  const terms = selector.match(/(?:[^,(]|\([^)]*\))+/g) ?? [];
  return terms.every((raw) => {
    const term = raw.trim();
    let m: RegExpExecArray | null;
    if ((m = /^(\S+)\s+(in|notin)\s+\((.*)\)$/.exec(term))) {
      const set = m[3]!.split(",").map((s) => s.trim());
      const has = Object.hasOwn(values, m[1]!) && set.includes(values[m[1]!]!);
      return m[2] === "in" ? has : !has;
    }
    if ((m = /^(\S+?)\s*(!=|==|=)\s*(\S*)$/.exec(term))) {
      const equal = values[m[1]!] === m[3];
      return m[2] === "!=" ? !equal : equal;
    }
    if (term.startsWith("!")) return !Object.hasOwn(values, term.slice(1).trim());
    return Object.hasOwn(values, term);
  });
}

const effectiveNamespace = (r: Resource, ns: string) =>
  isClusterScoped(kindOf(r), groupVersion(r).group) ? "_non_namespaceable_" : ns || "default";

export function selectTargets(resources: Resource[], t: Target): Resource[] {
  const re = (v: string | undefined, field: string) => (v ? anchored(v, field) : undefined);
  const [g, v, k, n, ns] = [
    re(t.group, "group"),
    re(t.version, "version"),
    re(t.kind, "kind"),
    re(t.name, "name"),
    re(t.namespace, "namespace"),
  ];
  return resources.filter((r) => {
    const gv = groupVersion(r);
    if (g && !g.test(gv.group)) return false;
    if (v && !v.test(gv.version)) return false;
    if (k && !k.test(kindOf(r))) return false;
    if (n && ![nameOf(r), ...r.previous.map((p) => p.name)].some((x) => n.test(x))) return false;
    if (ns && ![namespaceOf(r), ...r.previous.map((p) => p.namespace)].some((x) => ns.test(effectiveNamespace(r, x))))
      return false;
    const m = meta(r);
    if (t.labelSelector && !matchesSelector(t.labelSelector, (m.labels as Record<string, string>) ?? {})) return false;
    if (
      t.annotationSelector &&
      !matchesSelector(t.annotationSelector, ((m.annotations as JsonObject) ?? {}) as Record<string, string>)
    )
      return false;
    return true;
  });
}
