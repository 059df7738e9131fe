// `tag artifact` (flux cmd/flux/tag_artifact.go): each --tag made to point at the artifact's manifest
// (read, then put under the new tag: the registry keeps one manifest, the digest unchanged).
import { Command, Option } from "commander";
import { sha256Digest } from "../../../sources/oci/client.js";
import { referenceOf } from "../../../sources/oci/reference.js";
import { OutcomeError, UsageError } from "../../errors.js";
import { step, success } from "../../output.js";
import { collectSlice } from "../create/flux-refs.js";
import {
  type AccessFlags,
  artifactUrl,
  repositoryName,
  withAccessFlags,
  withRegistry,
  wrapped,
} from "./registry-access.js";

interface TagFlags extends AccessFlags {
  tag: string[];
}

export function tagArtifactCommand(): Command {
  const cmd = new Command("artifact")
    .description("Tag artifact")
    .argument("[url]")
    .addOption(new Option("--tag <tag>", "tag name").argParser(collectSlice).default([]));
  // flux's tag artifact has no --insecure-registry: a local registry without TLS is reached anyway.
  withAccessFlags(cmd).addHelpText(
    "after",
    "\nExamples:\n  flotilla tag artifact oci://127.0.0.1:5000/fleet/apps:v0.0.1 --tag latest",
  );
  return cmd.action(async (url: string | undefined, f: TagFlags) => {
    if (!url) throw new UsageError("artifact name is required");
    if (!f.tag.length) throw new UsageError("--tag is required");
    const { ref } = artifactUrl(url);
    await withRegistry(f, ref, async (client) => {
      step("tagging artifact");
      const source = await client
        .getManifest(ref.repository, referenceOf(ref))
        .catch((err: unknown) => Promise.reject(wrapped("tagging artifact failed", err)));
      // The registry client writes a manifest as JSON.stringify prints it: only where those are the very
      // bytes read does the new tag name the same digest (a Go-written manifest with an escaped '<', '>'
      // or '&' is not) — otherwise refuse rather than tag a copy under another digest.
      if (sha256Digest(Buffer.from(JSON.stringify(source.manifest))) !== source.digest)
        throw new OutcomeError(
          `tagging artifact failed: the manifest of ${url} is not byte-for-byte what flotilla would write back, so the tag would name another digest; tag it by its digest with another tool`,
        );
      for (const tag of f.tag) {
        try {
          await client.putManifest(ref.repository, tag, source.manifest);
        } catch (err) {
          throw wrapped("tagging artifact failed", err);
        }
        success(`artifact tagged as ${repositoryName(ref)}:${tag}`);
      }
    });
  });
}
