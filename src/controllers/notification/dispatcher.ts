// The one notification dispatcher of the controller process. Every controller's recorded event (and
// every event Flux controllers post to the event server) is handed over with submit(), which only
// queues: matching, Secret reads and delivery run later, so a slow or dead provider never delays a
// reconcile. Identical events within the rate-limit interval are dropped (Flux's rule); each Provider
// has its own delivery queue (a few in flight, bounded length), so one dead provider does not hold up
// another's events. Failures are Warning events on the Alert (Flux's NotificationDispatchFailed) and
// the Provider's status (status.ts), with no Secret value in either; each delivery is a Normal
// NotificationDelivered event on the Alert, both annotated with what was notified (delivery-record.ts)
// so the dashboard shows an app's last notifications without a store of its own.
import type { KubeObject } from "../../api/meta/object.js";
import type { Alert } from "../../api/notification/alert.js";
import { COMMIT_STATUS_TYPES, type Provider } from "../../api/notification/provider.js";
import { NOTIFICATION_GROUP } from "../../api/kinds.js";
import type { KubeClient } from "../../kube/client.js";
import type { EventRecorder } from "../../runtime/events.js";
import { EVENT_GROUP, groupOf, type FluxEvent } from "../../runtime/flux-event.js";
import type { Logger } from "../../runtime/logger.js";
import {
  cleanupMetadata,
  combineMetadata,
  duplicateKey,
  matchesSource,
  messageAllowed,
  needsLabels,
  type RegexProblem,
} from "./alert-match.js";
import { deliveredMessage, deliveryMetadata, DELIVERED_REASON, DISPATCH_FAILED_REASON } from "./delivery-record.js";
import { NotificationError, ProviderInvalid } from "./errors.js";
import { resolveProvider } from "./provider-config.js";
import { DuplicateLimiter } from "./rate-limit.js";
import { send } from "./send.js";

export interface DispatcherOptions {
  client: KubeClient;
  events: EventRecorder;
  log: Logger;
  /** The Alerts and Providers as the controllers' informers hold them. */
  alerts: () => Alert[];
  provider: (namespace: string, name: string) => Provider | undefined;
  /** Reads the involved object's labels when an Alert's source has matchLabels and the object is not at hand. */
  labelsOf: (event: FluxEvent) => Promise<Record<string, string> | undefined>;
  /** --rate-limit-interval (default 5m). */
  rateLimitIntervalMs?: number;
  /** --no-cross-namespace-refs: an Alert takes events from its own namespace only. */
  noCrossNamespaceRefs?: boolean;
  /** The outcome of each delivery attempt, for the Provider's status. */
  onDelivery?: (provider: Provider, error: string | undefined) => void;
  /** Deliveries in flight per Provider, and how many may wait. */
  perProviderConcurrency?: number;
  perProviderQueue?: number;
}

interface Delivery {
  run: () => Promise<void>;
}

export class NotificationDispatcher {
  private readonly limiter: DuplicateLimiter;
  private readonly intake: Array<{ event: FluxEvent; obj?: KubeObject }> = [];
  private readonly queues = new Map<string, { waiting: Delivery[]; running: number }>();
  private draining = false;
  private pending = 0;
  private idleWaiters: Array<() => void> = [];
  private readonly stopping = new AbortController();
  readonly stats = { submitted: 0, rateLimited: 0, delivered: 0, failed: 0, dropped: 0 };

  constructor(private readonly o: DispatcherOptions) {
    this.limiter = new DuplicateLimiter(o.rateLimitIntervalMs ?? 5 * 60_000);
  }

  /** Queues an event; returns at once. The object, when given, spares a read for matchLabels. */
  submit(raw: FluxEvent, obj?: KubeObject): boolean {
    if (this.stopping.signal.aborted) return false;
    // The dispatcher's own Warning events on Alerts and Providers are not alerted on (Flux's are not
    // posted to itself either).
    if (groupOf(raw.involvedObject) === NOTIFICATION_GROUP) return false;
    const event = cleanupMetadata(raw);
    if (!this.limiter.take(duplicateKey(event))) {
      this.stats.rateLimited++;
      return false;
    }
    this.stats.submitted++;
    this.intake.push({ event, obj });
    this.pending++;
    if (!this.draining) {
      this.draining = true;
      setImmediate(() => void this.drain());
    }
    return true;
  }

  /**
   * Stops: new events are ignored, waiting deliveries dropped, sends in flight aborted, so a provider
   * that never answers cannot keep the process from exiting.
   */
  stop(): void {
    this.stopping.abort(new Error("the controller is stopping"));
    this.intake.length = 0;
    for (const q of this.queues.values()) q.waiting.length = 0;
  }

  /** Resolves when nothing is queued or in flight (tests, shutdown). */
  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  private done() {
    if (--this.pending === 0) for (const w of this.idleWaiters.splice(0)) w();
  }

  private async drain() {
    while (this.intake.length) {
      const { event, obj } = this.intake.shift()!;
      try {
        await this.route(event, obj);
      } catch (err) {
        this.o.log.error("failed to route an event to its alerts", { error: (err as Error).message });
      } finally {
        this.done();
      }
    }
    this.draining = false;
  }

  private async route(event: FluxEvent, obj?: KubeObject) {
    let labels: Record<string, string> | undefined = obj?.metadata.labels ?? (obj ? {} : undefined);
    const matched: Alert[] = [];
    for (const alert of this.o.alerts()) {
      if (alert.spec.suspend) continue;
      if (needsLabels(alert) && labels === undefined) labels = (await this.o.labelsOf(event)) ?? {};
      if (!alert.spec.eventSources.some((s) => matchesSource(event, alert, s, labels))) continue;
      const problems: RegexProblem[] = [];
      const allowed = messageAllowed(alert, event.message, problems);
      for (const p of problems)
        await this.o.events.record(
          alert,
          "Warning",
          "InvalidConfig",
          `failed to compile ${p.list} regex: ${p.expression}`,
        );
      if (allowed) matched.push(alert);
    }
    for (const alert of matched) {
      try {
        await this.dispatch(event, alert);
      } catch (err) {
        const message = err instanceof NotificationError ? err.message : (err as Error).message;
        this.o.log.error("failed to dispatch notification", {
          alert: `${alert.metadata.namespace}/${alert.metadata.name}`,
          error: message,
        });
        const { annotations, labels } = deliveryMetadata(event, alert.spec.providerRef.name);
        await this.o.events.record(
          alert,
          "Warning",
          DISPATCH_FAILED_REASON,
          `failed to dispatch notification for ${ref(event)}: ${message}`,
          annotations,
          labels,
        );
      }
    }
  }

  private async dispatch(event: FluxEvent, alert: Alert) {
    const ns = alert.metadata.namespace!;
    if (this.o.noCrossNamespaceRefs && event.involvedObject.namespace !== ns)
      throw new NotificationError(
        `discarding event, access denied to cross-namespace sources: alert '${ns}/${alert.metadata.name}' can't process event from '${ref(event)}', cross-namespace references have been blocked`,
      );
    const provider = this.o.provider(ns, alert.spec.providerRef.name);
    if (!provider)
      throw new NotificationError(`failed to read provider: Provider '${ns}/${alert.spec.providerRef.name}' not found`);
    if (provider.spec.suspend) return;
    // Flux's commit-status routing: the marker is keyed with the object's group; a forge takes only
    // events marked so, events carrying a commit, and failures.
    const commitStatusUpdate = event.metadata?.[`${groupOf(event.involvedObject)}/commit_status`] === "update";
    const isForge = COMMIT_STATUS_TYPES.includes(provider.spec.type);
    if (!isForge && !provider.spec.type.startsWith("generic") && commitStatusUpdate) return;
    if (isForge && !commitStatusUpdate && !event.metadata?.[`${EVENT_GROUP}/commit`] && event.severity !== "error")
      return;
    let resolved;
    let request;
    try {
      resolved = await resolveProvider(this.o.client, provider);
      request = resolved.build(combineMetadata(event, alert), resolved.settings);
    } catch (err) {
      if (err instanceof ProviderInvalid) this.o.onDelivery?.(provider, err.message);
      throw err;
    }
    if (!request) return;
    const { annotations, labels } = deliveryMetadata(event, provider.metadata.name);
    this.enqueue(provider, {
      run: async () => {
        try {
          if (this.stopping.signal.aborted) return;
          await send(request!, { ...resolved.send, signal: this.stopping.signal });
          this.stats.delivered++;
          this.o.onDelivery?.(provider, undefined);
          const message = deliveredMessage(event, provider.metadata.name);
          await this.o.events.record(alert, "Normal", DELIVERED_REASON, message, annotations, labels);
        } catch (err) {
          if (this.stopping.signal.aborted) return;
          this.stats.failed++;
          const message = (err as Error).message;
          this.o.log.error("failed to send notification", {
            provider: `${ns}/${provider.metadata.name}`,
            error: message,
          });
          this.o.onDelivery?.(provider, message);
          await this.o.events.record(
            alert,
            "Warning",
            DISPATCH_FAILED_REASON,
            `failed to send notification for ${ref(event)}: ${message}`,
            annotations,
            labels,
          );
        }
      },
    });
  }

  private enqueue(provider: Provider, d: Delivery) {
    const key = `${provider.metadata.namespace}/${provider.metadata.name}`;
    let q = this.queues.get(key);
    if (!q) this.queues.set(key, (q = { waiting: [], running: 0 }));
    const max = this.o.perProviderQueue ?? 1000;
    if (q.waiting.length >= max) {
      q.waiting.shift();
      this.stats.dropped++;
      this.o.log.error("notification queue full: dropped the oldest waiting notification", { provider: key });
    } else this.pending++;
    q.waiting.push(d);
    this.pump(key, q);
  }

  private pump(key: string, q: { waiting: Delivery[]; running: number }) {
    while (q.running < (this.o.perProviderConcurrency ?? 4) && q.waiting.length) {
      const d = q.waiting.shift()!;
      q.running++;
      void d.run().finally(() => {
        q.running--;
        this.done();
        this.pump(key, q);
      });
    }
  }
}

const ref = (e: FluxEvent) => `${e.involvedObject.kind}/${e.involvedObject.namespace}/${e.involvedObject.name}`;
