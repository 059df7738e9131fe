// How a ResourceSet's input sets are combined, as the Flux Operator combines them (internal/inputs):
// the ResourceSet's own inputs first, then each provider's in the order of (apiVersion/kind, namespace,
// name); every input set carries `provider` (who exported it). Flatten concatenates; Permute takes the
// Cartesian product, each provider's set under its normalized name and `id` the adler32 of the choice,
// refusing more than 10,000 permutations.
import { ReconcileFailure } from "../kit/failure.js";

export const MAX_PERMUTATIONS = 10_000;

export type InputSet = Record<string, unknown>;

export interface InputSource {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string;
  inputs: InputSet[];
}

/** inputs.ID: the decimal adler32 checksum of a string. */
export function inputId(s: string): string {
  let a = 1;
  let b = 0;
  for (const byte of Buffer.from(s, "utf8")) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return String(((b << 16) | a) >>> 0);
}

/** NormalizeKeyForTemplate: lower case, spaces and punctuation to `_`, other characters dropped. */
export function normalizeKey(key: string): string {
  let out = "";
  for (const ch of key.toLowerCase()) {
    if (/[\s\p{P}]/u.test(ch)) out += "_";
    else if (/[a-z0-9]/.test(ch)) out += ch;
  }
  return out
    .split("_")
    .filter((w) => w !== "")
    .join("_");
}

const withProvider = (s: InputSource): InputSet[] =>
  s.inputs.map((i) => ({
    ...i,
    provider: { apiVersion: s.apiVersion, kind: s.kind, name: s.name, namespace: s.namespace },
  }));

const sortKey = (s: InputSource) => `${s.apiVersion.split("/")[0]}/${s.apiVersion.split("/")[1]}, Kind=${s.kind}`;

/** The operator's order: the ResourceSet, then providers by GVK string, namespace, name. */
export function orderProviders(rset: InputSource, providers: InputSource[]): InputSource[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const sorted = [...providers].sort(
    (a, b) => cmp(sortKey(a), sortKey(b)) || cmp(a.namespace, b.namespace) || cmp(a.name, b.name),
  );
  return [rset, ...sorted];
}

export function combineInputs(
  strategy: "Flatten" | "Permute",
  sources: InputSource[],
  includeEmptyProviders = false,
): InputSet[] {
  if (strategy === "Flatten") return sources.flatMap(withProvider);
  const scoped: { name: string; sets: InputSet[] }[] = [];
  let expected = 0;
  for (const s of sources) {
    if (!includeEmptyProviders && s.inputs.length === 0) continue;
    expected = scoped.length === 0 ? s.inputs.length : expected * s.inputs.length;
    const where = `failed to get inputs from ${s.kind}/${s.name}`;
    if (expected > MAX_PERMUTATIONS)
      throw new ReconcileFailure(
        "BuildFailed",
        `failed to compute inputs: ${where}: adding provider '${s.name}' with ${s.inputs.length} inputs would exceed the maximum allowed permutations. max: ${MAX_PERMUTATIONS}, got: ${expected}`,
        { stalled: true },
      );
    const name = normalizeKey(s.name);
    if (!name)
      throw new ReconcileFailure(
        "BuildFailed",
        `failed to compute inputs: ${where}: normalized provider name is empty: '${s.name}'`,
        { stalled: true },
      );
    scoped.push({ name, sets: withProvider(s) });
  }
  if (scoped.length === 0 || scoped.some((p) => p.sets.length === 0)) return [];
  const out: InputSet[] = [];
  const choose = (i: number, picked: number[]) => {
    if (i === scoped.length) {
      const perm: InputSet = {};
      picked.forEach((k, p) => (perm[scoped[p]!.name] = scoped[p]!.sets[k]));
      perm.id = inputId(picked.map((k, p) => `${scoped[p]!.name}=${k}`).join("/"));
      out.push(perm);
      return;
    }
    for (let k = 0; k < scoped[i]!.sets.length; k++) choose(i + 1, [...picked, k]);
  };
  choose(0, []);
  return out;
}
