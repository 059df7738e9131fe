// helm-controller's ReleaseTargetChanged (internal/action/verify.go): when the release name, its
// namespace or the chart's name differ from the newest release in status.history, the old release is
// uninstalled first and the history and failure counters cleared, so the new target is installed
// afresh — never two releases of one HelmRelease left running, never a release of one chart upgraded
// into another chart.
import type { HelmRelease, ReleaseSnapshot } from "../../api/helm/helmrelease.js";
import type { Cluster } from "../../kube/cluster.js";
import type { EventRecorder } from "../../runtime/events.js";
import { uninstallRelease } from "./actions/uninstall.js";
import { ReleaseStorage } from "./storage/release.js";

export interface ReleaseTarget {
  release: string;
  namespace: string;
  chartName: string;
}

/** The newest recorded release when it was made for another target; undefined when nothing changed. */
export function changedTarget(hr: HelmRelease, want: ReleaseTarget): ReleaseSnapshot | undefined {
  const latest = hr.status?.history?.[0];
  if (!latest) return undefined;
  const same =
    latest.name === want.release && latest.namespace === want.namespace && latest.chartName === want.chartName;
  return same ? undefined : latest;
}

/** Uninstalls the release `previous` names (when still there) and says why in an event. */
export async function uninstallPrevious(
  target: Cluster,
  hr: HelmRelease,
  previous: ReleaseSnapshot,
  want: ReleaseTarget,
  events: EventRecorder,
): Promise<void> {
  const last = await new ReleaseStorage(target.client, previous.namespace).last(previous.name);
  if (!last || last.info.status === "uninstalled") return;
  await uninstallRelease(
    hr,
    { release: previous.name, namespace: previous.namespace, asUser: target.client.impersonate?.user },
    target.client.endpoint,
  );
  const from = `${previous.namespace}/${previous.name} (chart ${previous.chartName})`;
  const to = `${want.namespace}/${want.release} (chart ${want.chartName})`;
  await events.record(
    hr,
    "Normal",
    "UninstallSucceeded",
    `Helm uninstall for release ${previous.namespace}/${previous.name} succeeded: the release target changed from ${from} to ${to}`,
  );
}
