// `flotilla uninstall`: remove flotilla from a cluster and keep what it deployed, as flux uninstall
// does — first the controller (so nothing reconciles or prunes any more), then the finalizers of every
// Flux object (so deleting them deletes nothing else: applied objects stay, Helm releases stay
// installed), then the CRDs (which takes the Flux objects with them), then the namespace.
import { Command } from "commander";
import { servedCrds } from "../../api/flux-crds.js";
import type { KubeObject } from "../../api/meta/object.js";
import { apiPath } from "../../api/paths.js";
import { installManifests } from "../../install/manifests.js";
import { NotFoundError } from "../../kube/errors.js";
import { addClusterFlags, clusterOf, type ClusterFlags } from "../cluster-flags.js";
import { UsageError } from "../errors.js";
import { step, success } from "../output.js";
import { VERSION } from "../version.js";
import { confirm } from "../prompt.js";

interface UninstallFlags extends ClusterFlags {
  keepNamespace?: boolean;
  dryRun?: boolean;
  silent?: boolean;
}

const subject = (o: { kind: string; metadata: { name: string; namespace?: string } }) =>
  `${o.kind}/${o.metadata.namespace ? `${o.metadata.namespace}/` : ""}${o.metadata.name}`;

export function uninstallCommand(): Command {
  const cmd = new Command("uninstall")
    .description("Uninstall flotilla and its custom resource definitions, keeping the workloads it deployed")
    .option("--keep-namespace", "skip namespace deletion")
    .option("--dry-run", "only print the objects that would be deleted")
    .option("-s, --silent", "delete components without asking for confirmation")
    .addHelpText("after", "\nExamples:\n  flotilla uninstall --namespace=flux-system\n  flotilla uninstall --dry-run");
  addClusterFlags(cmd);
  return cmd.action(async (f: UninstallFlags) => {
    const cluster = clusterOf(f);
    if (
      !f.silent &&
      !f.dryRun &&
      !(await confirm("Are you sure you want to delete flotilla and its custom resource definitions"))
    )
      throw new UsageError("aborting");
    const dry = f.dryRun ? " (dry run)" : "";
    const del = async (o: KubeObject) => {
      try {
        if (!f.dryRun) await cluster.delete(o);
        success(`${subject(o)} deleted${dry}`);
      } catch (err) {
        if (!(err instanceof NotFoundError)) throw err;
      }
    };
    // The optional PodDisruptionBudget included: what is not there is skipped.
    const manifests = installManifests({
      namespace: f.namespace,
      image: "",
      version: VERSION,
      podDisruptionBudget: true,
    });
    const components = manifests.filter((o) => o.kind !== "CustomResourceDefinition" && o.kind !== "Namespace");

    step(`deleting components in ${f.namespace} namespace`);
    for (const o of components.reverse()) await del(o);

    step("deleting toolkit.fluxcd.io finalizers in all namespaces");
    const crds = servedCrds() as unknown as {
      metadata: { name: string };
      spec: { group: string; names: { kind: string; plural: string }; versions: { name: string; storage: boolean }[] };
    }[];
    for (const crd of crds) {
      const version = crd.spec.versions.find((v) => v.storage)!.name;
      const at = { group: crd.spec.group, version, resource: crd.spec.names.plural };
      let items: KubeObject[] = [];
      try {
        items = (await cluster.client.listAll<KubeObject>(apiPath(at))).items;
      } catch (err) {
        if (!(err instanceof NotFoundError)) throw err;
      }
      for (const o of items) {
        if (!o.metadata.finalizers?.length) continue;
        const path = apiPath({ ...at, namespace: o.metadata.namespace, name: o.metadata.name });
        if (!f.dryRun) await cluster.client.patch(path, "merge", { metadata: { finalizers: null } });
        success(`${subject({ kind: crd.spec.names.kind, metadata: o.metadata })} finalizers deleted${dry}`);
      }
    }

    step("deleting toolkit.fluxcd.io custom resource definitions");
    for (const crd of servedCrds()) await del(crd);

    if (!f.keepNamespace) {
      step(`deleting namespace ${f.namespace}`);
      await del({ apiVersion: "v1", kind: "Namespace", metadata: { name: f.namespace } });
    }
    success(`uninstall finished${dry}`);
  });
}
