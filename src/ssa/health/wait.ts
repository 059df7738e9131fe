// Waiting for a set of objects to become healthy. Unlike Flux, the timeout error says *why* each
// object is not ready — including, for workloads, what their pods are stuck on (image pulls, crash
// loops), which kstatus alone never reports.
import { setTimeout as sleep } from "node:timers/promises";
import type { Cluster, ObjectRef } from "../../kube/cluster.js";
import { objectId } from "../../kube/object.js";
import type { KubeObject } from "../../api/meta/object.js";
import { HealthCheckError } from "../errors.js";
import { type ExpressionHealth, HealthExpressionCostError } from "./expressions.js";
import { computeHealth, type Health, podProblems } from "./status.js";
import { ChangeNotices } from "./change-notices.js";

export interface WaitOptions {
  timeoutMs: number;
  intervalMs?: number;
  /** Stop as soon as an object is Failed instead of waiting for the timeout. */
  failFast?: boolean;
  /** Health by CEL expressions for the kinds they cover (expressions.ts), kstatus for the rest. */
  expressions?: ExpressionHealth;
  /**
   * Jobs (`namespace/name`) with spec.ttlSecondsAfterFinished: the TTL controller deletes them once
   * finished, so not found counts as Current (fluxcd/pkg/ssa WaitOptions.JobsWithTTL).
   */
  jobsWithTtl?: ReadonlySet<string>;
  /**
   * Read an object again as soon as a shared watch of its kind says it changed (change-hub.ts), not only
   * on the poll schedule: the wait ends within a read of the object's last change (decision 0055).
   */
  watchChanges?: boolean;
  /** Stops the wait (its caller gave up, e.g. a helm action cancelled): the wait rejects with an AbortError. */
  signal?: AbortSignal;
}

const WORKLOADS = new Set(["Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job"]);

async function healthOf(cluster: Cluster, ref: ObjectRef, expressions?: ExpressionHealth): Promise<Health> {
  try {
    const live = await cluster.get(ref);
    // Deletion and absence are judged the same whatever the expressions say.
    if (!live || live.metadata.deletionTimestamp || !expressions) return computeHealth(live);
    return expressions(live) ?? computeHealth(live);
  } catch (err) {
    // Too costly to judge is a failure now, not a status to poll again until the timeout.
    if (err instanceof HealthExpressionCostError) throw err;
    return { status: "Unknown", message: (err as Error).message };
  }
}

/** What the pods of a workload are stuck on, e.g. `pod web-5d8-x: container web waiting: ImagePullBackOff`. */
async function podReasons(cluster: Cluster, ref: ObjectRef): Promise<string[]> {
  if (!WORKLOADS.has(ref.kind) || !ref.metadata.namespace) return [];
  const live = (await cluster.get(ref).catch(() => undefined)) as
    (KubeObject & { spec?: { selector?: { matchLabels?: Record<string, string> } } }) | undefined;
  const labels = live?.spec?.selector?.matchLabels;
  if (!labels) return [];
  const selector = Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(",");
  const pods = await cluster
    .list({ group: "", version: "v1", kind: "Pod" }, ref.metadata.namespace, { labelSelector: selector })
    .catch(() => []);
  return pods.flatMap((p) => podProblems(p).map((problem) => `pod ${p.metadata.name}: ${problem}`));
}

const TTL_GONE: Health = { status: "Current", message: "Job removed by ttlSecondsAfterFinished" };
const ttlJobGone = (r: ObjectRef, h: Health, ttl?: ReadonlySet<string>) =>
  h.status === "NotFound" &&
  r.kind === "Job" &&
  r.apiVersion.startsWith("batch/") &&
  !!ttl?.has(`${r.metadata.namespace ?? ""}/${r.metadata.name}`);

/** The first read again after the first poll; each next one waits twice as long, up to the interval. */
export const FIRST_REPOLL_MS = 100;

/**
 * The delays between polls: 100 ms, 200 ms, 400 ms, ... up to `intervalMs`, then `intervalMs`. Objects
 * just applied are mostly Current within a few hundred milliseconds (a Deployment's observedGeneration,
 * a Job's start): a fixed 2 s period made every wait at least 2 s, which bounded a fleet's HelmReleases
 * (decision 0055). A slow object costs a few more reads in its first seconds, then the interval as before.
 */
export function* pollDelays(intervalMs: number): Generator<number, never> {
  let delay = Math.min(FIRST_REPOLL_MS, intervalMs);
  for (;;) {
    yield delay;
    delay = Math.min(delay * 2, intervalMs);
  }
}

export async function waitForSet(cluster: Cluster, refs: ObjectRef[], options: WaitOptions): Promise<void> {
  if (refs.length === 0) return;
  const intervalMs = options.intervalMs ?? 2000;
  const delays = pollDelays(intervalMs);
  const deadline = Date.now() + options.timeoutMs;
  const last = new Map<ObjectRef, Health>();
  const readAt = new Map<ObjectRef, number>();
  // Watches start only when the first read leaves something to wait for (most waits end there); their
  // first list tells every waiter to read again, so a change between that read and the watch is not lost.
  let changes: ChangeNotices | undefined;
  try {
    let toRead = refs;
    let scheduled = 0; // when every object not known Current is read again
    for (;;) {
      options.signal?.throwIfAborted();
      // A read that fails (a dropped connection under load) keeps the last known status.
      const polled = await Promise.all(
        toRead.map(async (r) => [r, await healthOf(cluster, r, options.expressions)] as const),
      );
      for (const [r, h] of polled) {
        readAt.set(r, Date.now());
        last.set(
          r,
          h.status === "Unknown" && last.has(r) ? last.get(r)! : ttlJobGone(r, h, options.jobsWithTtl) ? TTL_GONE : h,
        );
      }
      const statuses = [...last.values()].map((h) => h.status);
      if (statuses.every((s) => s === "Current")) return;
      const anyFailed = statuses.includes("Failed");
      if ((options.failFast && anyFailed) || Date.now() >= deadline) break;
      if (options.watchChanges && !changes) changes = new ChangeNotices(cluster, refs, options.signal);
      if (Date.now() >= scheduled) scheduled = Date.now() + delays.next().value;
      const until = Math.max(0, Math.min(scheduled, deadline) - Date.now());
      if (!changes) {
        await sleep(until, undefined, { signal: options.signal });
        continue;
      }
      // Watched objects are read again when they change, and — not Current — on the schedule once an interval
      // has passed since their last read (a watch that lags); unwatched ones on every scheduled poll (0055).
      const notices = changes;
      const changed = (await notices.next(until)) ?? [];
      const now = Date.now();
      const due = now >= scheduled || now >= deadline;
      const stale = (r: ObjectRef) => now >= deadline || now - (readAt.get(r) ?? 0) >= intervalMs;
      const pending = due
        ? refs.filter((r) => !notices.watched(r) || (last.get(r)?.status !== "Current" && stale(r)))
        : [];
      toRead = [...new Set([...changed, ...pending])];
    }
  } finally {
    changes?.close();
  }
  const notReady = await Promise.all(
    [...last.entries()]
      .filter(([, h]) => h.status !== "Current")
      .map(async ([ref, h]) => {
        const reasons = await podReasons(cluster, ref);
        const message = [h.message, ...reasons].join("; ");
        return { subject: objectId(ref), status: h.status, message };
      }),
  );
  notReady.sort((a, b) => a.subject.localeCompare(b.subject));
  const list = notReady.map((n) => `${n.subject} status: '${n.status}': ${n.message}`).join(", ");
  const timedOut = Date.now() >= deadline;
  throw new HealthCheckError(
    timedOut ? `timeout waiting for: [${list}]` : `failed early due to stalled resources: [${list}]`,
    notReady,
  );
}
