// `flotilla stats`: how many of each Flux kind are running, failing and suspended, and how much artifact
// storage they use, as flux stats prints it (cmd/flux/stats.go) — every kind flux lists, zero for the
// kinds this cluster does not serve.
import { Command } from "commander";
import { apiPath } from "../../api/paths.js";
import { NotFoundError } from "../../kube/errors.js";
import { parseApiVersion } from "../../kube/object.js";
import { addClusterFlags, clusterOf, type ClusterFlags } from "../cluster-flags.js";
import { fluxTable } from "../flux-table.js";
import { formatBinarySize } from "../../util/binary-size.js";

const KINDS: [string, string, string][] = [
  ["GitRepository", "source.toolkit.fluxcd.io/v1", "gitrepositories"],
  ["OCIRepository", "source.toolkit.fluxcd.io/v1", "ocirepositories"],
  ["HelmRepository", "source.toolkit.fluxcd.io/v1", "helmrepositories"],
  ["HelmChart", "source.toolkit.fluxcd.io/v1", "helmcharts"],
  ["Bucket", "source.toolkit.fluxcd.io/v1", "buckets"],
  ["Kustomization", "kustomize.toolkit.fluxcd.io/v1", "kustomizations"],
  ["HelmRelease", "helm.toolkit.fluxcd.io/v2", "helmreleases"],
  ["Alert", "notification.toolkit.fluxcd.io/v1beta3", "alerts"],
  ["Provider", "notification.toolkit.fluxcd.io/v1beta3", "providers"],
  ["Receiver", "notification.toolkit.fluxcd.io/v1", "receivers"],
  ["ImageUpdateAutomation", "image.toolkit.fluxcd.io/v1", "imageupdateautomations"],
  ["ImagePolicy", "image.toolkit.fluxcd.io/v1", "imagepolicies"],
  ["ImageRepository", "image.toolkit.fluxcd.io/v1", "imagerepositories"],
];

/** flux's formatSize: "-" for nothing, bytes below 1 KiB, then one decimal in KiB, MiB, … */
export const formatSize = (b: number): string => formatBinarySize(b, "-");

interface Item {
  spec?: { suspend?: boolean };
  status?: { conditions?: { type: string; status: string }[]; artifact?: { size?: number } };
}

export function statsCommand(): Command {
  const cmd = new Command("stats")
    .description("Stats of Flux reconcilers: running, failing, suspended, storage")
    .option("-A, --all-namespaces", "list the statistics for objects across all namespaces")
    .addHelpText("after", "\nExamples:\n  flotilla stats -A\n  flotilla stats -n flux-system");
  addClusterFlags(cmd);
  return cmd.action(async (f: ClusterFlags & { allNamespaces?: boolean }) => {
    const cluster = clusterOf(f);
    const rows: string[][] = [];
    for (const [kind, apiVersion, plural] of KINDS) {
      const namespace = f.allNamespaces ? undefined : f.namespace;
      const path = apiPath({ ...parseApiVersion(apiVersion), resource: plural, namespace });
      let items: Item[] = [];
      try {
        items = (await cluster.client.listAll<Item>(path)).items;
      } catch (err) {
        if (!(err instanceof NotFoundError)) throw err; // a kind without its CRD counts zero, as in flux
      }
      const suspended = items.filter((i) => i.spec?.suspend === true).length;
      const failing = items.filter((i) =>
        i.status?.conditions?.some((c) => c.type === "Ready" && c.status === "False"),
      ).length;
      const size = items.reduce((s, i) => s + (i.status?.artifact?.size ?? 0), 0);
      rows.push([kind, String(items.length - suspended), String(failing), String(suspended), formatSize(size)]);
    }
    process.stdout.write(fluxTable(["RECONCILERS", "RUNNING", "FAILING", "SUSPENDED", "STORAGE"], rows));
  });
}
