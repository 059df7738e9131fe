// `flotilla tree kustomization NAME [--compact] [-o json|yaml]`: the objects a Kustomization manages,
// recursing into the Kustomizations and HelmReleases it creates, printed as flux prints them.
import { Command, Option } from "commander";
import { stringify } from "yaml";
import { SERVED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import { addClusterFlags, type ClusterFlags, clusterOf } from "../cluster-flags.js";
import { OutcomeError, UsageError } from "../errors.js";
import { type ObjMetadata, type ObjTree, parseInventoryId, printTree } from "./tree/inventory-tree.js";

interface WithInventory {
  metadata: { name: string; namespace?: string };
  spec?: { kubeConfig?: unknown };
  status?: { inventory?: { entries?: { id: string }[] } };
}

interface Flags extends ClusterFlags {
  compact?: boolean;
  output?: "json" | "yaml";
}

const FLUX_GROUP = "toolkit.fluxcd.io";
const is = (m: ObjMetadata, kind: { group: string; kind: string }) =>
  m.GroupKind.Group === kind.group && m.GroupKind.Kind === kind.kind;

async function expand(cluster: Cluster, tree: ObjTree, item: WithInventory, compact: boolean, depth: number) {
  if (depth > 50)
    throw new UsageError(
      `Kustomization ${item.metadata.namespace}/${item.metadata.name}: inventory nested too deeply (a cycle?)`,
    );
  for (const entry of item.status?.inventory?.entries ?? []) {
    const m = parseInventoryId(entry.id);
    if (compact && !m.GroupKind.Group.includes(FLUX_GROUP)) continue;
    const self =
      is(m, SERVED_KINDS.Kustomization) && m.Namespace === item.metadata.namespace && m.Name === item.metadata.name;
    if (self) continue;
    const child: ObjTree = { resource: m };
    (tree.resources ??= []).push(child);
    if (is(m, SERVED_KINDS.HelmRelease)) {
      const hr = await cluster.client.get<WithInventory>(pathOf(SERVED_KINDS.HelmRelease, m.Namespace, m.Name));
      for (const e of hr.status?.inventory?.entries ?? []) {
        const o = parseInventoryId(e.id);
        if (!compact || o.GroupKind.Group.includes(FLUX_GROUP)) (child.resources ??= []).push({ resource: o });
      }
    }
    // A Kustomization applied to a remote cluster created its children there: not on this cluster.
    if (is(m, SERVED_KINDS.Kustomization) && !item.spec?.kubeConfig) {
      const ks = await cluster.client
        .get<WithInventory>(pathOf(SERVED_KINDS.Kustomization, m.Namespace, m.Name))
        .catch((err: Error) => {
          throw new OutcomeError(`failed to find object: ${err.message}`);
        });
      await expand(cluster, child, ks, compact, depth + 1);
    }
  }
}

export function treeCommand(): Command {
  const ks = new Command("kustomization")
    .aliases(["ks"])
    .description("Print the resource inventory of a Kustomization")
    .argument("[name]")
    .option("--compact", "list Flux resources only.")
    .addOption(
      new Option("-o, --output <format>", "the format in which the tree should be printed").choices(["json", "yaml"]),
    )
    .addHelpText("after", "\nExample:\n  flotilla tree kustomization flux-system --compact")
    .action(async (name: string | undefined, f: Flags) => {
      if (!name) throw new UsageError("kustomization name is required");
      const cluster = clusterOf(f);
      const root = await cluster.client.get<WithInventory>(pathOf(SERVED_KINDS.Kustomization, f.namespace, name));
      const tree: ObjTree = {
        resource: {
          Namespace: f.namespace,
          Name: name,
          GroupKind: { Group: SERVED_KINDS.Kustomization.group, Kind: "Kustomization" },
        },
      };
      await expand(cluster, tree, root, !!f.compact, 0);
      if (f.output === "json") process.stdout.write(`${JSON.stringify(tree, null, 2)}\n`);
      else if (f.output === "yaml")
        process.stdout.write(`${stringify(tree, { sortMapEntries: true, indentSeq: false })}\n`);
      else process.stdout.write(`${printTree(tree)}\n`);
    });
  addClusterFlags(ks);
  return new Command("tree").description("Print the resources reconciled by Flux").addCommand(ks);
}
