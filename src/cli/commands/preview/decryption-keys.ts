// The SOPS keys `flotilla build|diff kustomization` decrypts with, locally: the --decryption-key files
// (age identity files as age-keygen writes them, armored OpenPGP private keys), else the in-cluster
// Secret spec.decryption.secretRef names when the user may read it. Without a key, an encrypted input
// is refused naming the file and the flag, rather than previewing ciphertext the controller would
// never apply.
import { readFileSync } from "node:fs";
import { openSopsKeyring, type SopsKeyring } from "../../../binaries/sops/index.js";
import type { Kustomization } from "../../../api/kustomize/kustomization.js";
import { encryptedInputs } from "../../../controllers/kustomization/build.js";
import { sopsKeyringFor } from "../../../controllers/kustomization/sops-keys.js";
import type { Cluster } from "../../../kube/cluster.js";
import { UsageError } from "../../errors.js";

export const DECRYPTION_KEY_FLAG = "--decryption-key <age identity file | OpenPGP private key .asc>";
/** What a failed local decryption asks the user to do. */
export const LOCAL_DECRYPTION_HINT =
  "check that --decryption-key names the age or OpenPGP key the file was encrypted for";

const PGP_PRIVATE = "-----BEGIN PGP PRIVATE KEY BLOCK-----";

/** A keyring of the key files, each read as an age identity file or an armored OpenPGP private key. */
export async function keyringOfFiles(files: string[]): Promise<SopsKeyring> {
  const age: string[] = [];
  const pgp = new Map<string, Uint8Array>();
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (err) {
      throw new UsageError(`--decryption-key ${file}: cannot read it: ${(err as NodeJS.ErrnoException).code ?? err}`);
    }
    if (text.includes(PGP_PRIVATE)) {
      pgp.set(file, Buffer.from(text));
      continue;
    }
    const lines = text
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("#"));
    // Never echo the content: a key file that is not one may still be secret.
    if (!lines.length || lines.some((l) => !l.startsWith("AGE-SECRET-KEY-")))
      throw new UsageError(
        `--decryption-key ${file}: not an age identity file (AGE-SECRET-KEY-… lines, as age-keygen writes them) ` +
          `nor an armored OpenPGP private key (${PGP_PRIVATE}, as gpg --export-secret-keys --armor writes it)`,
      );
    age.push(...lines);
  }
  try {
    return await openSopsKeyring(age, pgp);
  } catch (err) {
    throw new UsageError(`--decryption-key: ${(err as Error).message}`);
  }
}

/**
 * The keyring to preview `ks` with (close it after), or undefined when nothing needs decrypting.
 * `dir` is the local directory built as spec.path, `spec` the spec it is built with.
 */
export async function previewKeyring(
  cluster: Cluster,
  ks: Kustomization,
  dir: string,
  spec: Kustomization["spec"],
  keyFiles: string[],
): Promise<SopsKeyring | undefined> {
  const id = `Kustomization '${ks.metadata.namespace}/${ks.metadata.name}'`;
  if (keyFiles.length) {
    if (!ks.spec.decryption)
      throw new UsageError(
        `${id} has no spec.decryption: its controller would not decrypt, so neither does the preview; drop --decryption-key or set spec.decryption`,
      );
    return keyringOfFiles(keyFiles);
  }
  if (!ks.spec.decryption) return undefined;
  const encrypted = encryptedInputs(dir, spec);
  if (!encrypted.length) return undefined;
  const ref = ks.spec.decryption.secretRef;
  const ask = (why: string) =>
    new UsageError(`${encrypted[0]} is SOPS-encrypted and ${why}: pass ${DECRYPTION_KEY_FLAG} to decrypt it locally`);
  if (!ref) throw ask(`${id} names no decryption Secret (spec.decryption.secretRef)`);
  try {
    return await sopsKeyringFor(cluster, ks);
  } catch (err) {
    throw ask(`the key Secret cannot be used: ${(err as Error).message}`);
  }
}
