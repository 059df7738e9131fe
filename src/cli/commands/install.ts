// `flotilla install [--export]`: print or apply everything flotilla needs in a cluster.
import { Command } from "commander";
import { Cluster } from "../../kube/cluster.js";
import { endpointFromKubeconfigFile, OPERATOR_KUBECONFIG } from "../../kube/kubeconfig.js";
import { type Json, toYaml } from "../../kustomize/yaml/emit.js";
import { installManifests } from "../../install/manifests.js";
import { addImageFlags, installOptionsOf } from "../install-flags.js";
import { addShardFlags, applyShardFlags } from "../shard-flags.js";
import { formatChangeSet, ResourceManager } from "../../ssa/index.js";
import { success } from "../output.js";
import { UsageError } from "../errors.js";

export function installCommand(): Command {
  const cmd = new Command("install")
    .description("install flotilla's CRDs and controller into a cluster (or print them with --export)")
    .option("--export", "print the manifests instead of applying them", false)
    .option("--namespace <ns>", "namespace of the controller", "flux-system");
  return addShardFlags(addImageFlags(cmd))
    .option(
      "--multi-tenant",
      "lock the controller down for tenants (no cross-namespace refs, default service account)",
      false,
    )
    .option("--kubeconfig <path>", "kubeconfig of the cluster to install into", process.env.KUBECONFIG)
    .action(async (opts) => {
      const objects = applyShardFlags(installManifests(installOptionsOf(opts, opts)), opts);
      if (opts.export) {
        process.stdout.write(objects.map((o) => `---\n${toYaml(o as unknown as Json)}`).join(""));
        return;
      }
      if (!opts.kubeconfig) throw new UsageError("no cluster: pass --kubeconfig (or set KUBECONFIG), or use --export");
      const manager = new ResourceManager(
        new Cluster(endpointFromKubeconfigFile(opts.kubeconfig, OPERATOR_KUBECONFIG)),
        {
          fieldManager: "flotilla",
        },
      );
      const changes = await manager.apply(objects);
      process.stdout.write(`${formatChangeSet(changes)}\n`);
      success("install finished");
    });
}
