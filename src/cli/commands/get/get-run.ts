// One `flotilla get <kind>`: list (or watch) the kind in a namespace or all of them, filter by label
// and status selectors, print Flux's table — or the objects as kubectl's `-o json` does. Errors use
// the flux CLI's wording ("no Kustomization objects found in "flux-system" namespace").
import { storageVersion } from "../../../api/kinds.js";
import { pathOf } from "../../../api/paths.js";
import type { Cluster } from "../../../kube/cluster.js";
import { NotFoundError } from "../../../kube/errors.js";
import { Watcher } from "../../../kube/watch.js";
import { type ClusterFlags, timeoutMsOf } from "../../cluster-flags.js";
import { sigsYaml } from "../../export/sigs-yaml.js";
import { UsageError } from "../../errors.js";
import { fluxTable } from "../../flux-table.js";
import { type FluxObject, type GetKind, headersOf, type RowOptions, rowOf, statusMatches } from "./get-kinds.js";

export interface GetFlags extends ClusterFlags {
  allNamespaces?: boolean;
  /** commander's --no-header: false when given. */
  header: boolean;
  watch?: boolean;
  statusSelector?: string;
  labelSelector?: string;
  showSource?: boolean;
  output?: string;
}

/** --status-selector: `type=status` or `type!=status` ("!=" checked first: it contains "="). */
export function statusFilter(selector: string | undefined): (o: FluxObject) => boolean {
  if (!selector) return () => true;
  const negated = selector.includes("!=");
  const parts = selector.split(negated ? "!=" : "=");
  if (parts.length < 2)
    throw new UsageError(`expected status selector in type=status or type!=status format, but found: ${selector}`);
  const [type, ...rest] = parts;
  const status = rest.join(negated ? "!=" : "=");
  return (o) => statusMatches(o, type!, status) !== negated;
}

const where = (f: GetFlags) => (f.allNamespaces ? "any namespace" : `"${f.namespace}" namespace`);

/** The objects of `kind` the flags select, in the API's order (by namespace, then name). */
async function list(cluster: Cluster, kind: GetKind, f: GetFlags, name?: string): Promise<FluxObject[]> {
  const query: Record<string, string> = {};
  if (f.labelSelector) query.labelSelector = f.labelSelector;
  if (name) query.fieldSelector = `metadata.name=${name}`;
  const path = pathOf(kind.entry, f.allNamespaces ? undefined : f.namespace);
  const { items } = await cluster.client.listAll<FluxObject>(path, query);
  const apiVersion = `${kind.entry.group}/${storageVersion(kind.entry)}`;
  return items.map((o) => ({ ...o, apiVersion, kind: kind.entry.kind }));
}

export interface GetOutcome {
  stdout: string;
}

/**
 * Prints one kind. In `get all` (`inAll`) an empty list prints nothing and a kind the cluster does not
 * serve is skipped, as flux does.
 */
export async function getKind(
  cluster: Cluster,
  kind: GetKind,
  f: GetFlags,
  name: string | undefined,
  inAll = false,
): Promise<GetOutcome> {
  const filter = statusFilter(f.statusSelector);
  let items: FluxObject[];
  try {
    items = await list(cluster, kind, f, name);
  } catch (err) {
    if (inAll && err instanceof NotFoundError) return { stdout: "" };
    throw err;
  }
  if (f.output === "json" || f.output === "yaml") {
    // kubectl's printers: one object alone, several as a v1 List; YAML is sigs.k8s.io/yaml.
    const listed = { apiVersion: "v1", items, kind: "List", metadata: { resourceVersion: "" } };
    const value = name && items.length === 1 ? items[0] : listed;
    return { stdout: f.output === "json" ? `${JSON.stringify(value, null, 4)}\n` : sigsYaml(value) };
  }
  if (!items.length) {
    if (name) throw new UsageError(`${kind.entry.kind} object '${name}' not found in ${where(f)}`);
    if (!inAll) throw new UsageError(`no ${kind.entry.kind} objects found in ${where(f)}`);
    return { stdout: "" };
  }
  const o: RowOptions = { allNamespaces: !!f.allNamespaces, withKind: inAll, showSource: !!f.showSource };
  const rows = items.filter(filter).map((x) => rowOf(kind, x, o));
  if (inAll && !rows.length) return { stdout: "" };
  return { stdout: fluxTable(f.header ? headersOf(kind, o) : undefined, rows) + (inAll ? "\n" : "") };
}

/** -w: the current objects, then a row per change, until --timeout or Ctrl-C. */
export async function watchKind(cluster: Cluster, kind: GetKind, f: GetFlags, name?: string): Promise<void> {
  const filter = statusFilter(f.statusSelector);
  const o: RowOptions = { allNamespaces: !!f.allNamespaces, withKind: false, showSource: !!f.showSource };
  let first = true;
  const print = (obj: FluxObject) => {
    if (!filter(obj)) return;
    process.stdout.write(fluxTable(first && f.header ? headersOf(kind, o) : undefined, [rowOf(kind, obj, o)]));
    first = false;
  };
  let failed: unknown;
  await new Promise<void>((resolve) => {
    const watcher = new Watcher(
      cluster,
      {
        gvk: { group: kind.entry.group, version: storageVersion(kind.entry), kind: kind.entry.kind },
        namespace: f.allNamespaces ? undefined : f.namespace,
        labelSelector: f.labelSelector,
        fieldSelector: name ? `metadata.name=${name}` : undefined,
      },
      {
        onSync: (items) => items.forEach((x) => print(x as FluxObject)),
        onEvent: (e) => e.type !== "DELETED" && print(e.object as FluxObject),
        onError: (err) => {
          failed = err;
          stop();
        },
      },
    );
    const timer = setTimeout(() => stop(), timeoutMsOf(f));
    const stop = () => {
      clearTimeout(timer);
      process.off("SIGINT", stop);
      void watcher.stop().then(resolve);
    };
    process.once("SIGINT", stop);
    watcher.start();
  });
  if (failed) throw failed;
}
