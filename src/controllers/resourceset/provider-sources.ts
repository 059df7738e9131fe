// The input sets a ResourceSetInputProvider exports, computed as the operator's provider controller does
// (resourcesetinputprovider_controller.go): ExternalService GETs spec.url for `{"inputs": [...]}` (each with a
// unique string `id`, at most 900 KiB, first `limit` kept; secretRef `token` as Bearer, else username/password
// as basic auth); OCIArtifactTag lists the repository's tags, filters them (provider-filters.ts) and exports
// `{id: adler32(tag), tag, digest}` per tag. spec.defaultValues fill keys an input set lacks.
import type { ResourceSetInputProvider } from "../../api/operator/resourceset-input-provider.js";
import type { Cluster } from "../../kube/cluster.js";
import { RegistryClient } from "../../sources/oci/client.js";
import { parseOciUrl } from "../../sources/oci/reference.js";
import { type CallBudget, getCapped, secretOf } from "./provider-http.js";
import { filterOf, filterTags, limitOf } from "./provider-filters.js";
import { inputId, type InputSet } from "./inputs.js";

const MAX_PAYLOAD = 900 * 1024;
const withDefaults = (p: ResourceSetInputProvider, set: InputSet): InputSet => ({
  ...(p.spec.defaultValues ?? {}),
  ...set,
});

export async function externalServiceInputs(
  cluster: Cluster,
  p: ResourceSetInputProvider,
  budget: CallBudget,
): Promise<InputSet[]> {
  const url = p.spec.url!;
  const headers: Record<string, string> = { accept: "application/json", "user-agent": "flux-operator/flotilla" };
  const auth = await secretOf(cluster, p, "secretRef");
  if (auth) {
    if (auth.token !== undefined) headers.authorization = `Bearer ${auth.token.trim()}`;
    else if (auth.username !== undefined && auth.password !== undefined)
      headers.authorization = `Basic ${Buffer.from(`${auth.username.trim()}:${auth.password.trim()}`).toString("base64")}`;
    else
      throw new Error(
        `failed to get auth credentials: invalid secret '${p.metadata.namespace}/${(p.spec.secretRef as { name: string }).name}': key '${auth.username === undefined ? "username" : "password"}' is missing`,
      );
  }
  const res = await getCapped(
    url,
    headers,
    budget,
    MAX_PAYLOAD,
    `external service '${url}'`,
    () => `external service '${url}' response body exceeds the maximum allowed size of ${MAX_PAYLOAD} bytes`,
  );
  if (res.status < 200 || res.status >= 300) throw new Error(`external service '${url}' returned HTTP ${res.status}`);
  const body = res.body;
  let parsed: { inputs?: unknown };
  try {
    parsed = JSON.parse(body.toString("utf8")) as { inputs?: unknown };
  } catch (err) {
    throw new Error(`failed to parse JSON response from external service '${url}': ${(err as Error).message}`);
  }
  if (!Array.isArray(parsed?.inputs))
    throw new Error(`external service '${url}' response does not contain an 'inputs' field`);
  const seen = new Set<string>();
  parsed.inputs.forEach((input: Record<string, unknown>, i) => {
    if (input?.id === undefined)
      throw new Error(`external service '${url}' input at index ${i} is missing the required 'id' field`);
    if (typeof input.id !== "string")
      throw new Error(`external service '${url}' input at index ${i} has a non-string 'id' field`);
    if (seen.has(input.id))
      throw new Error(`external service '${url}' input at index ${i} has a duplicate 'id' value '${input.id}'`);
    seen.add(input.id);
  });
  return (parsed.inputs as InputSet[]).slice(0, limitOf(filterOf(p))).map((i) => withDefaults(p, i));
}

export async function ociTagInputs(p: ResourceSetInputProvider, timeoutMs: number): Promise<InputSet[]> {
  const ref = parseOciUrl(p.spec.url!);
  const client = new RegistryClient(ref.registry, { insecure: p.spec.insecure === true, timeoutMs });
  const name = `${ref.registry}/${ref.repository}`;
  try {
    let tags: string[];
    try {
      tags = await client.listTags(ref.repository);
    } catch (err) {
      throw new Error(`failed to list OCI tags for '${name}': ${(err as Error).message}`);
    }
    const out: InputSet[] = [];
    for (const tag of filterTags(tags, filterOf(p))) {
      let digest: string;
      try {
        ({ digest } = await client.getManifest(ref.repository, tag));
      } catch (err) {
        throw new Error(`failed to get digest for tag '${tag}' in repository '${name}': ${(err as Error).message}`);
      }
      out.push(withDefaults(p, { id: inputId(tag), tag, digest }));
    }
    return out;
  } finally {
    await client.close();
  }
}
