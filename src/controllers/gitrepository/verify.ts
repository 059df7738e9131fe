// spec.verify: the checked-out commit (HEAD), the tag it was reached through (Tag), or both
// (TagAndHEAD) must carry a valid OpenPGP signature by one of the public keys in the secret. Outcomes
// use Flux's SourceVerified reasons; the success message lists what was verified with which key.
import { USED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { GitRepository } from "../../api/source/git-repository.js";
import type { KubeClient } from "../../kube/client.js";
import { sandboxedGit } from "../../sources/git/git-cli.js";
import type { ResolvedRef } from "../../sources/git/refs.js";
import { SignatureError, verifySignature, withKeyring } from "../../sources/git/signatures.js";
import { verifyMode } from "./content-config.js";
import { ReconcileFailure } from "../kit/failure.js";
import type { Remote } from "./remote.js";

const fail = (reason: string, message: string, stalled = false) =>
  new ReconcileFailure(reason, message, { condition: "SourceVerified", stalled });

async function publicKeys(client: KubeClient, obj: GitRepository): Promise<string[]> {
  const name = obj.spec.verify?.secretRef?.name ?? "";
  try {
    const secret = await client.get<{ data?: Record<string, string> }>(
      pathOf(USED_KINDS.Secret, obj.metadata.namespace, name),
    );
    return Object.values(secret.data ?? {}).map((v) => Buffer.from(v, "base64").toString("utf8"));
  } catch (err) {
    throw fail(
      "VerificationError",
      `PGP public keys secret error: failed to get secret '${obj.metadata.namespace}/${name}': ${(err as Error).message.replace(/^[^:]+: /, "")}`,
    );
  }
}

/** The tag object for `resolved.tag`, fetched next to the checkout; undefined for a lightweight tag. */
async function tagObject(remote: Remote, dir: string, tag: string, commit: string): Promise<string | undefined> {
  const run = (args: string[]) => sandboxedGit(args, { ...remote.git, cwd: dir });
  await run(["fetch", "-q", "--depth", "1", "--no-tags", remote.url, `+refs/tags/${tag}:refs/tags/${tag}`]);
  const peeled = (await run(["rev-parse", `refs/tags/${tag}^{commit}`])).trim();
  if (peeled !== commit) throw fail("InvalidGitObject", `tag '${tag}' moved while it was being verified`);
  if ((await run(["cat-file", "-t", `refs/tags/${tag}`])).trim() !== "tag") return undefined;
  return (await run(["rev-parse", `refs/tags/${tag}`])).trim();
}

/** Verifies per spec.verify; returns the SourceVerified message, or undefined when verification is off. */
export async function verifyCheckout(
  client: KubeClient,
  obj: GitRepository,
  remote: Remote,
  dir: string,
  resolved: ResolvedRef,
  commit: string,
): Promise<string | undefined> {
  const mode = verifyMode(obj);
  if (!mode) return undefined;
  const keys = await publicKeys(client, obj);
  const lines: string[] = [];
  try {
    await withKeyring(keys, async (gnupgHome) => {
      const opts = { ...remote.git, cwd: dir, gnupgHome };
      if (mode === "Tag" || mode === "TagAndHEAD") {
        if (!resolved.tag)
          throw fail(
            "InvalidVerificationMode",
            "cannot verify tag object's signature if a tag reference is not specified",
            true,
          );
        const object = await tagObject(remote, dir, resolved.tag, commit);
        const name = object ? `${resolved.tag}@sha1:${object}` : resolved.tag;
        const unsigned = fail("InvalidGitObject", `cannot verify signature of tag '${name}' since it is not signed`);
        if (!object) throw unsigned; // a lightweight tag has nothing to sign
        try {
          lines.push(`tag '${name}' with key '${await verifySignature("tag", object, opts)}'`);
        } catch (err) {
          if (!(err instanceof SignatureError)) throw err;
          if (err.unsigned) throw unsigned;
          throw fail("InvalidTagSignature", `signature verification of tag '${name}' failed: ${err.message}`);
        }
      }
      if (mode === "HEAD" || mode === "TagAndHEAD") {
        try {
          lines.push(`commit '${commit}' with key '${await verifySignature("commit", commit, opts)}'`);
        } catch (err) {
          if (!(err instanceof SignatureError)) throw err;
          throw fail("InvalidCommitSignature", `signature verification of commit '${commit}' failed: ${err.message}`);
        }
      }
    });
  } catch (err) {
    if (err instanceof SignatureError) throw fail("VerificationError", `PGP public keys secret error: ${err.message}`);
    throw err;
  }
  return `verified signature of\n${lines.map((l) => `\t- ${l}`).join("\n")}`;
}
