// `flotilla build|diff kustomization NAME --path DIR`: the local manifests as the in-cluster
// Kustomization would build them, and what applying them would change on its target cluster — remote
// clusters included. `flotilla build|diff helmrelease NAME [--chart-path] [--values]`: what the
// HelmRelease would install (flux has neither: fluxcd/flux2#2808). diff exits as flux's does: 0 no
// change, 1 changes, 2 an error (a bad path, a build or dry-run failure). Secret values are masked, and
// so is any value taken from a Secret (postBuild substitutions, valuesFrom). `build|diff artifact` (an OCI
// artifact against a local directory) live in artifact/.
import { Command, Option } from "commander";
import type { KubeObject } from "../../api/meta/object.js";
import { addClusterFlags, clusterOf, type ClusterFlags } from "../cluster-flags.js";
import { sigsYaml } from "../export/sigs-yaml.js";
import { formatDiff } from "./preview/diff-format.js";
import { diffKustomization, previewKustomization } from "./preview/kustomization-preview.js";
import { diffHelmRelease, previewHelmRelease } from "./preview/helmrelease-preview.js";
import type { PlanEntry, Redactor } from "../../ssa/index.js";
import { collectSlice } from "./create/flux-refs.js";
import { ExitError, UsageError } from "../errors.js";
import { failsWith } from "../runner.js";
import { buildArtifactCommand } from "./artifact/build-artifact.js";
import { buildResourceSetCommand } from "./build-resourceset.js";
import { diffArtifactCommand } from "./artifact/diff-artifact.js";

interface PreviewFlags extends ClusterFlags {
  path?: string;
  decryptionKey: string[];
}

const MASK = "**SECRET**";

/** flux build masks Secret values: the keys stay, the values do not. */
function masked(o: KubeObject): KubeObject {
  if (o.apiVersion !== "v1" || o.kind !== "Secret") return o;
  const out = { ...o } as KubeObject & { data?: Record<string, string>; stringData?: Record<string, string> };
  for (const field of ["data", "stringData"] as const)
    if (out[field]) out[field] = Object.fromEntries(Object.keys(out[field]).map((k) => [k, MASK]));
  return out;
}

/** The objects as YAML documents, Secret values masked and values taken from Secrets redacted (as data, so the YAML stays valid). */
function printObjects(objects: KubeObject[], redactor: Redactor): string {
  const scrub = (v: unknown): unknown =>
    typeof v === "string"
      ? redactor.redact(v)
      : Array.isArray(v)
        ? v.map(scrub)
        : v && typeof v === "object"
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, scrub(x)]))
          : v;
  return objects.map((o) => `---\n${sigsYaml(scrub(masked(o)))}`).join("");
}

const needPath = (f: PreviewFlags) => {
  if (!f.path) throw new UsageError('invalid resource path "": pass --path, the local directory spec.path points at');
  return f.path;
};

function kustomizationVerb(verb: "build" | "diff"): Command {
  const cmd = new Command("kustomization")
    .aliases(["ks"])
    .description(
      verb === "build"
        ? "Build the local manifests at --path as Kustomization NAME would"
        : "Diff the local manifests at --path with what Kustomization NAME applied (exit 0: no change, 1: changes, 2: error)",
    )
    .argument("<name>")
    .option("--path <dir>", "path to the local manifests (the directory spec.path points at)")
    .addOption(
      new Option(
        "--decryption-key <file>",
        "an age identity file or an armored OpenPGP private key (.asc) to decrypt SOPS-encrypted files with, in memory (repeatable; default: the Secret spec.decryption.secretRef names, when readable)",
      )
        .argParser(collectSlice)
        .default([]),
    )
    .addHelpText(
      "after",
      `\nExamples:\n  flotilla ${verb} kustomization podinfo --path ./apps/podinfo\n  flotilla ${verb} ks secrets --path ./apps/secrets --decryption-key ./age.agekey${verb === "diff" ? "\n  flotilla diff ks tenant1-apps --path ./tenants/tenant1 -n fleet   # a remote cluster's Kustomization too" : ""}`,
    );
  addClusterFlags(cmd);
  return cmd.action(async (name: string, f: PreviewFlags) => {
    if (verb === "build") {
      const p = await previewKustomization(clusterOf(f), f.namespace, name, needPath(f), f.decryptionKey);
      process.stdout.write(printObjects(p.objects, p.redactor));
      return;
    }
    await printDiff(async () =>
      diffKustomization(await previewKustomization(clusterOf(f), f.namespace, name, needPath(f), f.decryptionKey)),
    );
  });
}

/** Prints a diff and ends with flux's exit code: 0 nothing would change, 1 something would (2, it failed: diffCommand). */
async function printDiff(compute: () => Promise<{ entries: PlanEntry[]; deleted: string[] }>): Promise<void> {
  const { entries, deleted } = await compute();
  const failed = entries.filter((e) => e.action === "fail");
  if (failed.length)
    throw new UsageError(failed.map((e) => `${e.subject}: ${e.reason ?? "dry-run failed"}`).join("; "));
  const { text, changed } = formatDiff(entries, deleted);
  process.stdout.write(text);
  if (changed) {
    process.stderr.write("⚠️ identified at least one change, exiting with non-zero exit code\n");
    throw new ExitError(1);
  }
}

interface HelmPreviewFlags extends ClusterFlags {
  chartPath?: string;
  values: string[];
}

function helmReleaseVerb(verb: "build" | "diff"): Command {
  const cmd = new Command("helmrelease")
    .aliases(["hr"])
    .description(
      verb === "build"
        ? "Render the manifests HelmRelease NAME would install (values from the cluster, --values laid over them)"
        : "Diff what HelmRelease NAME would install with its cluster (exit 0: no change, 1: changes, 2: error)",
    )
    .argument("<name>")
    .option("--chart-path <path>", "a local chart (directory or .tgz) instead of the HelmRelease's HelmChart artifact")
    .addOption(
      new Option("--values <files>", "local values files laid over the composed values (repeatable)")
        .argParser(collectSlice)
        .default([]),
    )
    .addHelpText(
      "after",
      `\nExamples:\n  flotilla ${verb} hr podinfo -n apps\n  flotilla ${verb} hr podinfo -n apps --chart-path ./charts/podinfo --values ./staging-values.yaml`,
    );
  addClusterFlags(cmd);
  return cmd.action(async (name: string, f: HelmPreviewFlags) => {
    const preview = () =>
      previewHelmRelease(clusterOf(f), f.namespace, name, { chartPath: f.chartPath, valuesFiles: f.values });
    if (verb === "build") {
      const p = await preview();
      process.stdout.write(printObjects(p.objects, p.redactor));
      return;
    }
    await printDiff(async () => diffHelmRelease(await preview()));
  });
}

export const buildCommand = () =>
  new Command("build")
    .description("Build a Flux resource locally")
    .addCommand(kustomizationVerb("build"))
    .addCommand(helmReleaseVerb("build"))
    .addCommand(buildArtifactCommand())
    .addCommand(buildResourceSetCommand());
// Exit 1 means "changes": a failure, a bug included, is 2.
export const diffCommand = () =>
  failsWith(
    new Command("diff")
      .description("Diff a Flux resource with the cluster")
      .addCommand(kustomizationVerb("diff"))
      .addCommand(helmReleaseVerb("diff"))
      .addCommand(diffArtifactCommand()),
    2,
  );
