// `flotilla export <kind> [NAME] [--all]`: the objects as flux export prints them — apiVersion, kind,
// name, namespace, labels, annotations and spec, through the controllers' typed structs, so durations
// come out as Go prints them (`5m` → `5m0s`) and defaulted `false` flags disappear (omitempty) — ready to
// commit back to Git. Nothing from status, no managed fields, no Secret values.
import { Command } from "commander";
import { storageVersion, type KindEntry } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import { addClusterFlags, clusterOf, type ClusterFlags } from "../cluster-flags.js";
import { UsageError } from "../errors.js";
import { formatGoDuration, parseGoDuration } from "../export/go-duration.js";
import { exportYaml } from "../export/print-export.js";
import { GET_KINDS, type FluxObject } from "./get/get-kinds.js";

const DURATION_KEYS = new Set(["interval", "timeout", "retryInterval"]);

/**
 * The spec as the controllers' typed structs print it: metav1.Duration fields as Go prints them, and a
 * top-level `false` (suspend, force, wait… — all `omitempty` in Flux's APIs, the API server's defaults
 * included) dropped; `prune` alone has no omitempty and stays.
 */
export function typedSpec(value: unknown, top = true): unknown {
  if (Array.isArray(value)) return value.map((v) => typedSpec(v, false));
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (top && v === false && k !== "prune") continue;
    const ns = DURATION_KEYS.has(k) && typeof v === "string" ? parseGoDuration(v) : undefined;
    out[k] = ns !== undefined ? formatGoDuration(ns) : typedSpec(v, false);
  }
  return out;
}

export function exportObject(entry: KindEntry, o: FluxObject): string {
  const { name, namespace, labels, annotations } = o.metadata;
  return exportYaml({
    apiVersion: `${entry.group}/${storageVersion(entry)}`,
    kind: entry.kind,
    metadata: { name, namespace, ...(labels ? { labels } : {}), ...(annotations ? { annotations } : {}) },
    spec: typedSpec(o.spec ?? {}),
  });
}

interface ExportFlags extends ClusterFlags {
  all?: boolean;
}

function kindCommand(name: string, aliases: string[], entry: KindEntry, example: string): Command {
  const cmd = new Command(name)
    .aliases(aliases)
    .description(`Export ${entry.kind} resources in YAML format`)
    .argument("[name]")
    .option("--all", "select all resources")
    .addHelpText("after", `\nExamples:\n${example}`)
    .action(async (objName: string | undefined, f: ExportFlags) => {
      if (!objName && !f.all) throw new UsageError("name is required (or pass --all)");
      const cluster = clusterOf(f);
      let items: FluxObject[];
      if (objName) items = [await cluster.client.get<FluxObject>(pathOf(entry, f.namespace, objName))];
      else items = (await cluster.client.listAll<FluxObject>(pathOf(entry, f.namespace))).items;
      if (!items.length) throw new UsageError(`no ${entry.kind} objects found in "${f.namespace}" namespace`);
      process.stdout.write(items.map((o) => exportObject(entry, o)).join(""));
    });
  return addClusterFlags(cmd);
}

export function exportCommand(): Command {
  const sources = new Command("source")
    .aliases(["sources"])
    .description("Export sources")
    .addCommand(
      kindCommand("git", [], GET_KINDS.GitRepository.entry, "  flotilla export source git --all > sources.yaml"),
    )
    .addCommand(
      kindCommand("helm", [], GET_KINDS.HelmRepository.entry, "  flotilla export source helm podinfo > podinfo.yaml"),
    )
    .addCommand(
      kindCommand("chart", [], GET_KINDS.HelmChart.entry, "  flotilla export source chart podinfo > podinfo.yaml"),
    )
    .addCommand(
      kindCommand("oci", [], GET_KINDS.OCIRepository.entry, "  flotilla export source oci --all > sources.yaml"),
    );
  return new Command("export")
    .description("Export resources in YAML format")
    .addCommand(sources)
    .addCommand(
      kindCommand(
        "kustomization",
        ["ks"],
        GET_KINDS.Kustomization.entry,
        "  flotilla export kustomization --all > kustomizations.yaml",
      ),
    )
    .addCommand(
      kindCommand("helmrelease", ["hr"], GET_KINDS.HelmRelease.entry, "  flotilla export hr --all > releases.yaml"),
    );
}
