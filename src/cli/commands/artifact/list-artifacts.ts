// `list artifacts` (flux cmd/flux/list_artifact.go, fluxcd/pkg/oci list.go): the repository's tags in
// reverse string order, cosign's .sig/.att/.sbom tags left out, filtered by --filter-semver and
// --filter-regex, each with its manifest digest and the source and revision annotations, in flux's table.
import { Command } from "commander";
import type { RegistryClient } from "../../../sources/oci/client.js";
import { SOURCE_ANNOTATION, REVISION_ANNOTATION } from "../../../sources/oci/manifest.js";
import { maxSatisfying } from "../../../sources/semver.js";
import { UsageError } from "../../errors.js";
import { fluxTable } from "../../flux-table.js";
import { type AccessFlags, artifactUrl, withAccessFlags, withRegistry, wrapped } from "./registry-access.js";

interface ListFlags extends AccessFlags {
  filterSemver?: string;
  filterRegex?: string;
}

const isCosignArtifact = (tag: string) => [".att", ".sbom", ".sig"].some((s) => tag.endsWith(s));

/** The tags flux lists, in its order: reverse string order, cosign tags out, then the filters. */
export function listedTags(tags: string[], semver?: string, regex?: string): string[] {
  let re: RegExp | undefined;
  if (regex !== undefined && regex !== "") {
    try {
      re = new RegExp(regex);
    } catch (err) {
      throw new UsageError(`regex '${regex}' parse error: ${(err as Error).message}`);
    }
  }
  if (semver) {
    try {
      maxSatisfying([], semver);
    } catch (err) {
      throw new UsageError(`semver '${semver}' parse error: ${(err as Error).message}`);
    }
  }
  return [...tags]
    .sort((a, b) => (a > b ? -1 : a < b ? 1 : 0))
    .filter((t) => !isCosignArtifact(t))
    .filter((t) => !semver || maxSatisfying([t], semver) === t)
    .filter((t) => !re || re.test(t));
}

async function rowOf(client: RegistryClient, repository: string, url: string, tag: string): Promise<string[]> {
  const { digest, manifest } = await client.getManifest(repository, tag);
  const a = manifest.annotations ?? {};
  return [`${url}:${tag}`, digest, a[SOURCE_ANNOTATION] ?? "", a[REVISION_ANNOTATION] ?? ""];
}

export function listArtifactsCommand(): Command {
  const cmd = new Command("artifacts")
    .description("list artifacts")
    .argument("[url]")
    .option("--filter-semver <range>", "filter tags returned from the oci repository using semver")
    .option("--filter-regex <regex>", "filter tags returned from the oci repository using regex");
  withAccessFlags(cmd, "allows the remote artifacts list to be fetched without TLS").addHelpText(
    "after",
    "\nExamples:\n  flotilla list artifacts oci://127.0.0.1:5000/fleet/apps --filter-semver '>=1.0.0'",
  );
  return cmd.action(async (url: string | undefined, f: ListFlags) => {
    if (!url) throw new UsageError("artifact repository URL is required");
    const { url: stripped, ref } = artifactUrl(url);
    const rows: string[][] = [];
    await withRegistry(f, ref, async (client) => {
      let tags: string[];
      try {
        tags = await client.listTags(ref.repository);
      } catch (err) {
        throw wrapped("listing tags failed", err);
      }
      for (const tag of listedTags(tags, f.filterSemver, f.filterRegex)) {
        try {
          rows.push(await rowOf(client, ref.repository, stripped, tag));
        } catch (err) {
          throw wrapped("fetching manifest failed", err);
        }
      }
    });
    process.stdout.write(fluxTable(["artifact", "digest", "source", "revision"], rows));
  });
}
