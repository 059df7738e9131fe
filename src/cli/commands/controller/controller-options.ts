// The flags of `flotilla controller`: Flux's controllers' flags (names, defaults, Go-style booleans) and
// flotilla's own, declared apart from the action that reads them.
import { type Command, Option } from "commander";
import { goBoolOption } from "../../flags.js";
import { DEFAULT_HEAP_GROWING_PERCENT } from "./heap-growth.js";

export function withControllerOptions(command: Command): Command {
  return (
    command
      .option("--kubeconfig <path>", "kubeconfig to use instead of the in-cluster service account")
      .option(
        "--concurrent <n>",
        "concurrent reconciles per controller; a namespace with none in progress may start one beyond it (at most 1.5×), so one namespace cannot hold them all",
        "4",
      )
      .option(
        "--max-object-timeout <d>",
        "longest one object may keep a git or helm process (or a chart download) running: a spec.timeout above it is capped, and the cap named in the object's message when it stops the work",
        "10m",
      )
      .addOption(
        goBoolOption(
          "--no-cross-namespace-refs",
          "refuse sourceRefs and dependsOn to other namespaces (multi-tenancy lockdown)",
          false,
        ),
      )
      .option(
        "--sops-age-secret <name>",
        "a Secret in the runtime namespace whose *.agekey entries decrypt Kustomizations that set spec.decryption without a secretRef",
      )
      .option(
        "--default-service-account <name>",
        "service account impersonated when a Kustomization sets none (multi-tenancy lockdown)",
      )
      .addOption(
        goBoolOption("--no-remote-bases", "refuse remote kustomize bases (flotilla refuses them in any case)", true),
      )
      .option("--watch-label-selector <selector>", "only reconcile objects matching this label selector (sharding)")
      .option(
        "--kube-api-qps <n>",
        "requests per second to each resource kind of each Kubernetes API (as Flux: one limiter per kind)",
        "50",
      )
      .option("--kube-api-burst <n>", "burst of requests to each resource kind of each Kubernetes API", "300")
      .addOption(goBoolOption("--enable-leader-election", "elect a leader among replicas", true))
      .option("--leader-election-lease-duration <d>", "lease duration", "35s")
      .option("--leader-election-renew-deadline <d>", "renew deadline", "30s")
      .option("--leader-election-retry-period <d>", "retry period", "5s")
      .option(
        "--runtime-namespace <ns>",
        "namespace of the leader election lease",
        process.env.RUNTIME_NAMESPACE ?? "flux-system",
      )
      .option("--storage-path <dir>", "artifact storage directory", "/data")
      .option("--storage-addr <addr>", "artifact server listen address", ":9090")
      .option("--storage-adv-addr <url>", "artifact server address advertised to consumers (http://host:port)")
      .option("--health-addr <addr>", "/healthz, /readyz and /metrics listen address", ":9440")
      .option(
        "--metrics-addr <addr>",
        "/metrics only (the Deployment's http-prom port, open to scrapers in other namespaces); outside a cluster the default is a free loopback port, logged",
        ":8080",
      )
      .option(
        "--receiver-addr <addr>",
        "webhook receiver (Receiver objects' /hook/ paths) listen address; outside a cluster the default is a free loopback port, logged",
        ":9292",
      )
      // notification-controller spells it --receiverAddr: a Flux Deployment's arguments work as written.
      .addOption(new Option("--receiverAddr <addr>").hideHelp())
      .option(
        "--events-addr <addr>",
        "Flux's event endpoint (POST /, for Flux controllers in a mixed installation and flotilla's shards); outside a cluster the default is a free loopback port, logged. Flux's default, :9090, is the artifact server's here. A URL (http://…), as Flux controllers take it, posts this process's events there instead and runs no Alerts, Providers or Receivers (a shard of `flotilla install --shards`)",
        ":9091",
      )
      .option("--rate-limit-interval <d>", "identical events inside this interval are notified once", "5m")
      .addOption(
        goBoolOption(
          "--receiver-allow-cross-namespace",
          "a Receiver may ask objects in other namespaces to reconcile (off: only its own namespace's; --no-cross-namespace-refs refuses them regardless)",
          false,
        ),
      )
      .option(
        "--artifact-max-size <size>",
        "largest artifact, unpacked (all files together; 1Gi, 512Mi or bytes): a bigger repository is refused when archived, a bigger archive when unpacked",
        "1Gi",
      )
      .option(
        "--artifact-max-files <n>",
        "most files an artifact may hold: a repository with more is refused when archived, an archive with more when unpacked",
        "100000",
      )
      .option(
        "--cel-cost-limit <n>",
        "cost budget of one evaluation of a tenant's CEL expression (healthCheckExprs, dependsOn readyExpr, Receiver filters), as Kubernetes' per-expression limit: past it the object fails, naming the expression",
        "1000000",
      )
      .option("--requeue-dependency <d>", "retry interval for Kustomizations waiting on dependencies or sources", "30s")
      .option(
        "--cluster-removal-grace-period <d>",
        "how long a cluster that leaves a fleet object's selection keeps its child before spec.onClusterRemoval applies (the object's spec.clusterRemovalGracePeriod wins)",
        "10m",
      )
      .option(
        "--feature-gates <gates>",
        "comma-separated Name=true|false; StrictPostBuildSubstitutions (default true) fails a Kustomization on an unset ${var}; DriftWatch (default true) puts back at once what others edit or delete",
      )
      .addOption(
        goBoolOption("--install-crds", "install the CRDs before starting (useful against a local fleet)", false),
      )
      .addOption(
        goBoolOption(
          "--helm-engine",
          "run HelmRelease actions in the resident helm engine (tools/helm-engine); false starts a helm process and a post-renderer per action, as before decision 0042",
          true,
        ),
      )
      .addOption(
        goBoolOption(
          "--kamaji-discovery",
          "make a fleet Cluster of every Kamaji TenantControlPlane (when Kamaji's CRD is served)",
          true,
        ),
      )
      .option("--dashboard-addr <addr>", "also serve the fleet dashboard on this address (off unless given)")
      .option(
        "--dashboard-token-file <path>",
        "a file holding the bearer token every dashboard request must carry (required unless --dashboard-addr is loopback)",
      )
      .addOption(
        goBoolOption(
          "--dashboard-read-only",
          "the dashboard's actions are off: it would act as the controller's own identity",
          true,
        ),
      )
      .option(
        "--heap-growing-percent <n>",
        "how far the JS heap may grow past what the last full garbage collection found alive (percent) before the next one: lower keeps the peak memory near what is in use, at some CPU; 0 leaves V8's own factor (1.1× to 4×). Not a cap: the heap grows with the fleet",
        DEFAULT_HEAP_GROWING_PERCENT,
      )
      .addOption(new Option("--log-level <level>", "log level").choices(["debug", "info", "error"]).default("info"))
  );
}
