// `flotilla install [--export]`: print or apply everything flotilla needs in a cluster.
import { Command } from "commander";
import { Cluster } from "../../kube/cluster.js";
import { endpointFromKubeconfigFile, OPERATOR_KUBECONFIG } from "../../kube/kubeconfig.js";
import { type Json, toYaml } from "../../kustomize/yaml/emit.js";
import { installManifests } from "../../install/manifests.js";
import { addImageFlags, installOptionsOf } from "../install-flags.js";
import { addFluxInstanceFlags, fluxInstanceOf, instanceMultitenant } from "../flux-instance-flags.js";
import { addShardFlags, applyShardFlags } from "../shard-flags.js";
import { formatChangeSet, ResourceManager } from "../../ssa/index.js";
import { success } from "../output.js";
import { UsageError } from "../errors.js";

export function installCommand(): Command {
  const cmd = new Command("install")
    .description("install flotilla's CRDs and controller into a cluster (or print them with --export)")
    .option("--export", "print the manifests instead of applying them", false)
    .option("--namespace <ns>", "namespace of the controller", "flux-system");
  return addFluxInstanceFlags(addShardFlags(addImageFlags(cmd)))
    .option(
      "--multi-tenant",
      "lock the controller down for tenants (no cross-namespace refs, default service account)",
      false,
    )
    .option("--kubeconfig <path>", "kubeconfig of the cluster to install into", process.env.KUBECONFIG)
    .action(async (opts, command: Command) => {
      // A FluxInstance asking for the lockdown gets a controller that runs with it (as flux-operator install).
      const fi = fluxInstanceOf(opts, command, opts.namespace);
      const multiTenant = opts.multiTenant || instanceMultitenant(fi?.instance);
      const objects = applyShardFlags(installManifests(installOptionsOf(opts, { ...opts, multiTenant })), opts);
      if (opts.export) {
        if (fi?.secret)
          throw new UsageError(
            "--instance-sync-creds is not printed by --export (a Secret in a file): create it in the cluster, e.g. flotilla create secret git",
          );
        const exported = fi ? [...objects, fi.instance] : objects;
        process.stdout.write(exported.map((o) => `---\n${toYaml(o as unknown as Json)}`).join(""));
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
      // The instance after its CRD is served; its sync credentials before it, so the first sync finds them.
      if (fi) changes.push(...(await manager.apply([...(fi.secret ? [fi.secret] : []), fi.instance])));
      process.stdout.write(`${formatChangeSet(changes)}\n`);
      success("install finished");
    });
}
