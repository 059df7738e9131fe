// Alerts and Providers as the manager runs them: two small controllers whose informers are what the
// dispatcher matches events against (no API call per event), and whose reconciles keep Ready on each
// (status.ts). Notifications.start() then makes the one dispatcher, hands it every recorded event
// (the EventRecorder's sink) and, with --events-addr, serves Flux's event endpoint.
import { gvkOf, SERVED_KINDS } from "../../api/kinds.js";
import type { KubeObject } from "../../api/meta/object.js";
import type { Alert } from "../../api/notification/alert.js";
import type { Provider } from "../../api/notification/provider.js";
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import { NotFoundError } from "../../kube/errors.js";
import type { Controller, Reconciler } from "../../runtime/controller.js";
import type { EventRecorder } from "../../runtime/events.js";
import type { FluxEvent } from "../../runtime/flux-event.js";
import type { Logger } from "../../runtime/logger.js";
import type { ControllerDeps, ControllerSetup } from "../kit/setup.js";
import { regexProblems } from "./alert-match.js";
import { NotificationDispatcher } from "./dispatcher.js";
import { ProviderInvalid } from "./errors.js";
import { startEventServer, type RunningEventServer } from "./event-server.js";
import { resolveProvider } from "./provider-config.js";
import { writeReady } from "./status.js";

const RECHECK_MS = 10 * 60_000;
const PROVIDER_REF_INDEX = "providerRef";

export interface NotificationOptions {
  cluster: Cluster;
  events: EventRecorder;
  log: Logger;
  /** --events-addr; undefined: no endpoint. */
  eventsAddress?: { host: string; port: number };
  rateLimitIntervalMs?: number;
  noCrossNamespaceRefs?: boolean;
}

export class Notifications {
  /** The last delivery failure per Provider (namespace/name), cleared by a success. */
  private readonly failures = new Map<string, string>();
  private server?: RunningEventServer;
  private alerts?: Controller;
  private providers?: Controller;
  dispatcher?: NotificationDispatcher;

  readonly alertController: ControllerSetup<Pick<ControllerDeps, "cluster">> = {
    name: "alert",
    kind: gvkOf(SERVED_KINDS.Alert),
    indexes: {
      [PROVIDER_REF_INDEX]: (o) => [`${o.metadata.namespace}/${(o as Alert).spec?.providerRef?.name}`],
    },
    watches: [
      {
        kind: gvkOf(SERVED_KINDS.Provider),
        map: (p, controller) =>
          controller.informer
            .byIndex(PROVIDER_REF_INDEX, `${p.metadata.namespace}/${p.metadata.name}`)
            .map((a) => `${a.metadata.namespace}/${a.metadata.name}`),
      },
    ],
    connect: (controller) => {
      this.alerts = controller;
    },
    reconciler: ({ cluster }): Reconciler => ({
      reconcile: async (req) => {
        const alert = await getOrGone<Alert>(cluster, pathOf(SERVED_KINDS.Alert, req.namespace, req.name));
        if (!alert) return;
        const providerName = alert.spec.providerRef.name;
        const provider = await getOrGone(cluster, pathOf(SERVED_KINDS.Provider, req.namespace, providerName));
        const problems = regexProblems(alert);
        const state = !provider
          ? {
              ready: false,
              reason: "ProviderNotFound",
              message: `Provider '${req.namespace}/${providerName}' not found`,
            }
          : problems.length
            ? {
                ready: false,
                reason: "InvalidConfig",
                message: problems.map((p) => `failed to compile ${p.list} regex: ${p.expression}`).join("; "),
              }
            : { ready: true, reason: "Succeeded", message: "Alert is Ready" };
        await writeReady(cluster.client, SERVED_KINDS.Alert, alert, state);
        return { requeueAfterMs: RECHECK_MS };
      },
    }),
  };

  readonly providerController: ControllerSetup<Pick<ControllerDeps, "cluster">> = {
    name: "provider",
    kind: gvkOf(SERVED_KINDS.Provider),
    reconciler: ({ cluster }): Reconciler => ({
      reconcile: async (req) => {
        const provider = await getOrGone<Provider>(cluster, pathOf(SERVED_KINDS.Provider, req.namespace, req.name));
        if (!provider) return;
        await writeReady(cluster.client, SERVED_KINDS.Provider, provider, await this.providerState(cluster, provider));
        return { requeueAfterMs: RECHECK_MS };
      },
    }),
    connect: (controller) => {
      this.providers = controller;
    },
  };

  private async providerState(cluster: Cluster, provider: Provider) {
    try {
      await resolveProvider(cluster.client, provider);
    } catch (err) {
      if (err instanceof ProviderInvalid) return { ready: false, reason: err.reason, message: err.message };
      return { ready: false, reason: "ValidationFailed", message: (err as Error).message };
    }
    const failure = this.failures.get(`${provider.metadata.namespace}/${provider.metadata.name}`);
    if (failure) return { ready: false, reason: "DeliveryFailed", message: failure };
    return { ready: true, reason: "Succeeded", message: "Provider is Ready" };
  }

  async start(o: NotificationOptions): Promise<void> {
    const alerts = this.alerts;
    const providers = this.providers;
    if (!alerts || !providers)
      throw new Error("the Alert and Provider controllers must run before notifications start");
    const dispatcher = new NotificationDispatcher({
      client: o.cluster.client,
      events: o.events,
      log: o.log.with({ controller: "notification-dispatcher" }),
      alerts: () => alerts.informer.list() as Alert[],
      provider: (ns, name) => providers.informer.get(name, ns) as Provider | undefined,
      labelsOf: (e) => labelsOf(o.cluster, e),
      rateLimitIntervalMs: o.rateLimitIntervalMs,
      noCrossNamespaceRefs: o.noCrossNamespaceRefs,
      onDelivery: (p, error) => {
        const key = `${p.metadata.namespace}/${p.metadata.name}`;
        const had = this.failures.get(key);
        if (error) this.failures.set(key, error);
        else this.failures.delete(key);
        // Only a change is written (a failing provider does not cost a status write per event).
        if (had === error) return;
        void this.providerStatus(o.cluster, p).catch(() => undefined);
        // And told as an Event on the Provider, where `flotilla events --for Provider/<name>` finds it
        // (Flux only logs a failed send); the dispatcher never alerts on its own kinds' events.
        if (error) void o.events.record(p, "Warning", "DeliveryFailed", error);
        else void o.events.record(p, "Normal", "DeliveryRecovered", "notifications are delivered again");
      },
    });
    this.dispatcher = dispatcher;
    o.events.sink = (event, obj) => void dispatcher.submit(event, obj);
    if (o.eventsAddress) {
      this.server = await startEventServer({
        ...o.eventsAddress,
        dispatcher,
        log: o.log.with({ controller: "event-server" }),
      });
      o.log.info("event server listening", { url: this.server.url });
    }
  }

  private async providerStatus(cluster: Cluster, p: Provider) {
    const fresh = await getOrGone<Provider>(
      cluster,
      pathOf(SERVED_KINDS.Provider, p.metadata.namespace, p.metadata.name),
    );
    if (fresh) await writeReady(cluster.client, SERVED_KINDS.Provider, fresh, await this.providerState(cluster, fresh));
  }

  get eventServerUrl() {
    return this.server?.url;
  }

  async stop(): Promise<void> {
    this.dispatcher?.stop();
    await this.server?.close();
  }
}

async function getOrGone<T extends KubeObject>(cluster: Cluster, path: string): Promise<T | undefined> {
  try {
    return await cluster.client.get<T>(path);
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/** The involved object's labels (an event posted by a Flux controller names the object only). */
async function labelsOf(cluster: Cluster, e: FluxEvent): Promise<Record<string, string> | undefined> {
  const o = e.involvedObject;
  if (!o.apiVersion || !o.kind || !o.name) return undefined;
  try {
    const obj = await cluster.get({
      apiVersion: o.apiVersion,
      kind: o.kind,
      metadata: { name: o.name, namespace: o.namespace },
    });
    return obj?.metadata.labels ?? {};
  } catch {
    return undefined;
  }
}
