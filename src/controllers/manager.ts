// The controller process: one manager running the source controllers (GitRepository, HelmRepository,
// HelmChart, OCIRepository), the Kustomization, HelmRelease and Receiver controllers with Flux's
// flags. Probes and metrics serve at once; the artifact server, the webhook receiver server and the
// controllers start only once this process leads (Lease), and losing the lease ends the process so a
// healthy replica takes over. Alerts, Providers, Receivers, FluxInstances and FluxReports are kinds Flux
// does not shard: the main process of a sharded install takes them whatever their shard key, and a shard
// (--events-addr=<URL>) runs none of them (process-scope.ts) and posts its events to the main process's
// event endpoint as Flux controllers do (runtime/event-forwarder.ts).
import { hostname } from "node:os";
import { join } from "node:path";
import { setDefaultRateLimit } from "../kube/client.js";
import { Cluster } from "../kube/cluster.js";
import { InformerSyncError } from "../kube/errors.js";
import type { ClusterEndpoint } from "../kube/kubeconfig.js";
import { Controller } from "../runtime/controller.js";
import { EventRecorder } from "../runtime/events.js";
import { LeaderElector, leaderElectionId } from "../runtime/leader-election.js";
import type { Logger } from "../runtime/logger.js";
import { controllerMetrics } from "../runtime/metrics.js";
import { startProbesServer } from "../runtime/probes-server.js";
import { startArtifactServer } from "../sources/artifact/server.js";
import { Storage } from "../sources/artifact/storage.js";
import type { ArtifactLimits } from "../sources/artifact/limits.js";
import { SourceFetcher } from "../sources/consumer.js";
import { gitRepositoryController } from "./gitrepository/setup.js";
import { helmChartController } from "./helmchart/setup.js";
import { helmRepositoryController } from "./helmrepository/setup.js";
import { ociRepositoryController } from "./ocirepository/setup.js";
import { type ControllerDeps, type ControllerSetup, createController } from "./kit/setup.js";
import { kustomizationController } from "./kustomization/setup.js";
import { helmReleaseController } from "./helmrelease/setup.js";
import { helmProcesses } from "./helmrelease/actions/run-action.js";
import { preflight } from "./preflight.js";
import { crossNamespacePolicy } from "./receiver/cross-namespace.js";
import { ReceiverCache } from "./kit/receiver-cache.js";
import { startReceiverServer } from "./receiver/server.js";
import { receiverController } from "./receiver/setup.js";
import { inputProviderController, resourceSetController } from "./resourceset/setup.js";
import { fluxInstanceController, fluxReportController } from "./fluxinstance/setup.js";
import { Notifications } from "./notification/setup.js";
import { sweepStaleWorkDirs } from "../util/work-dir.js";
import { eventForwarder, type EventForwarder } from "../runtime/event-forwarder.js";
import { selectorFor } from "./process-scope.js";

export interface ManagerOptions {
  endpoint: ClusterEndpoint;
  concurrent: number;
  noCrossNamespaceRefs: boolean;
  defaultServiceAccount?: string;
  /** Flux's --sops-age-secret: a Secret in the runtime namespace with fallback age keys. */
  sopsAgeSecret?: { name: string; namespace: string };
  watchLabelSelector?: string;
  kubeApiQps: number;
  kubeApiBurst: number;
  leaderElection: boolean;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  /** Namespace of the Lease (Flux: the controller's own, $RUNTIME_NAMESPACE). */
  runtimeNamespace: string;
  storagePath: string;
  storageHost: string;
  storagePort: number;
  /** URL consumers use for artifacts; defaults to http://<storage host>:<port>. */
  storageAdvertisedAddress?: string;
  healthHost: string;
  healthPort: number;
  /** --metrics-addr: a second listener serving /metrics only (none when not given). */
  metricsHost?: string;
  metricsPort?: number;
  /** The webhook receiver server (Flux: notification-controller's --receiver-addr). */
  receiverHost: string;
  receiverPort: number;
  /** Flux's event endpoint (notification-controller's --events-addr); undefined: not served. */
  eventsHost?: string;
  eventsPort?: number;
  /** --events-addr=<URL> (a Flux controller's form): post events there; no notification kinds run here. */
  eventsForwardUrl?: string;
  /** --rate-limit-interval: identical events inside it are notified once (default 5m). */
  rateLimitIntervalMs?: number;
  /** --receiver-allow-cross-namespace: a Receiver may name other namespaces' objects (off: its own only). */
  receiverAllowCrossNamespace?: boolean;
  requeueDependencyMs: number;
  /** Flux's StrictPostBuildSubstitutions feature gate. */
  strictSubstitutions?: boolean;
  /** The DriftWatch feature gate (default on). */
  driftWatch?: boolean;
  /** --artifact-max-size, --artifact-max-files (defaults: 1 GiB, 100000). */
  artifactLimits?: ArtifactLimits;
  /** --cluster-removal-grace-period (the fleet's default, 10m). */
  clusterRemovalGraceMs?: number;
  /**
   * Controllers of layers above this one (the fleet's), decided once this process leads: they may ask
   * the cluster what it serves (Kamaji's CRD).
   */
  extraControllers?: (cluster: Cluster) => Promise<ControllerSetup[]>;
  /** flotilla's version, reported by the FluxInstance and FluxReport controllers. */
  version?: string;
  /** Install the CRDs first (convenient for the local fleet; `flotilla install` is the normal way). */
  installCrds: boolean;
  log: Logger;
}

export interface RunningManager {
  healthPort: number;
  /** The --metrics-addr listener's port, when there is one. */
  metricsPort?: number;
  /** Resolves when the process should exit, with the exit code. */
  done: Promise<number>;
  stop(): Promise<void>;
}

/** The controllers this process runs, started in this order (sources before their consumers). */
export { PreflightError } from "./preflight.js";

export const CONTROLLERS: ControllerSetup[] = [
  gitRepositoryController,
  helmRepositoryController,
  helmChartController,
  ociRepositoryController,
  kustomizationController,
  helmReleaseController,
  inputProviderController,
  resourceSetController,
  fluxInstanceController,
  fluxReportController,
];

export async function startManager(o: ManagerOptions): Promise<RunningManager> {
  setDefaultRateLimit({ qps: o.kubeApiQps, burst: o.kubeApiBurst });
  const cluster = new Cluster(o.endpoint);
  const metrics = controllerMetrics();
  metrics.registry.register(helmProcesses);
  const identity = `${hostname()}_${process.pid}`;
  let controllers: Controller[] = [];
  let artifactServer: Awaited<ReturnType<typeof startArtifactServer>> | undefined;
  let receiverServer: Awaited<ReturnType<typeof startReceiverServer>> | undefined;
  const notifications = new Notifications();
  let forwarder: EventForwarder | undefined;
  const probes = await startProbesServer({
    host: o.healthHost,
    port: o.healthPort,
    registry: metrics.registry,
    ready: () => true,
  });
  const metricsServer =
    o.metricsPort === undefined
      ? undefined
      : await startProbesServer({
          host: o.metricsHost ?? "127.0.0.1",
          port: o.metricsPort,
          registry: metrics.registry,
          ready: () => true,
          metricsOnly: true,
        }).catch(async (err: unknown) => {
          await probes.close();
          throw err;
        });

  await preflight(cluster, {
    runtimeNamespace: o.runtimeNamespace,
    leaderElection: o.leaderElection,
    installCrds: o.installCrds,
  }).catch(async (err: unknown) => {
    await probes.close();
    await metricsServer?.close();
    throw err;
  });

  const startControllers = async () => {
    // What a killed predecessor on this machine left in its scratch directories.
    const swept = sweepStaleWorkDirs();
    if (swept.length) o.log.info("removed scratch directories of processes that are gone", { pids: swept });
    const storage = new Storage(o.storagePath, "");
    artifactServer = await startArtifactServer(storage, o.storageHost, o.storagePort);
    (storage as { baseUrl: string }).baseUrl = o.storageAdvertisedAddress ?? artifactServer.url;
    const deps: ControllerDeps = {
      cluster,
      storage,
      events: new EventRecorder(cluster.client, "flotilla-controller", o.log, hostname()),
      sources: new SourceFetcher(cluster.client, join(o.storagePath, ".consumer-cache")),
      receivers: new ReceiverCache(),
      flags: {
        noCrossNamespaceRefs: o.noCrossNamespaceRefs,
        receiverAllowCrossNamespace: o.receiverAllowCrossNamespace === true,
        defaultServiceAccount: o.defaultServiceAccount,
        sopsAgeSecret: o.sopsAgeSecret,
        requeueDependencyMs: o.requeueDependencyMs,
        strictSubstitutions: o.strictSubstitutions ?? true,
        driftWatch: o.driftWatch ?? true,
        artifactLimits: o.artifactLimits,
        clusterRemovalGraceMs: o.clusterRemovalGraceMs,
        runtimeNamespace: o.runtimeNamespace,
        watchLabelSelector: o.watchLabelSelector,
        concurrent: o.concurrent,
        version: o.version,
      },
    };
    const shared = { cluster, log: o.log, metrics, concurrency: o.concurrent, labelSelector: o.watchLabelSelector };
    const setups = [
      ...CONTROLLERS,
      receiverController as ControllerSetup,
      notifications.alertController as ControllerSetup,
      notifications.providerController as ControllerSetup,
      ...((await o.extraControllers?.(cluster)) ?? []),
    ];
    // Notification and operator kinds are not sharded (process-scope.ts): the main process's, unfiltered by the key.
    controllers = setups.flatMap((setup) => {
      const labelSelector = selectorFor(setup.kind, o);
      return labelSelector === null ? [] : [createController(setup, deps, { ...shared, labelSelector })];
    });
    // The dispatcher (or the forwarder) before the controllers start: their first events are notified too.
    if (o.eventsForwardUrl) {
      forwarder = eventForwarder({ url: o.eventsForwardUrl, log: o.log.with({ controller: "event-forwarder" }) });
      deps.events.sink = forwarder.sink;
    } else
      await notifications.start({
        cluster,
        events: deps.events,
        log: o.log,
        eventsAddress: o.eventsPort !== undefined ? { host: o.eventsHost ?? "0.0.0.0", port: o.eventsPort } : undefined,
        rateLimitIntervalMs: o.rateLimitIntervalMs,
        noCrossNamespaceRefs: o.noCrossNamespaceRefs,
      });
    for (const c of controllers) {
      if (stopping) return; // a SIGTERM while starting: stop() ends what started
      await c.start();
    }
    // After the controllers: requests are looked up in the Receiver controller's synced cache.
    if (!o.eventsForwardUrl)
      receiverServer = await startReceiverServer({
        host: o.receiverHost,
        port: o.receiverPort,
        cache: deps.receivers,
        cluster,
        events: deps.events,
        log: o.log.with({ controller: "receiver-server" }),
        crossNamespace: crossNamespacePolicy(deps.flags),
      });
    o.log.info("controllers started", {
      artifactServer: artifactServer.url,
      ...(receiverServer ? { receiverServer: receiverServer.url } : {}),
      ...(notifications.eventServerUrl ? { eventServer: notifications.eventServerUrl } : {}),
      ...(o.eventsForwardUrl ? { eventsForwardedTo: o.eventsForwardUrl } : {}),
      identity,
    });
  };

  let resolveDone!: (code: number) => void;
  const done = new Promise<number>((r) => (resolveDone = r));
  const elector = o.leaderElection
    ? new LeaderElector(
        cluster.client,
        {
          namespace: o.runtimeNamespace,
          name: leaderElectionId(o.watchLabelSelector),
          identity,
          leaseDurationMs: o.leaseDurationMs,
          renewDeadlineMs: o.renewDeadlineMs,
          retryPeriodMs: o.retryPeriodMs,
        },
        o.log,
      )
    : undefined;
  let stopping = false;
  // Stops whatever did start (controllers, servers, the lease), so nothing keeps the process alive.
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await Promise.all(controllers.map((c) => c.stop()));
    await elector?.stop(true);
    await receiverServer?.close();
    await notifications.stop();
    forwarder?.stop();
    await artifactServer?.close();
    await probes.close();
    await metricsServer?.close();
    resolveDone(0);
  };
  if (elector) {
    void elector.run(
      () => {
        startControllers().catch((err) => {
          if (stopping && err instanceof InformerSyncError && err.stopped) return; // stopped while starting
          o.log.error("starting controllers failed", { error: (err as Error).message });
          resolveDone(1);
          void stop();
        });
      },
      () => {
        if (!stopping) resolveDone(1); // lost the lease: exit so another replica leads
      },
    );
  } else {
    try {
      await startControllers();
    } catch (err) {
      await stop();
      throw err;
    }
  }

  return { healthPort: probes.port, metricsPort: metricsServer?.port, done, stop };
}
