// `flotilla fleet remove-cluster NAME --env ENV`: the cluster leaves the environment. Its Cluster file
// goes; once that commit is applied, the environment's Kustomization prunes the Cluster and the fleet
// removes every app it put on that cluster once the grace period is over (each child is deleted with
// prune, as the layout's onClusterRemoval: Prune says): nothing is orphaned there.
import { removeCluster } from "../../../fleet/repository/procedures.js";
import { type FleetFlags, finish, fleetVerb, treeOf } from "./fleet-common.js";

export function removeClusterCommand() {
  return fleetVerb(
    "remove-cluster",
    "Remove a cluster from an environment (everything the fleet applied there is pruned)",
    "flotilla fleet remove-cluster eu-west-1 --env dev --repo ./fleet-infra",
  )
    .argument("<name>")
    .action((name: string, f: FleetFlags) => {
      const tree = treeOf(f);
      removeCluster(tree, f.env, name);
      finish(
        tree,
        `commit and push: cluster ${name} leaves environment ${f.env}, and the apps there are pruned once the grace period ends (--cluster-removal-grace-period; its kubeconfig Secret stays until you delete it)`,
      );
    });
}
