// Deleting a HelmRelease: uninstall its release from the target cluster (not for a suspended object,
// as Flux), delete the HelmChart made from its template, release the finalizer. Bounded as the
// Kustomization's (decision 0011): a kubeconfig Secret that is gone means the cluster is gone; a
// cluster that does not answer is retried until spec.timeout after the deletion request.
import type { HelmRelease } from "../../api/helm/helmrelease.js";
import type { Cluster } from "../../kube/cluster.js";
import type { EventRecorder } from "../../runtime/events.js";
import type { Result } from "../../runtime/controller.js";
import { finalizeBounded } from "../kit/finalize.js";
import { KubeconfigSecretNotFound, targetCluster } from "../kit/target-cluster.js";
import { uninstallRelease } from "./actions/uninstall.js";
import { deleteHelmChart } from "./chart-source.js";
import { releaseName, releaseNameProblem, targetNamespace } from "./release-name.js";
import { ReleaseStorage } from "./storage/release.js";
import { timeoutMs } from "./timing.js";

export interface HelmReleaseFinalizeDeps {
  cluster: Cluster;
  events: EventRecorder;
  defaultServiceAccount?: string;
  patchStatus: (status: Record<string, unknown>) => Promise<void>;
  release: () => Promise<void>;
  retryMs: number;
}

export async function finalizeHelmRelease(hr: HelmRelease, deps: HelmReleaseFinalizeDeps): Promise<Result | void> {
  const uninstall = async (): Promise<string | undefined> => {
    if (hr.spec.suspend) return undefined;
    // Refused before any helm ran (reconciler.ts): nothing was installed under it, and its storage
    // labels could not even be listed by it.
    if (releaseNameProblem(hr)) return undefined;
    let target: Cluster;
    try {
      target = await targetCluster(deps.cluster, hr, deps.defaultServiceAccount);
    } catch (err) {
      if (!(err instanceof KubeconfigSecretNotFound)) return (err as Error).message;
      await deps.events.record(
        hr,
        "Warning",
        "UninstallSkipped",
        `skipping uninstall: ${err.message}; the remote cluster is considered gone`,
      );
      return undefined;
    }
    const release = releaseName(hr);
    const namespace = targetNamespace(hr);
    try {
      const last = await new ReleaseStorage(target.client, namespace).last(release);
      if (!last || last.info.status === "uninstalled") return undefined;
      await uninstallRelease(
        hr,
        { release, namespace, asUser: target.client.impersonate?.user },
        target.client.endpoint,
      );
      await deps.events.record(
        hr,
        "Normal",
        "UninstallSucceeded",
        `Helm uninstall for release ${namespace}/${release} succeeded`,
      );
      return undefined;
    } catch (err) {
      return `uninstall of release ${namespace}/${release} failed: ${(err as Error).message}`;
    }
  };
  return finalizeBounded(
    hr,
    { ...deps, release: async () => (await deleteHelmChart(deps.cluster, hr), deps.release()) },
    uninstall,
    {
      timeoutMs: timeoutMs(hr.spec),
      reason: "UninstallFailed",
      what: "the uninstall",
      stopHint: "set spec.suspend: true to delete it without uninstalling",
    },
  );
}
