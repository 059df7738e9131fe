// One reconcile's release work on the target: decide from storage (release-state.ts), act with helm
// (actions/), re-read storage, decide again — helm-controller's AtomicRelease loop — until in sync, an
// action fails for good, or a remediation ran (then the reconcile ends not Ready and is retried).
// Status and conditions are built on a working copy of the object (working-release.ts), so each decision
// sees the last act.
import type { HelmRelease, HelmReleaseStatus } from "../../api/helm/helmrelease.js";
import type { Condition } from "../../api/meta/conditions.js";
import type { Cluster } from "../../kube/cluster.js";
import type { ExpressionHealth } from "../../ssa/index.js";
import type { EventRecorder } from "../../runtime/events.js";
import { ReconcileFailure } from "../kit/failure.js";
import { targetHints } from "../kit/target-cluster.js";
import { applyChartCrds, crdPolicy } from "./crds/chart-crds.js";
import {
  correctReleaseDrift,
  detectReleaseDrift,
  driftedCondition,
  driftMessage,
  driftMode,
} from "./actions/drift-correction.js";
import { helmStepFor } from "./actions/helm-steps.js";
import type { HelmStep } from "./actions/release-action.js";
import { type HelmRunner, runAction } from "./actions/run-action.js";
import { unlockRelease } from "./actions/unlock.js";
import type { LoadedChart } from "./loaded-chart.js";
import type { DriftReport } from "./drift/drift.js";
import {
  actionForState,
  type Desired,
  determineReleaseState,
  forceRequested,
  latestSnapshot,
} from "./release-state.js";
import { settledReady } from "./release-status.js";
import { observationDigest, ReleaseStorage, type StoredRelease } from "./storage/release.js";
import type { ComposedValues } from "./values/compose.js";
import { commonMetadataDigest, postRenderersDigest } from "./post-render/post-renderer.js";
import { WorkingRelease } from "./working-release.js";
import { pollerWait } from "./health-exprs.js";

const MAX_STEPS = 10;

export interface RunInput {
  hr: HelmRelease;
  target: Cluster;
  release: string;
  namespace: string;
  chart: LoadedChart;
  values: ComposedValues;
  /** spec.healthCheckExprs compiled, for the poller's wait (health-exprs.ts). */
  expressions?: ExpressionHealth;
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
  private readonly working: WorkingRelease;
  private readonly storage: ReleaseStorage;
  /** What the release must match, digests computed once per reconcile. */
  private readonly desired: Desired;

  constructor(
    private readonly input: RunInput,
    private readonly events: EventRecorder,
    /** How helm runs: the real one, or a test's fake. */
    private readonly helm: HelmRunner = runAction,
  ) {
    this.working = new WorkingRelease(input.hr, events, input.target, input.namespace, input.chart.version);
    this.hr = this.working.hr;
    this.storage = new ReleaseStorage(input.target.client, input.namespace);
    this.desired = {
      chartName: input.chart.name,
      chartVersion: input.chart.version,
      valuesDigest: input.values.digest,
      postRenderersDigest: postRenderersDigest(this.hr),
      commonMetadataDigest: commonMetadataDigest(this.hr),
    };
  }

  /** The status the run got to, without its conditions. */
  get status(): HelmReleaseStatus {
    return this.working.status;
  }

  /** The conditions the run got to. */
  get conditions(): Condition[] {
    return this.working.conditions;
  }

  async run(): Promise<RunResult> {
    const { hr, input, desired } = this;
    let lastFailure: ReconcileFailure | undefined;
    // Storage as the last act left it (act re-reads it right after helm): the next decision starts from
    // that read instead of listing and decoding the release Secrets a second time.
    let afterAct: StoredRelease[] | undefined;
    // Objects helm has just created from this very manifest have nothing to drift from: no drift check
    // in the turns after a successful install (the next reconcile and the drift watch look again).
    let installedNow = false;
    for (let turn = 0; turn < MAX_STEPS; turn++) {
      const stored = afterAct ?? (await this.storage.history(input.release));
      afterAct = undefined;
      const last = stored.at(-1);
      // Verified as helm-controller's verify.go does: the latest snapshot's OCI digest is part of what it hashed.
      const lastDigest = last && observationDigest(last, latestSnapshot(hr)?.ociDigest);
      let state = determineReleaseState(hr, last, lastDigest, desired);
      let drift: DriftReport | undefined;
      const force = forceRequested(hr);
      // A forced upgrade rewrites every object anyway: no drift check before it.
      if (state.status === "InSync" && !force && !installedNow && driftMode(hr) !== "disabled") {
        drift = await detectReleaseDrift(hr, input.target.client, last!, input.namespace);
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
      if (action.kind === "unlock") {
        const { reason, message } = await unlockRelease(this.storage, last!);
        await this.events.record(hr, "Normal", reason, message);
        continue;
      }
      const step = helmStepFor(action);
      const { failure, stored: now } = await this.act(step);
      afterAct = now;
      if (failure) lastFailure = failure;
      else if (step.command === "install") installedNow = true;
      // A remediation ends the reconcile not Ready: the failure it remediated is the outcome, retried later.
      if (step.remediates) throw lastFailure ?? new ReconcileFailure("ReconciliationFailed", "release remediated");
    }
    throw new ReconcileFailure("ReconciliationFailed", `release ${input.namespace}/${input.release} did not settle`);
  }

  /** In sync: status from storage, Ready as the last release action left it, drift noted. */
  private async settled(
    stored: StoredRelease[],
    last: StoredRelease,
    drift: DriftReport | undefined,
  ): Promise<RunResult> {
    const w = this.working;
    await w.record(stored, last);
    const s = this.hr.status!;
    s.observedPostRenderersDigest = this.desired.postRenderersDigest;
    s.observedCommonMetadataDigest = this.desired.commonMetadataDigest;
    const drifted = driftedCondition(this.hr, last, drift);
    if (!drifted) w.drop("Drifted");
    else w.set(drifted);
    const released = w.conditions.some((c) => c.type === "Released" && c.status === "True");
    const ready = settledReady(w.conditions, last);
    if (!released) w.set({ type: "Released", status: "True", reason: ready.reason, message: ready.message });
    w.drop("Remediated");
    return { status: w.status, conditions: w.conditions, reason: ready.reason, message: ready.message };
  }

  private async correct(stored: StoredRelease[], last: StoredRelease, drift: DriftReport): Promise<RunResult> {
    await this.working.event("Warning", "DriftDetected", driftMessage(last, drift), last);
    const corrected = await correctReleaseDrift(this.input.target.client, last, drift);
    await this.working.event("Normal", "DriftCorrected", corrected, last);
    const result = await this.settled(stored, last, undefined);
    this.working.set({ type: "Drifted", status: "False", reason: "NoDriftDetected", message: corrected });
    return { ...result, conditions: this.working.conditions };
  }

  /** Runs one helm action; returns storage after it, and its failure (already in conditions and counters), if any. */
  private async act(step: HelmStep): Promise<{ failure?: ReconcileFailure; stored: StoredRelease[] }> {
    const { input, hr } = this;
    const s = hr.status!;
    if (step.releases) s.lastAttemptedReleaseAction = step.releases;
    const started = Date.now();
    await input.progressing(step.progress(hr), this.working.conditions);
    let error: Error | undefined;
    try {
      if (step.releases) await applyChartCrds(input.target, input.chart.path, crdPolicy(hr, step.releases));
      const target = {
        release: input.release,
        namespace: input.namespace,
        asUser: input.target.client.impersonate?.user,
      };
      const args = { hr, target, chart: input.chart.path, values: input.values.values };
      await this.helm(
        { command: step.command, args: (home) => step.args(args, home) },
        {
          hr,
          endpoint: input.target.client.endpoint,
          waitFor: pollerWait(input.target, input.expressions),
        },
      );
    } catch (err) {
      error = err as Error;
    }
    if (step.releases) s.lastAttemptedReleaseActionDuration = `${((Date.now() - started) / 1000).toFixed(3)}s`;
    const stored = await this.storage.history(input.release);
    const now = stored.at(-1);
    await this.working.record(stored, now);
    const ctx = {
      where: `release ${input.namespace}/${input.release}`,
      chart: `${input.chart.name}@${input.chart.version}`,
      r: now,
      testHooks: Object.keys(s.history?.[0]?.testHooks ?? {}).length,
      hint: error ? targetHints(hr, input.defaultServiceAccount, error) : "",
    };
    const outcome = error ? step.failed(error, ctx, s) : step.succeeded(ctx);
    await this.working.apply(outcome, now);
    return { failure: error && new ReconcileFailure(outcome.event.reason, outcome.event.message), stored };
  }
}
