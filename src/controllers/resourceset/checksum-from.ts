// The checksumFrom annotation (resourceset_controller_configs.go): wherever a rendered object has a
// `metadata` map whose annotations carry fluxcd.controlplane.io/checksumFrom ('Kind/namespace/name', comma
// separated, ConfigMap or Secret), fluxcd.controlplane.io/checksum is set beside it to the sha256 over the
// referenced data (per reference: the key, NUL, then each sorted key NUL value NUL) — so a pod template
// rolls when a config it reads changes. References rendered by this ResourceSet are read from the set,
// others from the cluster; those are returned (sorted) for status.externalChecksumRefs.
import { createHash } from "node:crypto";
import type { KubeObject } from "../../api/meta/object.js";
import { OPERATOR_GROUP } from "../../api/kinds.js";
import { OPERATOR_ANNOTATIONS } from "../../api/operator/resourceset.js";
import type { Cluster } from "../../kube/cluster.js";
import { ResourceSetBuildError } from "./build.js";

export const CHECKSUM_ANNOTATION = `${OPERATOR_GROUP}/checksum`;
type Data = Record<string, string>;
type Canonical = Map<string, Buffer>;
type Holder = KubeObject & { data?: Data; binaryData?: Data; stringData?: Data };

const refKey = (kind: string, ns: string, name: string) => `${kind}/${ns}/${name}`;

function canonical(o: Holder): Canonical {
  const out: Canonical = new Map();
  const b64 = (v: string) => Buffer.from(v, "base64");
  if (o.kind === "ConfigMap") {
    for (const [k, v] of Object.entries(o.data ?? {})) out.set(k, Buffer.from(v, "utf8"));
    for (const [k, v] of Object.entries(o.binaryData ?? {})) out.set(k, b64(v));
  } else {
    for (const [k, v] of Object.entries(o.data ?? {})) out.set(k, b64(v));
    for (const [k, v] of Object.entries(o.stringData ?? {})) out.set(k, Buffer.from(v, "utf8"));
  }
  return out;
}

export async function computeChecksums(cluster: Cluster, objects: KubeObject[]): Promise<string[]> {
  const rendered = new Map<string, Holder>();
  for (const o of objects)
    if (o.kind === "ConfigMap" || o.kind === "Secret")
      rendered.set(refKey(o.kind, o.metadata.namespace ?? "", o.metadata.name), o);
  const cache = new Map<string, Canonical>();
  const external = new Set<string>();

  const data = async (kind: string, ns: string, name: string): Promise<Canonical> => {
    const key = refKey(kind, ns, name);
    let d = cache.get(key);
    if (d) return d;
    const inSet = rendered.get(key);
    if (inSet) d = canonical(inSet);
    else {
      const found = await cluster.get({ apiVersion: "v1", kind, metadata: { name, namespace: ns } });
      if (!found)
        throw new ResourceSetBuildError(
          `failed to resolve ${OPERATOR_ANNOTATIONS.checksumFrom} reference ${kind}/${ns}/${name}: ${kind} not found`,
        );
      d = canonical(found as Holder);
      external.add(key);
    }
    cache.set(key, d);
    return d;
  };

  const resolve = async (refs: string): Promise<string> => {
    const parts: Buffer[] = [];
    const nul = Buffer.from([0]);
    for (const raw of refs.split(",")) {
      const ref = raw.trim();
      if (!ref) continue;
      const [kind, ns, name, ...rest] = ref.split("/");
      if (!kind || !ns || !name || rest.length)
        throw new ResourceSetBuildError(
          `invalid ${OPERATOR_ANNOTATIONS.checksumFrom} reference '${ref}' must be in the format 'Kind/namespace/name'`,
        );
      if (kind !== "ConfigMap" && kind !== "Secret")
        throw new ResourceSetBuildError(
          `unsupported kind '${kind}' in ${OPERATOR_ANNOTATIONS.checksumFrom}, only ConfigMap and Secret are allowed`,
        );
      const d = await data(kind, ns, name);
      parts.push(Buffer.from(refKey(kind, ns, name)), nul);
      for (const k of [...d.keys()].sort()) parts.push(Buffer.from(k), nul, d.get(k)!, nul);
    }
    return "sha256:" + createHash("sha256").update(Buffer.concat(parts)).digest("hex");
  };

  const walk = async (node: unknown): Promise<void> => {
    if (Array.isArray(node)) {
      for (const item of node) await walk(item);
      return;
    }
    if (node === null || typeof node !== "object") return;
    const map = node as Record<string, unknown>;
    const ann = (map.metadata as { annotations?: Record<string, unknown> } | undefined)?.annotations;
    const refs = ann?.[OPERATOR_ANNOTATIONS.checksumFrom];
    if (ann && typeof refs === "string" && refs !== "") ann[CHECKSUM_ANNOTATION] = await resolve(refs);
    for (const v of Object.values(map)) await walk(v);
  };
  for (const o of objects) await walk(o);
  return [...external].sort();
}
