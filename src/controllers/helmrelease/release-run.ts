// One reconcile's release work on the target: decide from storage (release-state.ts), act with helm
// (actions/), re-read storage, decide again — helm-controller's AtomicRelease loop — until in sync, an
// action fails for good, or a remediation ran (then the reconcile ends not Ready and is retried).
// Status and conditions are built on a working copy of the object, so each decision sees the last act.
import type { HelmRelease, HelmReleaseStatus } from "../../api/helm/helmrelease.js";
import type { Condition } from "../../api/meta/conditions.js";
import type { Cluster } from "../../kube/cluster.js";
import { removeCondition, setCondition } from "../../runtime/conditions.js";
import type { EventRecorder } from "../../runtime/events.js";
import { ReconcileFailure } from "../kit/failure.js";
import { targetHints } from "../kit/target-cluster.js";
import { applyChartCrds, crdPolicy } from "./crds/chart-crds.js";
import { type HelmAction, runAction } from "./actions/run-action.js";
import type { LoadedChart } from "./chart-source.js";
import { correctDrift, detectDrift, type DriftReport } from "./drift/drift.js";
import {
  actionForState,
  type Desired,
  determineReleaseState,
  forceRequested,
  type NextAction,
} from "./release-state.js";
import { historyOf, inventoryOf, releaseId, succeededMessage } from "./release-status.js";
import { type ActionOutcome, driftMessage, failedOutcome, succeededOutcome } from "./action-outcome.js";
import { clusterScopeOf } from "./inventory-scope.js";
import { observationDigest, ReleaseStorage, type StoredRelease } from "./storage/release.js";
import type { ComposedValues } from "./values/compose.js";
import { commonMetadataDigest, postRenderersDigest } from "./post-render/post-renderer.js";
import { objectTimeout } from "../../util/object-timeout.js";

const MAX_STEPS = 10;
const GROUP = "helm.toolkit.fluxcd.io";

/** The timeout the action runs with: spec.timeout, or the --max-object-timeout that caps it (said so). */
function runningTimeout(given: string | undefined): string {
  const t = objectTimeout(given, "5m0s");
  return t.capped ? `${t.text} (${t.capped})` : t.text;
}

export interface RunInput {
  hr: HelmRelease;
  target: Cluster;
  release: string;
  namespace: string;
  chart: LoadedChart;
  values: ComposedValues;
  /** The --default-service-account, for the Forbidden hint. */
  defaultServiceAccount?: string;
  /** Reconciling=True while a helm action runs (written only if it is still running after a moment). */
  progressing: (message: string, conditions: Condition[]) => Promise<void>;
}

export interface RunResult {
  status: HelmReleaseStatus;
  conditions: Condition[];
  reason: string;
  message: string;
}

export class ReleaseRun {
  private readonly hr: HelmRelease;
  conditions: Condition[];
  private readonly storage: ReleaseStorage;
  /** What the release must match, digests computed once per reconcile. */
  private readonly desired: Desired;

  constructor(
    private readonly input: RunInput,
    private readonly events: EventRecorder,
  ) {
    this.hr = { ...input.hr, status: { ...input.hr.status } };
    this.conditions = [...(input.hr.status?.conditions ?? [])];
    this.storage = new ReleaseStorage(input.target.client, input.namespace);
    this.desired = {
      chartName: input.chart.name,
      chartVersion: input.chart.version,
      valuesDigest: input.values.digest,
      postRenderersDigest: postRenderersDigest(this.hr),
      commonMetadataDigest: commonMetadataDigest(this.hr),
    };
  }

  get status(): HelmReleaseStatus {
    const { conditions: _, ...rest } = this.hr.status!;
    return rest;
  }

  private set(c: Omit<Condition, "lastTransitionTime">) {
    this.conditions = setCondition(this.conditions, { ...c, observedGeneration: this.hr.metadata.generation });
  }

  async run(): Promise<RunResult> {
    const { hr, input, desired } = this;
    let lastFailure: ReconcileFailure | undefined;
    for (let step = 0; step < MAX_STEPS; step++) {
      const stored = await this.storage.history(input.release);
      const last = stored.at(-1);
      let state = determineReleaseState(hr, last, last && observationDigest(last), desired);
      let drift: DriftReport | undefined;
      const force = forceRequested(hr);
      // A forced upgrade rewrites every object anyway: no drift check before it.
      if (state.status === "InSync" && !force && this.driftMode() !== "disabled") {
        drift = await detectDrift(input.target.client, last!, this.driftOptions());
        if (drift.entries.length) state = { status: "Drifted", reason: "detected changes in cluster state" };
      }
      const action = actionForState(hr, state, force !== undefined);
      if (force && action.kind !== "none") hr.status!.lastHandledForceAt = force;
      if (action.kind === "none") return this.settled(stored, last!, drift);
      if (action.kind === "stall") {
        const why = lastFailure ? `${lastFailure.message}; ` : "";
        throw new ReconcileFailure(lastFailure?.reason ?? action.reason, `${why}${action.message}`, { stalled: true });
      }
      if (action.kind === "correct-drift") return this.correct(stored, last!, drift!);
      const failure = await this.act(action, last);
      if (failure) lastFailure = failure;
      // A remediation ends the reconcile not Ready: the failure it remediated is the outcome, retried later.
      if (action.kind === "rollback" || action.kind === "uninstall-remediation")
        throw lastFailure ?? new ReconcileFailure("ReconciliationFailed", "release remediated");
    }
    throw new ReconcileFailure("ReconciliationFailed", `release ${input.namespace}/${input.release} did not settle`);
  }

  private driftMode() {
    // flotilla's default when the field is absent: enabled (decision: the guide's "keep it there").
    return this.hr.spec.driftDetection?.mode ?? "enabled";
  }

  private driftOptions() {
    return { ignore: this.hr.spec.driftDetection?.ignore, defaultNamespace: this.input.namespace };
  }

  private async record(stored: StoredRelease[], last: StoredRelease | undefined) {
    const s = this.hr.status!;
    s.history = historyOf(this.hr, stored);
    s.storageNamespace = this.input.namespace;
    if (last && last.info.status === "deployed")
      s.inventory = inventoryOf(last, await clusterScopeOf(this.input.target, last));
  }

  private annotations(r?: StoredRelease) {
    return {
      [`${GROUP}/revision`]: r?.chart.metadata.version ?? this.input.chart.version,
      ...(r?.chart.metadata.appVersion ? { [`${GROUP}/app-version`]: r.chart.metadata.appVersion } : {}),
    };
  }

  /** In sync: status from storage, Ready as the last release action left it, drift noted. */
  private async settled(
    stored: StoredRelease[],
    last: StoredRelease,
    drift: DriftReport | undefined,
  ): Promise<RunResult> {
    await this.record(stored, last);
    const s = this.hr.status!;
    s.observedPostRenderersDigest = this.desired.postRenderersDigest;
    s.observedCommonMetadataDigest = this.desired.commonMetadataDigest;
    if (this.driftMode() === "disabled") this.conditions = removeCondition(this.conditions, "Drifted");
    else if (!drift?.entries.length)
      this.set({ type: "Drifted", status: "False", reason: "NoDriftDetected", message: "No drift detected" });
    else this.set({ type: "Drifted", status: "True", reason: "DriftDetected", message: driftMessage(last, drift) });
    const tested = this.conditions.find((c) => c.type === "TestSuccess" && c.status === "True");
    const released = this.conditions.find((c) => c.type === "Released" && c.status === "True");
    const fallback = { reason: last.version > 1 ? "UpgradeSucceeded" : "InstallSucceeded" };
    const ready = tested ??
      released ?? {
        ...fallback,
        message: succeededMessage(last.version > 1 ? "upgrade" : "install", last),
      };
    if (!released) this.set({ type: "Released", status: "True", reason: ready.reason, message: ready.message });
    this.conditions = removeCondition(this.conditions, "Remediated");
    return { status: this.status, conditions: this.conditions, reason: ready.reason, message: ready.message };
  }

  private async correct(stored: StoredRelease[], last: StoredRelease, drift: DriftReport): Promise<RunResult> {
    const message = driftMessage(last, drift);
    await this.events.record(this.hr, "Warning", "DriftDetected", message, this.annotations(last));
    const fixed = await correctDrift(this.input.target.client, drift);
    const corrected = `Cluster state of release ${releaseId(last)} has been corrected: ${fixed.map((e) => `${e.subject} ${e.action}d`).join(", ")}`;
    await this.events.record(this.hr, "Normal", "DriftCorrected", corrected, this.annotations(last));
    const result = await this.settled(stored, last, undefined);
    this.set({ type: "Drifted", status: "False", reason: "NoDriftDetected", message: corrected });
    return { ...result, conditions: this.conditions };
  }

  /** Runs one helm action; returns its failure (already in conditions and counters), if any. */
  private async act(
    action: Exclude<NextAction, { kind: "none" | "stall" | "correct-drift" }>,
    last: StoredRelease | undefined,
  ): Promise<ReconcileFailure | undefined> {
    const { input, hr } = this;
    const s = hr.status!;
    if (action.kind === "unlock") {
      // unlock() marks `last` failed: name the stale state it was in before.
      const stale = last!.info.status;
      await this.storage.unlock(last!);
      await this.events.record(
        hr,
        "Normal",
        "Unlocked",
        `Release ${releaseId(last!)} unlocked from stale '${stale}' state`,
      );
      return undefined;
    }
    const helm: HelmAction =
      action.kind === "install" || action.kind === "upgrade"
        ? { kind: action.kind, chart: input.chart.path, values: input.values.values }
        : action.kind === "rollback"
          ? { kind: "rollback", toVersion: action.toVersion }
          : action.kind === "uninstall-remediation"
            ? { kind: "uninstall" }
            : { kind: "test" };
    if (action.kind === "install" || action.kind === "upgrade") s.lastAttemptedReleaseAction = action.kind;
    const started = Date.now();
    await input.progressing(
      `Running '${helm.kind}' action with timeout of ${runningTimeout(hr.spec.timeout)}`,
      this.conditions,
    );
    let error: Error | undefined;
    try {
      if (helm.kind === "install" || helm.kind === "upgrade")
        await applyChartCrds(input.target, input.chart.path, crdPolicy(hr, helm.kind));
      await runAction(helm, {
        hr,
        target: { release: input.release, namespace: input.namespace, asUser: input.target.client.impersonate?.user },
        endpoint: input.target.client.endpoint,
      });
    } catch (err) {
      error = err as Error;
    }
    if (action.kind === "install" || action.kind === "upgrade")
      s.lastAttemptedReleaseActionDuration = `${((Date.now() - started) / 1000).toFixed(3)}s`;
    const stored = await this.storage.history(input.release);
    const now = stored.at(-1);
    await this.record(stored, now);
    return error ? this.failed(action.kind, error, now) : this.succeeded(action, now);
  }

  /** Applies an action's outcome: the condition, the conditions it clears, the event. */
  private async apply(o: ActionOutcome, r: StoredRelease | undefined) {
    this.set(o.condition);
    for (const type of o.drop) this.conditions = removeCondition(this.conditions, type);
    await this.events.record(this.hr, o.event.type, o.event.reason, o.event.message, this.annotations(r));
  }

  /** `r` is the newest stored revision: none left after an uninstall remediation. */
  private async succeeded(action: { kind: string }, r: StoredRelease | undefined): Promise<undefined> {
    const hooks = Object.keys(this.hr.status!.history?.[0]?.testHooks ?? {}).length;
    await this.apply(succeededOutcome(action.kind, r, this.input, hooks), r);
    return undefined;
  }

  private async failed(kind: string, err: Error, r: StoredRelease | undefined): Promise<ReconcileFailure> {
    const { input, hr } = this;
    const o = failedOutcome(
      kind,
      err,
      {
        where: `release ${input.namespace}/${input.release}`,
        chart: `${input.chart.name}@${input.chart.version}`,
        hint: targetHints(hr, input.defaultServiceAccount, err),
        r,
      },
      hr.status!,
    );
    await this.apply(o, r);
    return new ReconcileFailure(o.event.reason, o.event.message);
  }
}
