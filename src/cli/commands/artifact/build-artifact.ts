// `build artifact` (flux cmd/flux/build_artifact.go): the tar.gz `push artifact` would push, written to
// --output (default artifact.tgz) — the same bytes flux writes for the same directory.
import { Command } from "commander";
import { writeFileSync } from "node:fs";
import { buildArtifact } from "../../../sources/oci/flux-artifact.js";
import { isFlotillaError } from "../../../util/errors.js";
import { OutcomeError } from "../../errors.js";
import { step, success } from "../../output.js";
import { contentPath, type ContentFlags, ignorePathsOf, withIgnoreFlags } from "./artifact-content.js";

interface BuildFlags extends ContentFlags {
  output: string;
}

export function buildArtifactCommand(): Command {
  const cmd = new Command("artifact")
    .description("Build artifact")
    .option("-p, --path <path>", "Path to the directory where the Kubernetes manifests are located.")
    .option("-o, --output <file>", "Path to where the artifact tgz file should be written.", "artifact.tgz");
  withIgnoreFlags(cmd).addHelpText(
    "after",
    "\nExamples:\n  flotilla build artifact --path ./path/to/local/manifests --output ./path/to/artifact.tgz\n  tar -ztvf ./path/to/artifact.tgz",
  );
  return cmd.action(async (f: BuildFlags) => {
    const content = contentPath(f, { withCause: false, stdin: true });
    try {
      step(`building artifact from ${content.path}`);
      try {
        writeFileSync(f.output, await buildArtifact(content.path, ignorePathsOf(f)));
      } catch (err) {
        const why = isFlotillaError(err) || (err as NodeJS.ErrnoException).code ? (err as Error).message : undefined;
        if (why === undefined) throw err;
        throw new OutcomeError(`building artifact failed, error: ${why}`);
      }
      success(`artifact created at ${f.output}`);
    } finally {
      content.cleanup();
    }
  });
}
