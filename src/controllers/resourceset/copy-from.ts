// The operator's data-copying annotations on generated objects (internal/copier and
// resourceset_controller_configs.go), applied after commonMetadata and before the digest:
// - copyFrom: 'namespace/name' — a v1 ConfigMap gets the source's data (and binaryData), a v1 Secret its
//   data as stringData (and its type when the template sets none);
// - convertKubeConfigFrom: 'namespace/name[:key]' — a v1 ConfigMap gets `address` and `ca.crt` from the first
//   cluster of the kubeconfig in that Secret (key `kubeconfig`, else `value`), keeping keys the template set.
// Sources are read as the ResourceSet's service account, as the operator reads them with its apply client.
import { parse as parseYaml } from "yaml";
import type { KubeObject } from "../../api/meta/object.js";
import { OPERATOR_ANNOTATIONS } from "../../api/operator/resourceset.js";
import type { Cluster } from "../../kube/cluster.js";
import { ResourceSetBuildError } from "./build.js";

type Data = Record<string, string>;
type Source = KubeObject & { data?: Data; binaryData?: Data; type?: string };

const isV1 = (o: KubeObject, kind: string) => o.apiVersion === "v1" && o.kind === kind;
const decode = (v: string) => Buffer.from(v, "base64").toString("utf8");

async function read(cluster: Cluster, kind: string, ref: string): Promise<Source | undefined> {
  const [namespace, name] = ref.split("/");
  return (await cluster.get({ apiVersion: "v1", kind, metadata: { name: name!, namespace: namespace! } })) as
    Source | undefined;
}

export async function copyResources(cluster: Cluster, objects: KubeObject[]): Promise<void> {
  for (const o of objects) {
    const source = o.metadata.annotations?.[OPERATOR_ANNOTATIONS.copyFrom];
    if (source === undefined || o.apiVersion !== "v1") continue;
    if (source.split("/").length !== 2)
      throw new ResourceSetBuildError(
        `invalid ${OPERATOR_ANNOTATIONS.copyFrom} annotation value '${source}' must be in the format 'namespace/name'`,
      );
    const t = o as Source & { stringData?: Data };
    if (o.kind === "ConfigMap") {
      const cm = await read(cluster, "ConfigMap", source);
      if (!cm) throw new ResourceSetBuildError(`failed to copy data from ConfigMap/${source}: not found`);
      t.data = { ...(cm.data ?? {}) };
      if (cm.binaryData && Object.keys(cm.binaryData).length) t.binaryData = { ...cm.binaryData };
    } else if (o.kind === "Secret") {
      const secret = await read(cluster, "Secret", source);
      if (!secret) throw new ResourceSetBuildError(`failed to copy data from Secret/${source}: not found`);
      if (t.type === undefined) t.type = secret.type || "Opaque";
      t.stringData = Object.fromEntries(Object.entries(secret.data ?? {}).map(([k, v]) => [k, decode(v)]));
    }
  }
}

/** The server and CA (PEM text) of a kubeconfig's first cluster, as kubeconfig.ExtractFluxFields reads them. */
export function kubeConfigFields(text: string): { server: string; caCert: string } {
  let config: { clusters?: { name?: string; cluster?: Record<string, string> }[] };
  try {
    config = (parseYaml(text) ?? {}) as typeof config;
  } catch (err) {
    throw new ResourceSetBuildError(`failed to parse kubeconfig YAML: ${(err as Error).message}`);
  }
  const first = config.clusters?.[0];
  if (!first) throw new ResourceSetBuildError("no clusters found in kubeconfig");
  const server = first.cluster?.server;
  if (!server) throw new ResourceSetBuildError(`server field is empty in kubeconfig cluster "${first.name ?? ""}"`);
  const ca = first.cluster?.["certificate-authority-data"];
  if (!ca)
    throw new ResourceSetBuildError(
      `certificate-authority-data field is empty in kubeconfig cluster "${first.name ?? ""}"`,
    );
  return { server, caCert: decode(ca) };
}

export async function convertKubeConfigResources(cluster: Cluster, objects: KubeObject[]): Promise<void> {
  const annotation = OPERATOR_ANNOTATIONS.convertKubeConfigFrom;
  for (const o of objects) {
    const source = o.metadata.annotations?.[annotation];
    if (source === undefined || !isV1(o, "ConfigMap")) continue;
    let key = "";
    let ref = source;
    const colon = source.lastIndexOf(":");
    const slash = source.indexOf("/");
    if (colon > 0 && slash > 0 && colon > slash) {
      key = source.slice(colon + 1);
      ref = source.slice(0, colon);
    }
    if (ref.split("/").length !== 2)
      throw new ResourceSetBuildError(
        `invalid ${annotation} annotation value '${source}' must be in the format 'namespace/name' or 'namespace/name:key'`,
      );
    const secret = await read(cluster, "Secret", ref);
    if (!secret) throw new ResourceSetBuildError(`failed to get kubeconfig Secret/${ref}: not found`);
    const data = secret.data ?? {};
    const raw = key ? data[key] : (data.kubeconfig ?? data.value);
    if (raw === undefined)
      throw new ResourceSetBuildError(
        key
          ? `kubeconfig Secret/${ref} does not have '${key}' field`
          : `kubeconfig Secret/${ref} does not have 'kubeconfig' or 'value' field`,
      );
    let fields;
    try {
      fields = kubeConfigFields(decode(raw));
    } catch (err) {
      throw new ResourceSetBuildError(
        `failed to extract fields from kubeconfig Secret/${source}: ${(err as Error).message}`,
      );
    }
    const t = o as Source;
    t.data = { address: fields.server, "ca.crt": fields.caCert, ...(t.data ?? {}) };
  }
}
