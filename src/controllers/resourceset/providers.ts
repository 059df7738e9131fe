// inputsFrom: the ResourceSetInputProviders a ResourceSet reads, by name or label selector, in its own
// namespace. flotilla computes the Static type here (defaultValues with id = adler32 of the object's UID, as
// the operator's provider controller exports it); ExternalService and OCIArtifactTag are read from the
// provider's status.exportedInputs (provider-reconciler.ts); every other type is refused by name.
import { OPERATOR_GROUP, SERVED_KINDS } from "../../api/kinds.js";
import type { ResourceSet } from "../../api/operator/resourceset.js";
import type { ResourceSetInputProvider } from "../../api/operator/resourceset-input-provider.js";
import { gvkOf } from "../../api/kinds.js";
import type { Cluster } from "../../kube/cluster.js";
import { ReconcileFailure } from "../kit/failure.js";
import { type InputSource, inputId } from "./inputs.js";
import { COMPUTED_PROVIDER_TYPES } from "./provider-unsupported.js";

const API_VERSION = `${OPERATOR_GROUP}/v1`;
const failed = (message: string) =>
  new ReconcileFailure("BuildFailed", `failed to compute inputs: ${message}`, { stalled: true });

type Selector = NonNullable<NonNullable<ResourceSet["spec"]["inputsFrom"]>[number]["selector"]>;

/** A label selector as the API's labelSelector query (matchLabels and the set-based expressions). */
export function selectorQuery(sel: Selector): string {
  const parts = Object.entries(sel.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const e of (sel.matchExpressions ?? []) as { key: string; operator: string; values?: string[] }[]) {
    const values = `(${(e.values ?? []).join(",")})`;
    if (e.operator === "In") parts.push(`${e.key} in ${values}`);
    else if (e.operator === "NotIn") parts.push(`${e.key} notin ${values}`);
    else if (e.operator === "Exists") parts.push(e.key);
    else if (e.operator === "DoesNotExist") parts.push(`!${e.key}`);
    else throw failed(`failed to parse selector: unknown operator '${e.operator}'`);
  }
  return parts.join(",");
}

/** The input sets a provider exports: Static's computed here, the others as its controller exported them. */
export function exported(p: ResourceSetInputProvider): InputSource {
  const where = `ResourceSetInputProvider/${p.metadata.namespace}/${p.metadata.name}`;
  if (!COMPUTED_PROVIDER_TYPES.includes(p.spec.type))
    throw failed(
      `${where} has spec.type '${p.spec.type}', which flotilla does not implement: only ${COMPUTED_PROVIDER_TYPES.join(", ")} input providers are supported (decision 0040); list the inputs in spec.inputs or a Static provider's spec.defaultValues`,
    );
  const inputs =
    p.spec.type === "Static"
      ? [{ ...(p.spec.defaultValues ?? {}), id: inputId(p.metadata.uid ?? "") }]
      : (p.status?.exportedInputs ?? []);
  return {
    apiVersion: API_VERSION,
    kind: "ResourceSetInputProvider",
    name: p.metadata.name,
    namespace: p.metadata.namespace!,
    inputs,
  };
}

/** The ResourceSet's own spec.inputs as an input source, ordered with its providers' (the operator's order). */
export function ownInputs(rset: ResourceSet): InputSource {
  return {
    apiVersion: "fluxcd.controlplane.io/v1",
    kind: "ResourceSet",
    name: rset.metadata.name,
    namespace: rset.metadata.namespace!,
    inputs: rset.spec.inputs ?? [],
  };
}

export async function readProviders(cluster: Cluster, rset: ResourceSet): Promise<InputSource[]> {
  return (await findProviders(cluster, rset)).map(exported);
}

/** The providers a ResourceSet's inputsFrom names or selects (the dashboard shows them too). */
export async function findProviders(cluster: Cluster, rset: ResourceSet): Promise<ResourceSetInputProvider[]> {
  const ns = rset.metadata.namespace!;
  const found = new Map<string, ResourceSetInputProvider>();
  const gvk = gvkOf(SERVED_KINDS.ResourceSetInputProvider);
  for (const ref of rset.spec.inputsFrom ?? []) {
    if (ref.name) {
      const p = (await cluster.get({
        apiVersion: API_VERSION,
        kind: gvk.kind,
        metadata: { name: ref.name, namespace: ns },
      })) as ResourceSetInputProvider | undefined;
      if (!p) throw failed(`failed to get provider ${ns}/${ref.name}: ResourceSetInputProvider not found`);
      found.set(p.metadata.name, p);
    } else if (ref.selector) {
      const items = await cluster.list(gvk, ns, { labelSelector: selectorQuery(ref.selector) });
      for (const p of items) found.set(p.metadata.name, p as ResourceSetInputProvider);
    } else {
      throw failed("input provider reference must have either name or selector set");
    }
  }
  return [...found.values()];
}
