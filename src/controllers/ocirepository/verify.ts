// spec.verify with cosign public keys, as source-controller checks it with a key (offline, no
// transparency log): the signatures cosign pushes beside the artifact at the tag `sha256-<hex>.sig`
// (simple-signing payloads, one layer each, the signature in the layer's annotation) must hold one
// whose payload names the artifact's manifest digest and whose signature verifies with one of the
// Secret's `*.pub` keys. (Keyless cosign and notation are refused by name: unsupported-fields.ts.)
// Failures: SourceVerified=False, VerificationError, as Flux words them.
import { createPublicKey, verify as verifySignature, type KeyObject } from "node:crypto";
import { USED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { OCIRepository } from "../../api/source/oci-repository.js";
import type { KubeClient } from "../../kube/client.js";
import type { RegistryClient } from "../../sources/oci/client.js";
import { OciNotFoundError } from "../../sources/oci/errors.js";
import { ReconcileFailure } from "../kit/failure.js";
import type { Resolved } from "./resolve.js";

const SIGNATURE_ANNOTATION = "dev.cosignproject.cosign/signature";
const MAX_PAYLOAD_BYTES = 64 * 1024;

const failed = (why: string) =>
  new ReconcileFailure("VerificationError", `failed to verify the signature using provider 'cosign': ${why}`, {
    condition: "SourceVerified",
  });

/** The Secret's `*.pub` entries as public keys; a key that does not parse is named. */
async function publicKeys(client: KubeClient, obj: OCIRepository): Promise<KeyObject[]> {
  const name = obj.spec.verify!.secretRef!.name;
  const ns = obj.metadata.namespace!;
  let data: Record<string, string>;
  try {
    data = (await client.get<{ data?: Record<string, string> }>(pathOf(USED_KINDS.Secret, ns, name))).data ?? {};
  } catch (err) {
    throw failed(`failed to get secret '${ns}/${name}': ${(err as Error).message.replace(/^[^:]+: /, "")}`);
  }
  const entries = Object.entries(data).filter(([k]) => k.endsWith(".pub"));
  if (!entries.length) throw failed(`no public keys ('*.pub') found in secret '${ns}/${name}'`);
  return entries.map(([k, v]) => {
    try {
      return createPublicKey(Buffer.from(v, "base64").toString("utf8"));
    } catch {
      throw failed(`secret '${ns}/${name}': '${k}' is not a PEM public key`);
    }
  });
}

/** Verifies the resolved artifact's cosign signature; returns the SourceVerified message. */
export async function verifyCosign(
  kube: KubeClient,
  registry: RegistryClient,
  obj: OCIRepository,
  resolved: Resolved,
): Promise<string> {
  const keys = await publicKeys(kube, obj);
  const repository = resolved.repository.repository;
  const none = failed(`no matching signatures were found for '${resolved.name}'`);
  let signatures;
  try {
    signatures = await registry.getManifest(repository, `${resolved.digest.replace(":", "-")}.sig`);
  } catch (err) {
    if (err instanceof OciNotFoundError) throw none;
    throw failed((err as Error).message);
  }
  for (const layer of signatures.manifest.layers) {
    const signature = layer.annotations?.[SIGNATURE_ANNOTATION];
    if (!signature) continue;
    const payload = await registry.getBlob(repository, layer.digest, MAX_PAYLOAD_BYTES);
    let signed: string | undefined;
    try {
      signed = (JSON.parse(payload.toString("utf8")) as { critical?: { image?: Record<string, string> } }).critical
        ?.image?.["docker-manifest-digest"];
    } catch {
      continue; // not a simple-signing payload
    }
    if (signed !== resolved.digest) continue;
    const sig = Buffer.from(signature, "base64");
    if (keys.some((key) => verifySignature("sha256", payload, key, sig)))
      return `verified signature of revision ${resolved.revision}`;
  }
  throw none;
}
