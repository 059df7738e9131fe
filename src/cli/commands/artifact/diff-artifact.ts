// `diff artifact` (flux cmd/flux/diff_artifact.go, fluxcd/pkg/oci diff.go): the local --path archived as
// push would archive it and compared, by sha256 and size, with the artifact's first layer; any
// difference is flux's one line and exit 1 (flux's code for every failure of this verb). Where the
// gzip bytes differ, the tar streams inside are compared too: Go's deflate and zlib's compress the same
// stream differently, so an artifact the flux CLI pushed from the same directory is no change.
import { Command } from "commander";
import { gunzipSync } from "node:zlib";
import { DEFAULT_ARTIFACT_LIMITS } from "../../../sources/artifact/limits.js";
import { buildArtifact } from "../../../sources/oci/flux-artifact.js";
import { sha256Digest } from "../../../sources/oci/client.js";
import { referenceOf } from "../../../sources/oci/reference.js";
import { OutcomeError, UsageError } from "../../errors.js";
import { success } from "../../output.js";
import { failsWith } from "../../runner.js";
import { contentPath, type ContentFlags, ignorePathsOf, withIgnoreFlags } from "./artifact-content.js";
import { type AccessFlags, artifactUrl, withAccessFlags, withRegistry } from "./registry-access.js";

interface DiffFlags extends AccessFlags, ContentFlags {}

/** Whether two tar.gz hold the same tar stream (a remote layer that is not gzip is simply different). */
function sameTarStream(local: Buffer, remote: Buffer): boolean {
  try {
    return gunzipSync(local).equals(gunzipSync(remote, { maxOutputLength: DEFAULT_ARTIFACT_LIMITS.maxSize }));
  } catch {
    return false;
  }
}

export function diffArtifactCommand(): Command {
  const cmd = new Command("artifact")
    .description("Diff Artifact")
    .argument("[url]")
    .option("--path <path>", "path to the directory where the Kubernetes manifests are located");
  withIgnoreFlags(cmd, false);
  withAccessFlags(cmd, "allows the remote artifact to be pulled without TLS").addHelpText(
    "after",
    "\nExamples:\n  flotilla diff artifact oci://127.0.0.1:5000/fleet/apps:v1 --path=./apps",
  );
  cmd.action(async (url: string | undefined, f: DiffFlags) => {
    if (!url) throw new UsageError("artifact URL is required");
    if (!f.path) throw new UsageError(`invalid path "${f.path ?? ""}"`);
    const { ref } = artifactUrl(url);
    const content = contentPath(f, { withCause: false, stdin: false });
    const local = await buildArtifact(content.path, ignorePathsOf(f));
    const same = await withRegistry(
      f,
      ref,
      async (client) => {
        const layer = (await client.getManifest(ref.repository, referenceOf(ref))).manifest.layers[0];
        if (!layer) throw new OutcomeError("no layers found in artifact");
        if (sha256Digest(local) === layer.digest && local.length === layer.size) return true;
        if (layer.size > DEFAULT_ARTIFACT_LIMITS.maxSize) return false;
        return sameTarStream(
          local,
          await client.getBlob(ref.repository, layer.digest, DEFAULT_ARTIFACT_LIMITS.maxSize),
        );
      },
      "fetching the remote artifact failed",
    );
    if (!same) throw new OutcomeError("the remote artifact contents differs from the local one");
    success("no changes detected");
  });
  // Under `diff` (whose failures are 2, as flux diff kustomization's), flux's diff artifact fails with 1.
  return failsWith(cmd, 1);
}
