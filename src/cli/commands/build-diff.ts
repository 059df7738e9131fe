// `flotilla build kustomization NAME --path DIR` and `flotilla diff kustomization NAME --path DIR`:
// the local manifests as the in-cluster Kustomization would build them, and what applying them would
// change on its target cluster — remote clusters included. diff exits as flux's does: 0 no change,
// 1 changes, 2 an error (a bad path, a build or dry-run failure). Secret values are masked in both.
import { Command } from "commander";
import type { KubeObject } from "../../api/meta/object.js";
import { addClusterFlags, clusterOf, type ClusterFlags } from "../cluster-flags.js";
import { sigsYaml } from "../export/sigs-yaml.js";
import { failure } from "../output.js";
import { formatDiff } from "./preview/diff-format.js";
import { diffKustomization, previewKustomization } from "./preview/kustomization-preview.js";
import { UsageError } from "../errors.js";

interface PreviewFlags extends ClusterFlags {
  path?: string;
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
    .addHelpText(
      "after",
      `\nExamples:\n  flotilla ${verb} kustomization podinfo --path ./apps/podinfo${verb === "diff" ? "\n  flotilla diff ks tenant1-apps --path ./tenants/tenant1 -n fleet   # a remote cluster's Kustomization too" : ""}`,
    );
  addClusterFlags(cmd);
  return cmd.action(async (name: string, f: PreviewFlags) => {
    if (verb === "build") {
      const p = await previewKustomization(clusterOf(f), f.namespace, name, needPath(f));
      process.stdout.write(p.objects.map((o) => `---\n${sigsYaml(masked(o))}`).join(""));
      return;
    }
    try {
      const p = await previewKustomization(clusterOf(f), f.namespace, name, needPath(f));
      const { entries, deleted } = await diffKustomization(p);
      const failed = entries.filter((e) => e.action === "fail");
      if (failed.length)
        throw new UsageError(failed.map((e) => `${e.subject}: ${e.reason ?? "dry-run failed"}`).join("; "));
      const { text, changed } = formatDiff(entries, deleted);
      process.stdout.write(text);
      if (changed) {
        process.stderr.write("⚠️ identified at least one change, exiting with non-zero exit code\n");
        process.exitCode = 1;
      }
    } catch (err) {
      failure((err as Error).message);
      process.exitCode = 2;
    }
  });
}

export const buildCommand = () =>
  new Command("build").description("Build a Flux resource locally").addCommand(kustomizationVerb("build"));
export const diffCommand = () =>
  new Command("diff").description("Diff a Flux resource with the cluster").addCommand(kustomizationVerb("diff"));
