// `create cluster NAME --cluster-kubeconfig FILE`: a fleet Cluster and the Secret holding its
// kubeconfig, written straight into the management cluster — never printed: with --export only the
// Cluster is printed, and the Secret is left for the user to create (the kubeconfig must not reach Git).
// The kubeconfig is read and checked before anything is written. (`--kubeconfig` is, as in every
// verb, the management cluster's: decision 0023.)
import { readFileSync } from "node:fs";
import { Command } from "commander";
import { apiVersionOf, SERVED_KINDS } from "../../../api/kinds.js";
import type { KubeObject } from "../../../api/meta/object.js";
import { endpointFromKubeconfig } from "../../../kube/kubeconfig.js";
import { clusterOf, timeoutMsOf } from "../../cluster-flags.js";
import { UsageError } from "../../errors.js";
import { exportYaml } from "../../export/print-export.js";
import { success } from "../../output.js";
import { FIELD_MANAGER, generating, upsert, waitReady } from "./create-apply.js";
import { type CreateFlags, metaOf, withCreateFlags } from "./create-common.js";

interface ClusterFlags extends CreateFlags {
  clusterKubeconfig?: string;
  secretName?: string;
}

export function clusterObjects(
  name: string,
  namespace: string,
  kubeconfig: string | undefined,
  f: { labels: Record<string, string>; interval: string; secretName?: string },
): { secret?: KubeObject; cluster: KubeObject } {
  const secretName = f.secretName ?? `${name}-kubeconfig`;
  const kind = SERVED_KINDS.Cluster;
  const cluster: KubeObject = {
    apiVersion: apiVersionOf(kind),
    kind: kind.kind,
    metadata: { name, namespace, ...(Object.keys(f.labels).length ? { labels: f.labels } : {}) },
    spec: { kubeConfig: { secretRef: { name: secretName, key: "value" } }, interval: f.interval },
  };
  if (kubeconfig === undefined) return { cluster };
  const secret: KubeObject = {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: secretName, namespace, labels: { "fleet.flotilla.dev/cluster": name } },
    type: "Opaque",
    data: { value: Buffer.from(kubeconfig).toString("base64") },
  };
  return { secret, cluster };
}

export function clusterCommand(): Command {
  const cmd = new Command("cluster")
    .description("Create or update a fleet Cluster, and the Secret with its kubeconfig (never printed)")
    .argument("[name]")
    .option("--cluster-kubeconfig <file>", "kubeconfig of the cluster to add (stored in a Secret, never exported)")
    .option("--secret-name <name>", "name of the kubeconfig Secret (default: <name>-kubeconfig)");
  withCreateFlags(
    cmd,
    "  flotilla create cluster eu-west-1 --cluster-kubeconfig ./eu-west-1.kubeconfig --label region=eu-west-1 -n fleet\n" +
      "  flotilla create cluster eu-west-1 --label region=eu-west-1 --export > cluster.yaml   # Secret created apart",
  );
  return cmd.action(async (name: string | undefined, f: ClusterFlags) => {
    const meta = metaOf(name, f);
    let kubeconfig: string | undefined;
    if (f.clusterKubeconfig) {
      try {
        kubeconfig = readFileSync(f.clusterKubeconfig, "utf8");
      } catch (err) {
        throw new UsageError(`--cluster-kubeconfig ${f.clusterKubeconfig}: ${(err as Error).message}`);
      }
      // Checked first: a kubeconfig flotilla cannot use is refused before anything is written.
      endpointFromKubeconfig(kubeconfig, { source: f.clusterKubeconfig });
    }
    const { secret, cluster } = clusterObjects(meta.name, meta.namespace, f.export ? undefined : kubeconfig, {
      labels: meta.labels ?? {},
      interval: f.interval,
      secretName: f.secretName,
    });
    if (f.export) {
      process.stdout.write(exportYaml(cluster as unknown as Record<string, unknown>));
      return;
    }
    const target = clusterOf(f);
    const secretName = f.secretName ?? `${meta.name}-kubeconfig`;
    const existing = { apiVersion: "v1", kind: "Secret", metadata: { name: secretName, namespace: meta.namespace } };
    if (!secret && !(await target.get(existing)))
      throw new UsageError(
        `--cluster-kubeconfig is required: no Secret ${meta.namespace}/${secretName} holds cluster ${meta.name}'s kubeconfig yet`,
      );
    generating("cluster");
    if (secret) {
      await target.apply(secret, FIELD_MANAGER, { force: true });
      success(`kubeconfig secret '${secret.metadata.name}' written (not printed)`);
    }
    const applied = await upsert(target, cluster, "cluster");
    const live = await waitReady(target, applied, "cluster", timeoutMsOf(f));
    const status = live.status as { kubernetesVersion?: string; nodeCount?: number } | undefined;
    success(
      `cluster ${meta.name} is ready: Kubernetes ${status?.kubernetesVersion ?? "?"}, ` +
        // No count: the kubeconfig's identity may not list nodes (a namespace-scoped kubeconfig, decision 0044).
        (status?.nodeCount === undefined ? "nodes not visible to its kubeconfig" : `${status.nodeCount} nodes`),
    );
  });
}
