// A HelmRelease's values in Flux's merge order (fluxcd/pkg chartutil.ChartValuesFromReferences):
// valuesFrom in order (ConfigMap/Secret of the HelmRelease's namespace on the management cluster,
// valuesKey default values.yaml), each deep-merged over the last; then spec.values; an entry with a
// targetPath is set with helm's --set parser on the values so far plus spec.values, so it wins over
// everything. Failures are ValuesError with Flux's message; a Secret's content never appears in one.
import type { KubeClient } from "../../../kube/client.js";
import type { HelmRelease, ValuesReference } from "../../../api/helm/helmrelease.js";
import { USED_KINDS } from "../../../api/kinds.js";
import { pathOf } from "../../../api/paths.js";
import { ApiError, NotFoundError } from "../../../kube/errors.js";
import { YamlSyntaxError } from "../../../kustomize/yaml/parse.js";
import { mergeValues } from "../../../sources/helm/values.js";
import { ReconcileFailure } from "../../kit/failure.js";
import { valuesDigest } from "./digest.js";
import { readValues } from "./read-values.js";
import { replacePathLiteralValue, replacePathValue } from "./strvals.js";

export { valuesDigest } from "./digest.js";

export interface ComposedValues {
  values: Record<string, unknown>;
  /** chartutil.DigestValues: "sha256:<hex>" of the values as sorted YAML (empty map = digest of nothing). */
  digest: string;
}

type Values = Record<string, unknown>;
/** A ConfigMap's or Secret's data as text (a Secret's decoded); null when the object does not exist. */
export type ValuesSource = { data?: Record<string, string> } | null;

/** ErrValuesReference.Error(): "could not resolve [optional ]<Kind> chart values reference '<ns>/<name>' with key '<key>': <reason>". */
function valuesError(namespace: string, ref: ValuesReference, reason: string): ReconcileFailure {
  const optional = ref.optional ? " optional" : "";
  return new ReconcileFailure(
    "ValuesError",
    `could not resolve${optional} ${ref.kind} chart values reference '${namespace}/${ref.name}' with key '${ref.valuesKey || "values.yaml"}': ${reason}`,
  );
}

async function fetchSource(client: KubeClient, namespace: string, ref: ValuesReference): Promise<ValuesSource> {
  const kind = ref.kind === "Secret" ? USED_KINDS.Secret : USED_KINDS.ConfigMap;
  try {
    const obj = await client.get<{ data?: Record<string, string> }>(pathOf(kind, namespace, ref.name));
    if (ref.kind !== "Secret") return { data: obj.data ?? {} };
    const data: Record<string, string> = {};
    for (const [k, v] of Object.entries(obj.data ?? {})) data[k] = Buffer.from(v, "base64").toString("utf8");
    return { data };
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    const reason = err instanceof ApiError ? (err.status.message ?? err.message) : (err as Error).message;
    throw new ReconcileFailure("ValuesError", `failed to get ${ref.kind} '${namespace}/${ref.name}': ${reason}`);
  }
}

function notFoundReason(ref: ValuesReference): string {
  return `${ref.kind === "Secret" ? "secrets" : "configmaps"} "${ref.name}" not found`;
}

/** Why a values text could not be read, without quoting a Secret's content. */
function readReason(ref: ValuesReference, err: unknown): string {
  if (err instanceof YamlSyntaxError) {
    const where = `invalid YAML at line ${err.line}, column ${err.column}`;
    return ref.kind === "Secret"
      ? `failed to read values data: ${where}`
      : `failed to read values data: ${err.message}`;
  }
  return `failed to read values data: ${ref.kind === "Secret" ? "not a YAML map of values" : (err as Error).message}`;
}

export function composeValues(client: KubeClient, hr: HelmRelease): Promise<ComposedValues> {
  return composeValuesFrom(hr, (ref) => fetchSource(client, hr.metadata.namespace!, ref));
}

/** composeValues with the objects read by `read` (one call per object), for the merge rules alone. */
export async function composeValuesFrom(
  hr: HelmRelease,
  read: (ref: ValuesReference) => Promise<ValuesSource>,
): Promise<ComposedValues> {
  const namespace = hr.metadata.namespace!;
  // A copy per reconcile, as Go unmarshals spec.values afresh: a targetPath writes into the maps it
  // shares with it. That sharing is why a nested targetPath (a.b) beats spec.values while a top-level
  // one (a) does not — Flux's behaviour, kept (the merges alias maps exactly as MergeMaps does).
  const inline: Values = structuredClone(hr.spec.values ?? {});
  const fetched = new Map<string, Promise<ValuesSource>>();
  let result: Values = {};
  for (const ref of hr.spec.valuesFrom ?? []) {
    if (ref.kind !== "ConfigMap" && ref.kind !== "Secret")
      throw valuesError(namespace, ref, "unsupported values reference kind");
    // One read per object: every entry naming it sees the same version (or the same absence).
    const id = `${ref.kind}/${ref.name}`;
    if (!fetched.has(id)) fetched.set(id, read(ref));
    const source = await fetched.get(id)!;
    if (source === null) {
      if (ref.optional) continue;
      throw valuesError(namespace, ref, notFoundReason(ref));
    }
    const key = ref.valuesKey || "values.yaml";
    const text = source.data?.[key];
    if (text === undefined) {
      if (ref.optional) continue;
      throw valuesError(namespace, ref, "key not found");
    }
    if (ref.targetPath) {
      result = mergeValues(result, inline);
      try {
        if (ref.literal) replacePathLiteralValue(result, ref.targetPath, text);
        else replacePathValue(result, ref.targetPath, text);
      } catch (err) {
        // helm's parse errors can quote the value (`key "…" has no value`): not for a Secret.
        throw valuesError(namespace, ref, ref.kind === "Secret" ? "failed to merge value" : (err as Error).message);
      }
      continue;
    }
    let values: Values;
    try {
      values = readValues(text, `${ref.kind} ${namespace}/${ref.name} key ${key}`);
    } catch (err) {
      throw valuesError(namespace, ref, readReason(ref, err));
    }
    result = mergeValues(result, values);
  }
  const values = mergeValues(result, inline);
  return { values, digest: valuesDigest(values) };
}
