// The flags every verb that talks to a cluster takes, as the flux CLI has them: --kubeconfig (else
// $KUBECONFIG, else ~/.kube/config), --context, -n/--namespace (default flux-system, or
// $FLUX_SYSTEM_NAMESPACE) and --timeout. A kubeconfig that can't be found is one line saying where
// flotilla looked and what to pass.
import { type Command, Option } from "commander";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";
import { Cluster } from "../kube/cluster.js";
import { endpointFromKubeconfigFile, OPERATOR_KUBECONFIG } from "../kube/kubeconfig.js";
import { UsageError } from "./errors.js";
import { durationFlag } from "./flags.js";

export interface ClusterFlags {
  kubeconfig?: string;
  context?: string;
  namespace: string;
  timeout: string;
}

export const DEFAULT_NAMESPACE = () => process.env.FLUX_SYSTEM_NAMESPACE || "flux-system";

export function addClusterFlags(cmd: Command): Command {
  return cmd
    .addOption(
      new Option("--kubeconfig <path>", "path to the kubeconfig file (default: $KUBECONFIG or ~/.kube/config)"),
    )
    .addOption(new Option("--context <name>", "the kubeconfig context to use"))
    .addOption(
      new Option("-n, --namespace <name>", "the namespace scope for this operation").default(DEFAULT_NAMESPACE()),
    )
    .addOption(new Option("--timeout <duration>", "timeout for this operation").default("5m0s"));
}

/**
 * The management cluster's --kubeconfig and --context, for the verbs that see the whole fleet (plan, status,
 * dashboard, fleet): their -n is a filter with no default, and they take no --timeout.
 */
export function addManagementFlags(cmd: Command, note = "default: $KUBECONFIG or ~/.kube/config"): Command {
  return cmd
    .addOption(new Option("--kubeconfig <path>", `the management cluster's kubeconfig (${note})`))
    .addOption(new Option("--context <name>", "the kubeconfig context to use"));
}

function kubeconfigPath(flag: string | undefined): string {
  if (flag) {
    if (!existsSync(flag)) throw new UsageError(`--kubeconfig: no file at ${flag}`);
    return flag;
  }
  const fromEnv = (process.env.KUBECONFIG ?? "").split(delimiter).filter(Boolean);
  const found = fromEnv.find((p) => existsSync(p));
  if (found) return found;
  const home = join(homedir(), ".kube", "config");
  if (!fromEnv.length && existsSync(home)) return home;
  throw new UsageError(
    fromEnv.length
      ? `no kubeconfig: none of the files in KUBECONFIG exists (${fromEnv.join(delimiter)}); pass --kubeconfig`
      : `no kubeconfig: pass --kubeconfig, or set KUBECONFIG (${home} does not exist)`,
  );
}

/** The cluster the flags name, with the operator's trust in their own kubeconfig (exec plugins, files). */
export function clusterOf(flags: ClusterFlags): Cluster {
  return new Cluster(
    endpointFromKubeconfigFile(kubeconfigPath(flags.kubeconfig), { ...OPERATOR_KUBECONFIG, context: flags.context }),
  );
}

export const timeoutMsOf = (flags: ClusterFlags) => durationFlag("--timeout", flags.timeout);
