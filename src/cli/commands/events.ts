// `flotilla events [--for Kind/name] [-A] [-w] [--types Normal,Warning]`: the Events of Flux objects,
// oldest first, in flux's columns (LAST SEEN, TYPE, REASON, OBJECT, MESSAGE). --for Kind/name adds the
// events of the object's source (a Kustomization's GitRepository; a HelmRelease's HelmChart and the
// chart's repository), as flux does; NAMESPACE is shown when -A or a source lives elsewhere.
import { Command } from "commander";
import { SERVED_KINDS, USED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import { Watcher } from "../../kube/watch.js";
import { addClusterFlags, type ClusterFlags, clusterOf, timeoutMsOf } from "../cluster-flags.js";
import { UsageError } from "../errors.js";
import { fluxTable } from "../flux-table.js";
import { ageOf } from "../human-duration.js";
import { failure } from "../output.js";
import type { FluxObject } from "./get/get-kinds.js";

interface KubeEvent {
  metadata: { namespace?: string; name: string };
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  eventTime?: string | null;
  firstTimestamp?: string | null;
  lastTimestamp?: string | null;
  series?: { count: number; lastObservedTime: string };
  involvedObject: { kind: string; name: string; namespace?: string };
}

interface Flags extends ClusterFlags {
  allNamespaces?: boolean;
  watch?: boolean;
  for?: string;
  types?: string;
}

/** The kinds flux lists events for (others, e.g. Pods, are left out). */
const FLUX_KINDS = new Set([
  ...Object.values(SERVED_KINDS).map((k) => k.kind),
  ...["Bucket", "OCIRepository", "ExternalArtifact", "Alert", "Provider", "Receiver"],
  ...["ImageRepository", "ImagePolicy", "ImageUpdateAutomation"],
]);

interface Selector {
  kind: string;
  name?: string;
  namespace?: string;
}

const eventTime = (e: KubeEvent) => e.series?.lastObservedTime ?? e.lastTimestamp ?? e.eventTime ?? "";

function lastSeen(e: KubeEvent): string {
  const first = ageOf(e.eventTime ?? e.firstTimestamp ?? undefined);
  if (e.series) return `${ageOf(e.series.lastObservedTime)} (x${e.series.count} over ${first})`;
  if ((e.count ?? 0) > 1) return `${ageOf(e.lastTimestamp ?? undefined)} (x${e.count} over ${first})`;
  return first;
}

const rowOf = (e: KubeEvent, showNs: boolean) => [
  ...(showNs ? [e.metadata.namespace ?? ""] : []),
  lastSeen(e),
  e.type ?? "",
  e.reason ?? "",
  `${e.involvedObject.kind}/${e.involvedObject.name}`,
  e.message ?? "",
];
const headers = (showNs: boolean) => [
  ...(showNs ? ["Namespace"] : []),
  "Last seen",
  "Type",
  "Reason",
  "Object",
  "Message",
];

function kindOf(name: string): string {
  const found = [...FLUX_KINDS].find((k) => k.toLowerCase() === name.toLowerCase());
  if (!found) throw new UsageError(`--for: unknown kind '${name}': use one of ${[...FLUX_KINDS].join(", ")}`);
  return found;
}

/** The object --for names plus its sources, as flux's getObjectRef. */
async function selectorsFor(cluster: Cluster, f: Flags): Promise<Selector[]> {
  if (!f.for) return [];
  const [rawKind, name] = f.for.split("/", 2) as [string, string | undefined];
  if (!rawKind) throw new UsageError("--for selector must be of format <kind>[/<name>]");
  const kind = kindOf(rawKind);
  const own: Selector = { kind, name, namespace: f.allNamespaces ? undefined : f.namespace };
  if (!name) return [own];
  const entry = Object.values(SERVED_KINDS).find((k) => k.kind === kind);
  if (!entry) return [own];
  const o = await cluster.client.get<FluxObject>(pathOf(entry, f.namespace, name));
  const ns = o.metadata.namespace!;
  const refs: Selector[] = [];
  if (kind === "Kustomization" && o.spec?.sourceRef)
    refs.push({
      kind: o.spec.sourceRef.kind,
      name: o.spec.sourceRef.name,
      namespace: o.spec.sourceRef.namespace || ns,
    });
  if (kind === "HelmRelease") {
    const src = o.spec?.chart?.spec?.sourceRef;
    if (o.spec?.chartRef)
      refs.push({ kind: o.spec.chartRef.kind, name: o.spec.chartRef.name, namespace: o.spec.chartRef.namespace || ns });
    else if (src) {
      refs.push({ kind: "HelmChart", name: `${ns}-${o.metadata.name}`, namespace: src.namespace || ns });
      refs.push({ kind: src.kind, name: src.name, namespace: src.namespace || ns });
    }
  }
  return [{ ...own, namespace: ns }, ...refs];
}

const fieldSelector = (s: Selector) =>
  [`involvedObject.kind=${s.kind}`, ...(s.name ? [`involvedObject.name=${s.name}`] : [])].join(",");

export function eventsCommand(): Command {
  const cmd = new Command("events")
    .description("Display Kubernetes events for Flux resources")
    .option("-A, --all-namespaces", "display events from Flux resources across all namespaces")
    .option("-w, --watch", "indicate if the events should be streamed")
    .option("--for <Kind/name>", "get the events for a particular object (and its source)")
    .option("--types <types>", "filter events for certain types (valid types are: Normal, Warning)")
    .addHelpText("after", "\nExample:\n  flotilla events --for Kustomization/podinfo")
    .action(async (f: Flags) => {
      const types = (f.types ?? "").split(",").filter(Boolean);
      for (const t of types)
        if (!/^(normal|warning)$/i.test(t)) throw new UsageError(`--types: invalid type '${t}': use Normal or Warning`);
      const cluster = clusterOf(f);
      const sels = await selectorsFor(cluster, f);
      const namespace = f.allNamespaces ? undefined : f.namespace;
      const showNs = !namespace || sels.some((s) => s.namespace && s.namespace !== namespace);
      const keep = (e: KubeEvent) =>
        FLUX_KINDS.has(e.involvedObject.kind) &&
        (!types.length || types.some((t) => t.toLowerCase() === e.type?.toLowerCase()));
      const queries = sels.length ? sels : [{ kind: "", namespace }];
      if (f.watch) return watchEvents(cluster, queries, keep, showNs, f);
      const events: KubeEvent[] = [];
      for (const q of queries) {
        const { items } = await cluster.client.listAll<KubeEvent>(
          pathOf(USED_KINDS.Event, q.namespace),
          q.kind ? { fieldSelector: fieldSelector(q) } : {},
        );
        events.push(...items);
      }
      const rows = events
        .filter(keep)
        .sort((a, b) => Date.parse(eventTime(a)) - Date.parse(eventTime(b)))
        .map((e) => rowOf(e, showNs));
      if (!rows.length) {
        failure(f.allNamespaces ? "No events found." : `No events found in ${f.namespace} namespace.`);
        return;
      }
      process.stdout.write(fluxTable(headers(showNs), rows));
    });
  return addClusterFlags(cmd);
}

async function watchEvents(
  cluster: Cluster,
  queries: Selector[],
  keep: (e: KubeEvent) => boolean,
  showNs: boolean,
  f: Flags,
): Promise<void> {
  let first = true;
  const print = (e: KubeEvent) => {
    if (!keep(e)) return;
    process.stdout.write(fluxTable(first ? headers(showNs) : undefined, [rowOf(e, showNs)]));
    first = false;
  };
  const watchers = queries.map(
    (q) =>
      new Watcher(
        cluster,
        {
          gvk: { group: "", version: "v1", kind: "Event" },
          namespace: q.namespace,
          fieldSelector: q.kind ? fieldSelector(q) : undefined,
        },
        {
          onSync: (items) => (items as unknown as KubeEvent[]).forEach(print),
          onEvent: (e) => e.type !== "DELETED" && print(e.object as unknown as KubeEvent),
        },
      ),
  );
  await new Promise<void>((resolve) => {
    const stop = () => {
      clearTimeout(timer);
      process.off("SIGINT", stop);
      void Promise.all(watchers.map((w) => w.stop())).then(() => resolve());
    };
    const timer = setTimeout(stop, timeoutMsOf(f));
    process.once("SIGINT", stop);
    watchers.forEach((w) => w.start());
  });
}
