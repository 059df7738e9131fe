// The HelmRelease as one ReleaseRun sees it: a copy of the object whose status and conditions each
// decision reads and each act writes, so the next decision sees the last act. Status is filled from
// helm's storage (history, inventory), and the run's events carry the chart's revision annotations,
// as helm-controller's do.
import type { HelmRelease, HelmReleaseStatus } from "../../api/helm/helmrelease.js";
import type { Condition } from "../../api/meta/conditions.js";
import type { Cluster } from "../../kube/cluster.js";
import { removeCondition, setCondition } from "../../runtime/conditions.js";
import type { EventRecorder } from "../../runtime/events.js";
import type { ActionOutcome } from "./actions/release-action.js";
import { clusterScopeOf } from "./inventory-scope.js";
import { historyOf, inventoryOf, ociDigestOf } from "./release-status.js";
import type { StoredRelease } from "./storage/release.js";

const GROUP = "helm.toolkit.fluxcd.io";

export class WorkingRelease {
  readonly hr: HelmRelease;
  conditions: Condition[];

  constructor(
    hr: HelmRelease,
    private readonly events: EventRecorder,
    /** Where the release lives: its cluster and storage namespace. */
    private readonly target: Cluster,
    private readonly namespace: string,
    /** The chart version being released, for events before any release exists. */
    private readonly chartVersion: string,
  ) {
    this.hr = { ...hr, status: { ...hr.status } };
    this.conditions = [...(hr.status?.conditions ?? [])];
  }

  /** The status so far, without its conditions (they travel on their own). */
  get status(): HelmReleaseStatus {
    const { conditions: _, ...rest } = this.hr.status!;
    return rest;
  }

  set(c: Omit<Condition, "lastTransitionTime">) {
    this.conditions = setCondition(this.conditions, { ...c, observedGeneration: this.hr.metadata.generation });
  }

  drop(type: string) {
    this.conditions = removeCondition(this.conditions, type);
  }

  /** Status from helm's storage: the history, the storage namespace, a deployed release's inventory. */
  async record(stored: StoredRelease[], last: StoredRelease | undefined) {
    const s = this.hr.status!;
    s.history = historyOf(this.hr, stored);
    s.storageNamespace = this.namespace;
    if (last && last.info.status === "deployed")
      s.inventory = inventoryOf(last, await clusterScopeOf(this.target, last));
  }

  /** An event annotated with the revision, app version and OCI digest of `r` (else of the chart being released). */
  async event(type: "Normal" | "Warning", reason: string, message: string, r: StoredRelease | undefined) {
    const ociDigest = r ? ociDigestOf(this.hr, r) : this.hr.status?.lastAttemptedRevisionDigest;
    await this.events.record(this.hr, type, reason, message, {
      [`${GROUP}/revision`]: r?.chart.metadata.version ?? this.chartVersion,
      ...(r?.chart.metadata.appVersion ? { [`${GROUP}/app-version`]: r.chart.metadata.appVersion } : {}),
      ...(ociDigest ? { [`${GROUP}/oci-digest`]: ociDigest } : {}),
    });
  }

  /** Applies an action's outcome: the condition, the conditions it clears, the event. */
  async apply(o: ActionOutcome, r: StoredRelease | undefined) {
    this.set(o.condition);
    for (const type of o.drop) this.drop(type);
    await this.event(o.event.type, o.event.reason, o.event.message, r);
  }
}
