// `flotilla status`: the fleet at a glance from the management cluster — every cluster (Ready, version,
// last probe), then the Kustomizations and HelmReleases that target it (revision, Ready, message), the
// failing ones first, in every namespace. Without the fleet kinds, apps group by the kubeconfig Secret
// they name, or "management". `-w` prints each app whose state changes; `-o json|yaml` the whole view.
import { Command, Option } from "commander";
import { stringify } from "yaml";
import type { FleetCluster } from "../../api/fleet/cluster.js";
import { SERVED_KINDS } from "../../api/kinds.js";
import type { Cluster } from "../../kube/cluster.js";
import { type App, type AppRow, type ClusterGroup, fleetView } from "../../fleet/status/fleet-view.js";
import { FleetCache } from "../../fleet/status/fleet-cache.js";
import { listServed } from "../../fleet/status/list-served.js";
import { addManagementFlags, type ClusterFlags, clusterOf } from "../cluster-flags.js";
import { UsageError } from "../errors.js";
import { fluxTable, truncateHex } from "../flux-table.js";
import { ageOf } from "../human-duration.js";

interface Flags {
  namespace?: string;
  kubeconfig?: string;
  context?: string;
  statusSelector?: string;
  watch?: boolean;
  output?: string;
}

async function readView(cluster: Cluster, keep: (a: AppRow) => boolean, ns?: string): Promise<ClusterGroup[]> {
  const [clusters, ks, hr] = await Promise.all([
    listServed<FleetCluster>(cluster, SERVED_KINDS.Cluster, ns),
    listServed<App>(cluster, SERVED_KINDS.Kustomization, ns),
    listServed<App>(cluster, SERVED_KINDS.HelmRelease, ns),
  ]);
  return fleetView(clusters, [...ks, ...hr], keep);
}

/** --status-selector ready=false|true|unknown (Ready is the condition the view shows). */
function selectorOf(selector: string | undefined): (a: AppRow) => boolean {
  if (!selector) return () => true;
  const m = /^ready(!?=)(true|false|unknown)$/i.exec(selector);
  if (!m) throw new UsageError(`--status-selector ${selector}: expected ready=true|false|unknown (or ready!=...)`);
  const want = m[2]!.toLowerCase();
  return (a) => (a.ready.toLowerCase() === want) === (m[1] === "=");
}

const appCells = (a: AppRow) => [
  a.kind,
  a.namespace,
  a.name,
  truncateHex(a.revision),
  a.suspended ? "True" : "False",
  a.ready,
  a.message,
];

function render(view: ClusterGroup[]): string {
  if (!view.length) return "no clusters and no Kustomizations or HelmReleases found\n";
  const clusters = fluxTable(
    ["Cluster", "Ready", "Version", "Last probe", "Apps failing", "Message"],
    view.map((g) => [
      g.cluster,
      g.ready,
      g.version ?? "",
      g.lastProbeTime ? `${ageOf(g.lastProbeTime)} ago` : "",
      `${g.apps.filter((a) => a.ready !== "True").length}/${g.apps.length}`,
      g.message,
    ]),
  );
  const blocks = view
    .filter((g) => g.apps.length)
    .map(
      (g) =>
        `\n${g.cluster}\n${fluxTable(["Kind", "Namespace", "Name", "Revision", "Suspended", "Ready", "Message"], g.apps.map(appCells))}`,
    );
  return clusters + blocks.join("");
}

const stateOf = (a: AppRow) => JSON.stringify([a.revision, a.ready, a.suspended, a.message]);

/** Prints every app whose state changes, from watches (no polling), until interrupted. */
async function watch(cluster: Cluster, keep: (a: AppRow) => boolean, ns?: string): Promise<void> {
  const cache = await FleetCache.start(cluster, ns, (line) => process.stderr.write(`${line}\n`));
  const seen = new Map<string, string>();
  let first = true;
  const print = () => {
    const rows: string[][] = [];
    const apps = [...cache.list<App>("Kustomization"), ...cache.list<App>("HelmRelease")];
    for (const g of fleetView(cache.list<FleetCluster>("Cluster"), apps, keep))
      for (const a of g.apps) {
        const key = `${a.kind}/${a.namespace}/${a.name}`;
        if (seen.get(key) !== stateOf(a)) rows.push([g.cluster, ...appCells(a)]);
        seen.set(key, stateOf(a));
      }
    const header = first
      ? ["Cluster", "Kind", "Namespace", "Name", "Revision", "Suspended", "Ready", "Message"]
      : undefined;
    if (rows.length) process.stdout.write(fluxTable(header, rows));
    first = false;
  };
  print();
  // A burst of status writes is one print.
  let timer: NodeJS.Timeout | undefined;
  cache.onChange(() => (timer ??= setTimeout(() => ((timer = undefined), print()), 200)));
  await new Promise<void>((resolve) => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => resolve());
  });
  await cache.stop();
}

export function statusCommand(): Command {
  return addManagementFlags(
    new Command("status").description("The whole fleet at a glance: every cluster and what runs on it, failing first"),
  )
    .option("-n, --namespace <name>", "only the objects of this namespace (default: every namespace)")
    .option("--status-selector <ready=value>", "only apps whose Ready is (or with !=, is not) true, false or unknown")
    .option(
      "-w, --watch",
      "after the view, print every app whose revision, readiness or message changes (from watches)",
    )
    .addOption(new Option("-o, --output <format>", "json or yaml: the whole view as data").choices(["json", "yaml"]))
    .addHelpText(
      "after",
      "\nExamples:\n  flotilla status --kubeconfig /tmp/fleet/kubeconfigs/management.kubeconfig\n  flotilla status --status-selector ready=false -w\n",
    )
    .action(async (f: Flags) => {
      const keep = selectorOf(f.statusSelector);
      if (f.watch && f.output) throw new UsageError("--watch prints changes as a table: use it without --output");
      const cluster = clusterOf({
        kubeconfig: f.kubeconfig,
        context: f.context,
        namespace: "",
        timeout: "5m",
      } satisfies ClusterFlags);
      if (f.watch) return watch(cluster, keep, f.namespace);
      const view = await readView(cluster, keep, f.namespace);
      if (f.output === "json") process.stdout.write(`${JSON.stringify({ clusters: view }, null, 2)}\n`);
      else if (f.output === "yaml") process.stdout.write(stringify({ clusters: view }));
      else process.stdout.write(render(view));
    });
}
