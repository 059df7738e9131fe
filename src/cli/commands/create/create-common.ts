// What every `create` verb shares (flux's `create` persistent flags): --interval (default 1m),
// --export, --label, the cluster flags; and the one way a built object leaves: printed as flux
// --export prints it, or applied and waited for.
import { type Command, Option } from "commander";
import type { KubeObject } from "../../../api/meta/object.js";
import { addClusterFlags, clusterOf, type ClusterFlags, timeoutMsOf } from "../../cluster-flags.js";
import { UsageError } from "../../errors.js";
import { goDurationFlag } from "../../export/go-duration.js";
import { exportYaml } from "../../export/print-export.js";
import { success } from "../../output.js";
import { generating, upsert, waitReady } from "./create-apply.js";
import { collectSlice, parseLabels } from "./flux-refs.js";
import type { Meta } from "./build-sources.js";
import type { Handled } from "../operate/reconcile-wait.js";

export interface CreateFlags extends ClusterFlags {
  interval: string;
  export?: boolean;
  label: string[];
}

export function withCreateFlags(cmd: Command, example: string): Command {
  return addClusterFlags(cmd)
    .option("--interval <duration>", "source sync interval", "1m")
    .option("--export", "export in YAML format to stdout")
    .addOption(
      new Option(
        "--label <key=value>",
        "set labels on the resource (can specify multiple labels with commas: label1=value1,label2=value2)",
      )
        .argParser(collectSlice)
        .default([]),
    )
    .addHelpText("after", `\nExamples:\n${example}`);
}

/** The object's name (flux: "name is required"), namespace and labels. */
export function metaOf(name: string | undefined, f: CreateFlags): Meta {
  if (!name) throw new UsageError("name is required");
  return { name, namespace: f.namespace, labels: parseLabels(f.label) };
}

export const intervalOf = (f: CreateFlags) => goDurationFlag("--interval", f.interval);

export interface Outcome {
  /** "✔ …" lines once Ready, from the live object. */
  ready(live: Handled): string[];
}

/** --export: print; otherwise apply, wait for Ready and say what the controller did. */
export async function exportOrApply(
  f: CreateFlags,
  obj: Record<string, unknown>,
  human: string,
  outcome: Outcome,
  before?: () => Promise<void>,
): Promise<void> {
  if (f.export) {
    process.stdout.write(exportYaml(obj));
    return;
  }
  generating(human);
  const cluster = clusterOf(f);
  await before?.();
  const applied = await upsert(cluster, obj as unknown as KubeObject, human);
  const live = await waitReady(cluster, applied, human, timeoutMsOf(f));
  for (const line of outcome.ready(live)) success(line);
}
