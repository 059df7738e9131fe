// `pull artifact` (flux cmd/flux/pull_artifact.go): the artifact's first layer unpacked into --output,
// an existing directory, then its source, revision and digest said as flux says them. The layer is
// unpacked by flotilla's safe extraction (no path leaves the directory, links left out, as flux's
// tar.WithSkipSymlinks) under the artifact limits; a layer that is not a tarball is refused by name.
import { Command } from "commander";
import { statSync } from "node:fs";
import { DEFAULT_ARTIFACT_LIMITS } from "../../../sources/artifact/limits.js";
import { extractTarball } from "../../../sources/artifact/extract.js";
import { pullArtifact } from "../../../sources/oci/flux-artifact.js";
import { OutcomeError, UsageError } from "../../errors.js";
import { step, success } from "../../output.js";
import { type AccessFlags, artifactUrl, repositoryName, withAccessFlags, withRegistry } from "./registry-access.js";

interface PullFlags extends AccessFlags {
  output?: string;
}

const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

function checkOutput(output: string | undefined): string {
  if (!output) throw new UsageError("output path cannot be empty");
  let dir = false;
  try {
    dir = statSync(output).isDirectory();
  } catch {
    throw new UsageError(`invalid output path "${output}": stat ${output}: no such file or directory`);
  }
  if (!dir) throw new UsageError(`invalid output path "${output}": not a directory`);
  return output;
}

export function pullArtifactCommand(): Command {
  const cmd = new Command("artifact")
    .description("Pull artifact")
    .argument("[url]")
    .option("-o, --output <dir>", "path where the artifact content should be extracted.");
  withAccessFlags(cmd, "allows artifacts to be pulled without TLS").addHelpText(
    "after",
    "\nExamples:\n  flotilla pull artifact oci://127.0.0.1:5000/fleet/apps:v0.0.1 --output ./path/to/local/manifests",
  );
  return cmd.action(async (url: string | undefined, f: PullFlags) => {
    if (!url) throw new UsageError("artifact URL is required");
    const output = checkOutput(f.output);
    const { url: stripped, ref } = artifactUrl(url);
    const pulled = await withRegistry(
      f,
      ref,
      (client) => {
        step(`pulling artifact from ${stripped}`);
        return pullArtifact(client, ref, DEFAULT_ARTIFACT_LIMITS.maxSize);
      },
      "pulling artifact failed",
    );
    if (!pulled.layer.subarray(0, 2).equals(GZIP_MAGIC))
      throw new OutcomeError(
        `the first layer of ${stripped} (${pulled.manifest.layers[0]?.mediaType ?? "no media type"}) is not a gzip tarball: flotilla pulls only archives`,
      );
    await extractTarball(pulled.layer, output, { what: `artifact ${stripped}` });
    if (pulled.meta.source) success(`source ${pulled.meta.source}`);
    if (pulled.meta.revision) success(`revision ${pulled.meta.revision}`);
    success(`digest ${repositoryName(ref)}@${pulled.digest}`);
    success(`artifact content extracted to ${output}`);
  });
}
