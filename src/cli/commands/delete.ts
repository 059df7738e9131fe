// `flotilla delete <kind> NAME [-s]`: asks first (as flux does; -s/--silent skips the question), then
// deletes. The controller's finalizer does the rest: a Kustomization prunes what it applied (when
// spec.prune), a HelmRelease uninstalls its release.
import { Command } from "commander";
import { pathOf } from "../../api/paths.js";
import { addClusterFlags, type ClusterFlags, clusterOf } from "../cluster-flags.js";
import { UsageError } from "../errors.js";
import { step, success } from "../output.js";
import { confirm } from "../prompt.js";
import { addKindVerbs } from "./kinds/kind-verbs.js";
import type { OperateKind } from "./operate/operate-kinds.js";

interface Flags extends ClusterFlags {
  silent?: boolean;
}

function verb(name: string, aliases: string[], k: OperateKind): Command {
  const cmd = new Command(name)
    .aliases(aliases)
    .description(`Delete a ${k.entry.kind}`)
    .argument("[name]")
    .option("-s, --silent", "delete the resource without asking for confirmation")
    .action(async (objName: string | undefined, f: Flags) => {
      if (!objName) throw new UsageError(`${k.human} name is required`);
      const cluster = clusterOf(f);
      const path = pathOf(k.entry, f.namespace, objName);
      await cluster.client.get(path);
      if (!f.silent && !(await confirm(`Are you sure you want to delete this ${k.human}`)))
        throw new UsageError("aborting");
      step(`deleting ${k.human} ${objName} in ${f.namespace} namespace`);
      await cluster.client.delete(path);
      success(`${k.human} deleted`);
    });
  return addClusterFlags(cmd);
}

export function deleteCommand(): Command {
  const root = new Command("delete").description("Delete sources and resources");
  const source = new Command("source").description("Delete sources");
  addKindVerbs(root, source, "operate", (name, aliases, k) => verb(name, aliases, k.operate.wording));
  return root.addCommand(source);
}
