// `flotilla trace`: from any object in the cluster to the Flux objects that put it there — the
// Kustomization or HelmRelease named by its labels (or its owner's), then their sources — as flux
// trace prints it. `trace <kind>/<name>`, `trace <kind> <name>`, or `trace NAME --kind --api-version`.
import { Command } from "commander";
import { HELM_GROUP as HELM, KUSTOMIZE_GROUP as KS, SERVED_KINDS } from "../../api/kinds.js";
import { apiPath, pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import { NotFoundError } from "../../kube/errors.js";
import { parseApiVersion } from "../../kube/object.js";
import { addClusterFlags, clusterOf, type ClusterFlags } from "../cluster-flags.js";
import { OutcomeError, UsageError } from "../errors.js";
import { helmReleaseReport, kustomizationReport, type Obj } from "./inspect/trace-report.js";
import { resolveResource } from "./inspect/resolve-resource.js";

interface TraceFlags extends ClusterFlags {
  kind?: string;
  apiVersion?: string;
}

interface Live extends Obj {
  apiVersion: string;
  kind: string;
  metadata: Obj["metadata"] & {
    labels?: Record<string, string>;
    ownerReferences?: { apiVersion: string; kind: string; name: string }[];
  };
}

async function get<T>(cluster: Cluster, path: string, what: string): Promise<T> {
  try {
    return await cluster.client.get<T>(path);
  } catch (err) {
    if (err instanceof NotFoundError) throw new OutcomeError(`failed to find ${what}`);
    throw err;
  }
}

function objectPath(apiVersion: string, plural: string, namespaced: boolean, ns: string, name: string): string {
  return apiPath({ ...parseApiVersion(apiVersion), resource: plural, namespace: namespaced ? ns : undefined, name });
}

/** The manager named by `<group>/name` and `<group>/namespace` labels, on the object or one of its owners. */
async function managedBy(
  cluster: Cluster,
  o: Live,
  group: string,
): Promise<{ name: string; namespace: string } | undefined> {
  const of = (x: Live) => {
    const name = x.metadata.labels?.[`${group}/name`];
    return name ? { name, namespace: x.metadata.labels?.[`${group}/namespace`] ?? "" } : undefined;
  };
  if (of(o)) return of(o);
  for (const ref of o.metadata.ownerReferences ?? []) {
    const resolved = await resolveResource(cluster, ref.kind).catch(() => undefined);
    if (!resolved) continue;
    const owner = await cluster.client
      .get<Live>(objectPath(ref.apiVersion, resolved.plural, resolved.namespaced, o.metadata.namespace ?? "", ref.name))
      .catch(() => undefined);
    if (owner && of(owner)) return of(owner);
  }
  return undefined;
}

async function trace(cluster: Cluster, o: Live, typedKind: string): Promise<string> {
  const objectName = `${typedKind}/${o.metadata.name}`;
  const ks = await managedBy(cluster, o, KS);
  if (ks) {
    const k = await get<Obj & { spec: { sourceRef: { kind: string; name: string; namespace?: string } } }>(
      cluster,
      pathOf(SERVED_KINDS.Kustomization, ks.namespace, ks.name),
      `kustomization ${ks.namespace}/${ks.name}`,
    );
    const ref = k.spec.sourceRef;
    const sourceNs = ref.namespace ?? ks.namespace;
    const source =
      ref.kind === "GitRepository" || ref.kind === "OCIRepository"
        ? await get<Obj>(cluster, pathOf(SERVED_KINDS[ref.kind], sourceNs, ref.name), `${ref.kind} ${ref.name}`)
        : undefined;
    return kustomizationReport(
      objectName,
      o.metadata.namespace,
      k,
      ref.kind === "OCIRepository" ? { oci: source } : { git: source },
    );
  }
  const hr = await managedBy(cluster, o, HELM);
  if (!hr)
    throw new UsageError(
      `object not managed by Flux: ${o.kind}/${o.metadata.name} has no ${KS}/name or ${HELM}/name label`,
    );
  type Hr = Obj & {
    spec: {
      chart?: { spec: { sourceRef: { kind: string; name: string; namespace?: string } } };
      chartRef?: { kind: string; name: string; namespace?: string };
    };
    status?: { helmChart?: string };
  };
  const h = await get<Hr>(cluster, pathOf(SERVED_KINDS.HelmRelease, hr.namespace, hr.name), `HelmRelease ${hr.name}`);
  const sources: { chart?: Obj; helmRepository?: Obj; git?: Obj; oci?: Obj } = {};
  if (h.status?.helmChart) {
    const [cns, cname] = h.status.helmChart.split("/");
    sources.chart = await get<Obj>(
      cluster,
      pathOf(SERVED_KINDS.HelmChart, cns, cname),
      `HelmChart ${h.status.helmChart}`,
    );
  }
  const ref = h.spec.chart?.spec.sourceRef;
  const sourceNs = ref?.namespace ?? hr.namespace;
  if (ref?.kind === "HelmRepository")
    sources.helmRepository = await get<Obj>(
      cluster,
      pathOf(SERVED_KINDS.HelmRepository, sourceNs, ref.name),
      `HelmRepository ${ref.name}`,
    );
  if (ref?.kind === "GitRepository")
    sources.git = await get<Obj>(
      cluster,
      pathOf(SERVED_KINDS.GitRepository, sourceNs, ref.name),
      `GitRepository ${ref.name}`,
    );
  const chartRef = h.spec.chartRef;
  if (!h.spec.chart && chartRef?.kind === "OCIRepository")
    sources.oci = await get<Obj>(
      cluster,
      pathOf(SERVED_KINDS.OCIRepository, chartRef.namespace ?? hr.namespace, chartRef.name),
      `OCIRepository ${chartRef.name}`,
    );
  return helmReleaseReport(objectName, o.metadata.namespace, h, sources);
}

export function traceCommand(): Command {
  const cmd = new Command("trace")
    .description("Trace an in-cluster object to the Flux objects and source that manage it")
    .argument("[args...]", "<kind>/<name>, <kind> <name>, or NAME with --kind and --api-version")
    .option("--kind <kind>", "the Kubernetes object kind, e.g. Deployment")
    .option("--api-version <version>", "the Kubernetes object API version, e.g. apps/v1")
    .addHelpText(
      "after",
      "\nExamples:\n  flotilla trace deployment/podinfo -n apps\n  flotilla trace podinfo --kind=HelmRelease --api-version=helm.toolkit.fluxcd.io/v2 -n apps",
    );
  addClusterFlags(cmd);
  return cmd.action(async (args: string[], f: TraceFlags) => {
    const cluster = clusterOf(f);
    let typedKind: string;
    let name: string;
    let path: string;
    if (f.kind || f.apiVersion) {
      if (!args[0]) throw new UsageError("object name is required");
      if (!f.kind) throw new UsageError("object kind is required (--kind)");
      if (!f.apiVersion) throw new UsageError("object apiVersion is required (--api-version)");
      const resolved = await resolveResource(cluster, f.kind);
      [typedKind, name] = [f.kind, args[0]];
      path = objectPath(f.apiVersion, resolved.plural, resolved.namespaced, f.namespace, name);
    } else {
      const [kind, n] = args.length === 1 && args[0]!.includes("/") ? args[0]!.split("/") : [args[0], args[1]];
      if (!kind || !n)
        throw new UsageError("either `<resource>/<name>` or `<resource> <name>` is required as an argument");
      const resolved = await resolveResource(cluster, kind);
      [typedKind, name] = [resolved.kind, n];
      path = objectPath(resolved.apiVersion, resolved.plural, resolved.namespaced, f.namespace, name);
    }
    const o = await get<Live>(cluster, path, `object ${typedKind}/${name} in namespace ${f.namespace}`);
    process.stdout.write(await trace(cluster, o, typedKind));
  });
}
