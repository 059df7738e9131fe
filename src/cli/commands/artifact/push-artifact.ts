// `push artifact` (flux cmd/flux/push_artifact.go): the directory or file at --path archived as
// `flux build artifact` archives it and pushed in Flux's artifact format with --source, --revision,
// --annotations (and the created time, 1970 under --reproducible), then the digest said as flux says
// it: `✔ artifact successfully pushed to <repo>@sha256:…`, or flux's JSON/YAML with -o.
import { Command, Option } from "commander";
import { buildArtifact, pushArtifact } from "../../../sources/oci/flux-artifact.js";
import { sigsYaml } from "../../export/sigs-yaml.js";
import { UsageError } from "../../errors.js";
import { step, success } from "../../output.js";
import { contentPath, type ContentFlags, ignorePathsOf, withIgnoreFlags } from "./artifact-content.js";
import { type AccessFlags, artifactUrl, repositoryName, withAccessFlags, withRegistry } from "./registry-access.js";

interface PushFlags extends AccessFlags, ContentFlags {
  source?: string;
  revision?: string;
  annotations: string[];
  output?: string;
  debug?: boolean;
  reproducible?: boolean;
}

/** `key=value` annotations, in flux's words when one is not (exactly one `=`). */
export function annotationsOf(values: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of values) {
    const kv = a.split("=");
    if (kv.length !== 2) throw new UsageError(`invalid annotation ${a}, must be in the format key=value`);
    out[kv[0]!] = kv[1]!;
  }
  return out;
}

/** What -o prints: flux's struct {url, repository, tag, digest}. */
export function pushInfo(repository: string, tag: string, digest: string, output: "json" | "yaml"): string {
  const info = { url: `oci://${repository}@${digest}`, repository, tag, digest };
  return output === "json" ? `${JSON.stringify(info, null, 2)}\n` : sigsYaml(info);
}

export function pushArtifactCommand(): Command {
  const cmd = new Command("artifact")
    .description("Push artifact")
    .argument("[url]")
    .option("-f, --path <path>", "path to the directory where the Kubernetes manifests are located")
    .option("--source <source>", "the source address, e.g. the Git URL")
    .option("--revision <revision>", "the source revision in the format '<branch|tag>@sha1:<commit-sha>'")
    .addOption(
      new Option("-a, --annotations <key=value>", "Set custom OCI annotations in the format '<key>=<value>'")
        .argParser((v: string, prev: string[]) => [...prev, v])
        .default([]),
    )
    .addOption(
      new Option(
        "-o, --output <format>",
        "the format in which the artifact digest should be printed, can be 'json' or 'yaml'",
      ),
    )
    .option("--debug", "display logs from underlying library")
    .option(
      "--reproducible",
      "ensure reproducible image digests by setting the created timestamp to '1970-01-01T00:00:00Z'",
    );
  withIgnoreFlags(cmd);
  withAccessFlags(cmd, "allows artifacts to be pushed without TLS").addHelpText(
    "after",
    "\nExamples:\n" +
      "  flotilla push artifact oci://127.0.0.1:5000/fleet/apps:$(git rev-parse --short HEAD) \\\n" +
      '    --path=./apps --source="$(git config --get remote.origin.url)" \\\n' +
      '    --revision="$(git branch --show-current)@sha1:$(git rev-parse HEAD)"\n' +
      "  kustomize build . | flotilla push artifact oci://127.0.0.1:5000/fleet/apps:v1 -f - --source=local --revision=v1 -o json",
  );
  return cmd.action(async (url: string | undefined, f: PushFlags) => {
    if (!url) throw new UsageError("artifact URL is required");
    if (!f.source) throw new UsageError("--source is required");
    if (!f.revision) throw new UsageError("--revision is required");
    if (!f.path) throw new UsageError(`invalid path "${f.path ?? ""}"`);
    if (f.output !== undefined && f.output !== "json" && f.output !== "yaml")
      throw new UsageError(`--output must be json or yaml, got "${f.output}"`);
    if (f.debug)
      throw new UsageError("--debug is not supported by flotilla: there is no underlying library log to show");
    const { url: stripped, ref } = artifactUrl(url);
    if (ref.digest)
      throw new UsageError(`cannot push to a digest (${url}): name a tag, e.g. oci://${repositoryName(ref)}:latest`);
    const content = contentPath(f, { withCause: true, stdin: true });
    try {
      const annotations = annotationsOf(f.annotations);
      const tag = ref.tag ?? "latest";
      const { digest } = await withRegistry(
        f,
        ref,
        async (client) => {
          if (!f.output) step(`pushing artifact to ${stripped}`);
          const data = await buildArtifact(content.path, ignorePathsOf(f));
          return pushArtifact(client, { ...ref, tag }, data, {
            source: f.source,
            revision: f.revision,
            ...(f.reproducible ? { created: "1970-01-01T00:00:00Z" } : {}),
            annotations,
          });
        },
        "pushing artifact failed",
      );
      const repository = repositoryName(ref);
      if (f.output) process.stdout.write(pushInfo(repository, tag, digest, f.output as "json" | "yaml"));
      else success(`artifact successfully pushed to ${repository}@${digest}`);
    } finally {
      content.cleanup();
    }
  });
}
