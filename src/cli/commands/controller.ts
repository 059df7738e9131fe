// `flotilla controller`: every controller in one process (sources, Kustomization, HelmRelease, Receiver, fleet), with Flux's flags.
import { VERSION } from "../version.js";
import { startDashboard } from "../../dashboard/server.js";
import { Cluster } from "../../kube/cluster.js";
import { Command } from "commander";
import { parseFeatureGates } from "../../controllers/feature-gates.js";
import { endpointFromKubeconfigFile, OPERATOR_KUBECONFIG } from "../../kube/kubeconfig.js";
import { inClusterEndpoint, isInCluster } from "../../kube/in-cluster.js";
import { startManager } from "../../controllers/manager.js";
import { fleetControllers } from "../../fleet/controllers.js";
import { createLogger, type Level } from "../../runtime/logger.js";
import { KubeconfigError } from "../../kube/errors.js";
import { ExitError, UsageError } from "../errors.js";
import { durationFlag, intFlag, positiveFlag, sizeFlag } from "../flags.js";
import { withControllerOptions } from "./controller/controller-options.js";
import { dashboardToken } from "./controller/dashboard-token.js";
import { applyHeapGrowingPercent } from "./controller/heap-growth.js";
import { setCelCostLimit } from "../../util/cel.js";
import { setMaxObjectTimeout } from "../../util/object-timeout.js";
import { useHelmEngine } from "../../controllers/helmrelease/actions/run-action.js";
import { forwardUrlOf } from "../../runtime/event-forwarder.js";

/** ":9090" → 0.0.0.0:9090, "127.0.0.1:0" → as given. */
function address(flag: string, value: string): { host: string; port: number } {
  const i = value.lastIndexOf(":");
  const port = Number(value.slice(i + 1));
  if (i < 0 || !Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`${flag}: invalid address "${value}" (use host:port or :port)`);
  return { host: value.slice(0, i) || "0.0.0.0", port };
}

export function controllerCommand(): Command {
  return withControllerOptions(
    new Command("controller").description(
      "run the controllers — sources, Kustomization, HelmRelease, Receiver and the fleet layer — in one process (in-cluster, or against --kubeconfig)",
    ),
  ).action(async (opts, cmd: Command) => {
    // Flags first: a mistyped flag is reported before anything touches a cluster. Outside a cluster the
    // default addresses (":9090", ":9440": every interface, for a pod) bind loopback unless given; the
    // receiver's (":9292") and the metrics' (":8080") bind a free loopback port there, so controllers started side by side (tests,
    // benchmarks) never collide on it (decision 0027).
    const outside = !!opts.kubeconfig || !isInCluster();
    const listen = (flag: string, key: string) => {
      const a = address(flag, opts[key] as string);
      return outside && cmd.getOptionValueSource(key) === "default" ? { ...a, host: "127.0.0.1" } : a;
    };
    const storage = listen("--storage-addr", "storageAddr");
    const health = listen("--health-addr", "healthAddr");
    const receiver = listen("--receiver-addr", "receiverAddr");
    if (outside && cmd.getOptionValueSource("receiverAddr") === "default") receiver.port = 0;
    const metricsAt = listen("--metrics-addr", "metricsAddr");
    if (outside && cmd.getOptionValueSource("metricsAddr") === "default") metricsAt.port = 0;
    // A URL is a Flux controller's --events-addr (post events there: a shard); an address, notification-controller's.
    const eventsForwardUrl = forwardUrlOf(opts.eventsAddr as string);
    const events = eventsForwardUrl ? undefined : listen("--events-addr", "eventsAddr");
    if (events && outside && cmd.getOptionValueSource("eventsAddr") === "default") events.port = 0;
    const dashboardAt = opts.dashboardAddr ? address("--dashboard-addr", opts.dashboardAddr as string) : undefined;
    if (!dashboardAt && opts.dashboardTokenFile) throw new UsageError("--dashboard-token-file needs --dashboard-addr");
    const dashboardAuth = dashboardAt
      ? dashboardToken(opts.dashboardAddr as string, dashboardAt.host, opts.dashboardTokenFile as string | undefined)
      : undefined;
    const featureGates = parseFeatureGates(opts.featureGates);
    setCelCostLimit(intFlag("--cel-cost-limit", opts.celCostLimit, 1));
    applyHeapGrowingPercent(opts.heapGrowingPercent as string);
    if (opts.noRemoteBases === false)
      throw new UsageError(
        "--no-remote-bases=false: flotilla never fetches remote kustomize bases; vendor them into the source instead",
      );
    const flags = {
      concurrent: intFlag("--concurrent", opts.concurrent, 1),
      maxObjectTimeoutMs: durationFlag("--max-object-timeout", opts.maxObjectTimeout),
      kubeApiQps: positiveFlag("--kube-api-qps", opts.kubeApiQps),
      kubeApiBurst: intFlag("--kube-api-burst", opts.kubeApiBurst, 1),
      leaseDurationMs: durationFlag("--leader-election-lease-duration", opts.leaderElectionLeaseDuration),
      renewDeadlineMs: durationFlag("--leader-election-renew-deadline", opts.leaderElectionRenewDeadline),
      retryPeriodMs: durationFlag("--leader-election-retry-period", opts.leaderElectionRetryPeriod),
      requeueDependencyMs: durationFlag("--requeue-dependency", opts.requeueDependency),
      clusterRemovalGraceMs: durationFlag("--cluster-removal-grace-period", opts.clusterRemovalGracePeriod),
      artifactLimits: {
        maxSize: sizeFlag("--artifact-max-size", opts.artifactMaxSize),
        maxFiles: intFlag("--artifact-max-files", opts.artifactMaxFiles, 1),
      },
    };
    if (!(flags.maxObjectTimeoutMs > 0)) throw new UsageError("--max-object-timeout: must be more than 0 (e.g. 10m)");
    let endpoint;
    if (opts.kubeconfig) endpoint = endpointFromKubeconfigFile(opts.kubeconfig, OPERATOR_KUBECONFIG);
    else if (isInCluster()) endpoint = inClusterEndpoint();
    else throw new KubeconfigError("not running in a cluster and no --kubeconfig given", "controller");
    const log = createLogger({ level: opts.logLevel as Level });
    setMaxObjectTimeout(flags.maxObjectTimeoutMs);
    useHelmEngine(opts.helmEngine !== false);
    const manager = await startManager({
      endpoint,
      version: VERSION,
      concurrent: flags.concurrent,
      noCrossNamespaceRefs: opts.noCrossNamespaceRefs === true,
      defaultServiceAccount: opts.defaultServiceAccount,
      ...(opts.sopsAgeSecret
        ? { sopsAgeSecret: { name: opts.sopsAgeSecret as string, namespace: opts.runtimeNamespace as string } }
        : {}),
      watchLabelSelector: opts.watchLabelSelector,
      kubeApiQps: flags.kubeApiQps,
      kubeApiBurst: flags.kubeApiBurst,
      leaderElection: opts.enableLeaderElection === true,
      leaseDurationMs: flags.leaseDurationMs,
      renewDeadlineMs: flags.renewDeadlineMs,
      retryPeriodMs: flags.retryPeriodMs,
      runtimeNamespace: opts.runtimeNamespace,
      storagePath: opts.storagePath,
      storageHost: storage.host,
      storagePort: storage.port,
      storageAdvertisedAddress: opts.storageAdvAddr,
      healthHost: health.host,
      healthPort: health.port,
      metricsHost: metricsAt.host,
      metricsPort: metricsAt.port,
      receiverHost: receiver.host,
      receiverPort: receiver.port,
      eventsHost: events?.host,
      eventsPort: events?.port,
      eventsForwardUrl,
      rateLimitIntervalMs: durationFlag("--rate-limit-interval", opts.rateLimitInterval),
      receiverAllowCrossNamespace: opts.receiverAllowCrossNamespace === true,
      requeueDependencyMs: flags.requeueDependencyMs,
      strictSubstitutions: featureGates.StrictPostBuildSubstitutions,
      driftWatch: featureGates.DriftWatch,
      artifactLimits: flags.artifactLimits,
      clusterRemovalGraceMs: flags.clusterRemovalGraceMs,
      installCrds: opts.installCrds,
      extraControllers: (cluster) => fleetControllers(cluster, { kamajiDiscovery: opts.kamajiDiscovery === true }),
      log,
    });
    log.info("flotilla controller running", {
      health: `${health.host}:${manager.healthPort}`,
      metrics: `${metricsAt.host}:${manager.metricsPort}`,
    });
    // A dashboard that cannot start stops the controller with it (not a manager left running headless).
    const dashboard = dashboardAt
      ? await startDashboard({
          cluster: new Cluster(endpoint),
          address: dashboardAt.host || "0.0.0.0",
          port: dashboardAt.port,
          readOnly: opts.dashboardReadOnly === true,
          ...(dashboardAuth ? { token: dashboardAuth } : {}),
          log: (line) => log.info(line),
        }).catch(async (err: unknown) => {
          await manager.stop();
          throw err;
        })
      : undefined;
    if (dashboard)
      log.info("dashboard serving", {
        url: dashboard.url,
        readOnly: opts.dashboardReadOnly === true,
        token: dashboardAuth ? "required" : "none (loopback only)",
      });
    const onSignal = () => void Promise.all([manager.stop(), dashboard?.close()]);
    process.once("SIGTERM", onSignal);
    process.once("SIGINT", onSignal);
    // The manager's own code (1: it could not run, or lost its lease) is the process's.
    const code = await manager.done;
    if (code) throw new ExitError(code);
  });
}
