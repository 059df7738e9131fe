// `flotilla fleet add-cluster NAME --env ENV`: the cluster joins the environment — its Cluster in the
// repository, labelled with the environment, so every app of the environment fans out to it. A remote
// cluster's kubeconfig (--cluster-kubeconfig) goes into a Secret on the management cluster, never into
// the repository; --kubeconfig-secret names one that exists already.
import { readFileSync } from "node:fs";
import { addCluster } from "../../../fleet/repository/procedures.js";
import { endpointFromKubeconfig } from "../../../kube/kubeconfig.js";
import { UsageError } from "../../errors.js";
import { success } from "../../output.js";
import { FIELD_MANAGER } from "../create/create-apply.js";
import { clusterObjects } from "../create/create-cluster.js";
import { collectSlice, parseLabels } from "../create/flux-refs.js";
import { type FleetFlags, finish, fleetVerb, managementOf, treeOf } from "./fleet-common.js";

interface Flags extends FleetFlags {
  clusterKubeconfig?: string;
  kubeconfigSecret?: string;
  label: string[];
}

export function addClusterCommand() {
  return fleetVerb(
    "add-cluster",
    "Add a cluster to an environment (a remote one's kubeconfig goes into a Secret, never into Git)",
    "flotilla fleet add-cluster eu-west-1 --env dev --repo ./fleet-infra --cluster-kubeconfig ./eu-west-1.kubeconfig --label region=eu-west-1",
  )
    .argument("<name>")
    .option("--cluster-kubeconfig <file>", "the cluster's kubeconfig: written to a Secret on the management cluster")
    .option("--kubeconfig-secret <name[:key]>", "an existing Secret in the environment's namespace holding it")
    .option("--label <key=value>", "a label of the Cluster (repeatable, or comma-separated)", collectSlice, [])
    .action(async (name: string, f: Flags) => {
      if (!!f.clusterKubeconfig === !!f.kubeconfigSecret)
        throw new UsageError(
          "give the cluster's credentials once: --cluster-kubeconfig FILE or --kubeconfig-secret NAME[:KEY]",
        );
      const [secretName, key] = (f.kubeconfigSecret ?? `${name}-kubeconfig:value`).split(":");
      const tree = treeOf(f);
      addCluster(tree, f.env, {
        name,
        labels: parseLabels(f.label) ?? {},
        secretRef: { name: secretName!, ...(key ? { key } : {}) },
      });
      if (f.clusterKubeconfig) {
        let kubeconfig: string;
        try {
          kubeconfig = readFileSync(f.clusterKubeconfig, "utf8");
        } catch (err) {
          throw new UsageError(`--cluster-kubeconfig ${f.clusterKubeconfig}: ${(err as Error).message}`);
        }
        endpointFromKubeconfig(kubeconfig, { source: f.clusterKubeconfig });
        const { secret } = clusterObjects(name, f.env, kubeconfig, { labels: {}, interval: "1m" });
        await managementOf(f).apply(secret!, FIELD_MANAGER, { force: true });
        success(
          `kubeconfig secret '${f.env}/${secret!.metadata.name}' written on the management cluster (not printed, not in Git)`,
        );
      }
      finish(tree, `commit and push: cluster ${name} joins environment ${f.env}`);
    });
}
