// The keys of one Kustomization's decryption, read as kustomize-controller's ImportKeys reads them:
// spec.decryption.secretRef in the Kustomization's namespace (`*.agekey` age identities, `*.asc`
// OpenPGP keys); without a secretRef, the controller-wide --sops-age-secret (age keys only) in the
// controller's namespace. Cloud key service credentials are refused by name: flotilla calls no cloud.
import { USED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import type { Cluster } from "../../kube/cluster.js";
import { NotFoundError } from "../../kube/errors.js";
import { openSopsKeyring, type SopsKeyring } from "../../binaries/sops/index.js";
import { ReconcileFailure } from "../kit/failure.js";

/** The controller-wide fallback age Secret (--sops-age-secret), in the controller's namespace. */
export interface SopsAgeSecret {
  name: string;
  namespace: string;
}

/** Entries of a decryption Secret that hold cloud credentials, which flotilla refuses (by entry name). */
const CLOUD_ENTRIES: Record<string, string> = {
  "sops.vault-token": "HashiCorp Vault",
  "sops.aws-kms": "AWS KMS",
  "sops.azure-kv": "Azure Key Vault",
  "sops.gcp-kms": "GCP KMS",
};

const ext = (name: string) => (name.lastIndexOf(".") > 0 ? name.slice(name.lastIndexOf(".")) : "");

/** Refusals of the spec that retrying cannot fix: Stalled. */
export function decryptionSpecRefusal(ks: Kustomization): ReconcileFailure | undefined {
  const d = ks.spec.decryption;
  if (!d) return undefined;
  if (d.provider !== "sops")
    return new ReconcileFailure(
      "InvalidDecryptionProvider",
      `spec.decryption.provider '${d.provider}' is not supported: the only provider is 'sops'`,
      { stalled: true },
    );
  if (d.serviceAccountName)
    return new ReconcileFailure(
      "BuildFailed",
      "spec.decryption.serviceAccountName is not supported by flotilla: it authenticates to cloud key services, " +
        "which flotilla does not call; decrypt with age or OpenPGP keys in spec.decryption.secretRef",
      { stalled: true },
    );
  return undefined;
}

/**
 * The keyring for `ks` (close it after the build), or undefined when there are no keys to read
 * (no secretRef and no --sops-age-secret): encrypted files then fail to decrypt, naming themselves.
 */
export async function sopsKeyringFor(
  cluster: Cluster,
  ks: Kustomization,
  ageSecret?: SopsAgeSecret,
): Promise<SopsKeyring> {
  const ref = ks.spec.decryption?.secretRef;
  const where = ref
    ? { namespace: ks.metadata.namespace!, name: ref.name, label: "decryption Secret" }
    : ageSecret
      ? { ...ageSecret, label: "SOPS age decryption Secret (--sops-age-secret)" }
      : undefined;
  if (!where) return openSopsKeyring([], new Map());
  const id = `'${where.namespace}/${where.name}'`;
  let data: Record<string, string>;
  try {
    const secret = await cluster.client.get<{ data?: Record<string, string> }>(
      pathOf(USED_KINDS.Secret, where.namespace, where.name),
    );
    data = secret.data ?? {};
  } catch (err) {
    if (err instanceof NotFoundError)
      throw new ReconcileFailure(
        "BuildFailed",
        `${where.label} ${id} not found: create it with the age key (\`kubectl create secret generic ${where.name} ` +
          `-n ${where.namespace} --from-file=age.agekey=<key file>\`) or an OpenPGP key (*.asc)`,
      );
    throw new ReconcileFailure("BuildFailed", `cannot get ${where.label} ${id}: ${(err as Error).message}`);
  }
  const age: string[] = [];
  const pgp = new Map<string, Uint8Array>();
  for (const [name, b64] of Object.entries(data)) {
    const value = Buffer.from(b64, "base64");
    if (ref && CLOUD_ENTRIES[name])
      throw new ReconcileFailure(
        "BuildFailed",
        `${where.label} ${id} entry '${name}' holds ${CLOUD_ENTRIES[name]} credentials, which flotilla does not ` +
          `support: decrypt with age (*.agekey) or OpenPGP (*.asc) keys instead`,
        { stalled: true },
      );
    if (ext(name) === ".agekey") {
      const keys = ageIdentities(value.toString("utf8"));
      if (!keys.length || keys.some((k) => !k.startsWith("AGE-SECRET-KEY-")))
        throw new ReconcileFailure(
          "BuildFailed",
          `failed to import '${name}' data from ${where.label} ${id}: it must hold age identities ` +
            `(AGE-SECRET-KEY-1… or AGE-SECRET-KEY-PQ-1… lines, as age-keygen writes them) and nothing else`,
        );
      age.push(...keys);
    } else if (ref && ext(name) === ".asc") pgp.set(name, value);
  }
  try {
    return await openSopsKeyring(age, pgp);
  } catch (err) {
    throw new ReconcileFailure(
      "BuildFailed",
      `failed to import data from ${where.label} ${id}: ${(err as Error).message}`,
    );
  }
}

/** The identity lines of an age key file (comments and blank lines dropped, as age reads it). */
function ageIdentities(text: string): string[] {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
}
