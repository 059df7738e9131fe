// A ResourceSetInputProvider's spec.schedule, as the operator's internal/schedule applies it: a list of
// cron deployment windows `{cron, timeZone (UTC), window (0s)}`. A reconcile runs only when its deadline
// (now + reconcileTimeout) falls inside some window opened by the schedule's previous activation — or
// when any schedule has no window (best effort). A skipped reconcile writes status.nextSchedule and
// waits for it; after a run the next one is the interval unless that falls outside every window or the
// next activation comes first. A non-zero window shorter than twice the timeout is refused.
import { parseDuration } from "../../util/duration.js";
import { type CronSchedule, parseCron } from "./cron.js";

export interface ScheduleSpec {
  cron: string;
  timeZone?: string;
  window?: string;
}
export interface NextSchedule {
  cron: string;
  timeZone?: string;
  window: string;
  when: string;
}

/** Five years back: a schedule may fire only on Feb 29. */
const LOOK_BACK_MS = 5 * 365 * 24 * 3_600_000;

/** Go's time.Duration.String() (ms precision): "0s", "1h0m0s", "1m30s", "1.5s", "250ms". */
export function goDurationString(ms: number): string {
  if (ms === 0) return "0s";
  if (Math.abs(ms) < 1000) return `${ms}ms`;
  const sign = ms < 0 ? "-" : "";
  let rest = Math.abs(ms);
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = `${Number((rest / 1000).toFixed(3))}s`;
  return sign + (h ? `${h}h${m}m${s}` : m ? `${m}m${s}` : s);
}

interface Parsed {
  cron: CronSchedule;
  spec: ScheduleSpec;
  windowMs: number;
}

/** The latest activation strictly before next(now), by the operator's binary search. */
function previous(c: CronSchedule, now: number): number {
  const next = c.next(now);
  const search = (start: number, end: number): number => {
    if (end < start) return 0;
    const middle = start + Math.floor((end - start) / 2);
    const trigger = c.next(middle);
    if (trigger >= next) return search(start, middle - 1);
    return search(trigger, end) || trigger;
  };
  return search(now - LOOK_BACK_MS, next - 1);
}

export class Scheduler {
  private constructor(
    private readonly schedules: Parsed[],
    private readonly timeoutMs: number,
  ) {}

  /** NewScheduler: undefined without schedules; errors name the schedule's index as the operator's do. */
  static of(specs: ScheduleSpec[] | undefined, timeoutMs: number): Scheduler | undefined {
    if (!specs?.length) return undefined;
    const parsed = specs.map((spec, i) => {
      const windowMs = parseDuration(spec.window || "0s");
      if (windowMs > 0 && windowMs < 2 * timeoutMs)
        throw new Error(
          `failed to validate schedule[${i}]: a non-zero window (${goDurationString(windowMs)}) must always be at least twice the timeout (${goDurationString(timeoutMs)})`,
        );
      try {
        return { cron: parseCron(spec.cron, spec.timeZone ?? ""), spec, windowMs };
      } catch (err) {
        const why = (err as Error).message;
        throw new Error(
          spec.timeZone
            ? `failed to validate schedule[${i}]: failed to parse cron spec '${spec.cron}' with timezone '${spec.timeZone}': ${why}`
            : `failed to validate schedule[${i}]: failed to parse cron spec '${spec.cron}': ${why}`,
        );
      }
    });
    return new Scheduler(parsed, timeoutMs);
  }

  private inWindow(p: Parsed, at: number): boolean {
    return at + this.timeoutMs < previous(p.cron, at) + p.windowMs;
  }

  shouldReconcile(now: number): boolean {
    return this.schedules.some((p) => p.windowMs === 0 || this.inWindow(p, now));
  }

  shouldScheduleInterval(nextInterval: number): boolean {
    return this.schedules.some((p) => p.windowMs !== 0 && this.inWindow(p, nextInterval));
  }

  next(now: number): NextSchedule {
    let best: { p: Parsed; when: number } | undefined;
    for (const p of this.schedules) {
      const when = p.cron.next(now);
      if (!best || when < best.when) best = { p, when };
    }
    const { spec, windowMs } = best!.p;
    return {
      cron: spec.cron,
      ...(spec.timeZone ? { timeZone: spec.timeZone } : {}),
      window: goDurationString(windowMs),
      // metav1.Time: RFC 3339 in seconds.
      when: new Date(Math.floor(best!.when / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, "Z"),
    };
  }

  /** requeueAfterResourceSetInputProvider: the wait after a run and the nextSchedule to show, if any. */
  afterRun(end: number, intervalMs: number): { requeueAfterMs: number; nextSchedule?: NextSchedule } {
    const nextInterval = end + intervalMs;
    const next = this.next(end);
    const when = Date.parse(next.when);
    if (!this.shouldScheduleInterval(nextInterval) || when < nextInterval)
      return { requeueAfterMs: Math.max(0, when - end), nextSchedule: next };
    return { requeueAfterMs: intervalMs };
  }
}
