// One setup per controller: each controller folder exports what the manager needs to run it — its
// kind, the other kinds it watches, its informer indexes, and a factory for its reconciler from
// the shared dependencies — so the manager (and a test) starts controllers from a list.
import type { Cluster } from "../../kube/cluster.js";
import type { GroupVersionKind, KubeObject } from "../../api/meta/object.js";
import {
  Controller,
  type ControllerOptions,
  type Predicate,
  type Reconciler,
  type Watch,
} from "../../runtime/controller.js";
import type { EventRecorder } from "../../runtime/events.js";
import type { ArtifactLimits } from "../../sources/artifact/limits.js";
import type { Storage } from "../../sources/artifact/storage.js";
import type { SourceFetcher } from "../../sources/consumer.js";
import type { ReceiverCache } from "./receiver-cache.js";

/** The controller process's flags that change how reconcilers behave (Flux's names). */
export interface ControllerFlags {
  /** --no-cross-namespace-refs */
  noCrossNamespaceRefs?: boolean;
  /** --receiver-allow-cross-namespace: a Receiver may name objects in other namespaces (decision 0032). */
  receiverAllowCrossNamespace?: boolean;
  /** --default-service-account: impersonated when an object names no service account. */
  defaultServiceAccount?: string;
  /** --sops-age-secret: a Secret (in the runtime namespace) whose age keys decrypt a spec.decryption without secretRef. */
  sopsAgeSecret?: { name: string; namespace: string };
  /** --requeue-dependency: how soon to look again at an object waiting on another one. */
  requeueDependencyMs?: number;
  /** The StrictPostBuildSubstitutions feature gate. */
  strictSubstitutions?: boolean;
  /** The DriftWatch feature gate: applied objects edited or deleted by others are put back at once. */
  driftWatch?: boolean;
  /** --artifact-max-size and --artifact-max-files: what an artifact may hold, made or unpacked. */
  artifactLimits?: ArtifactLimits;
  /** --cluster-removal-grace-period: how long a cluster leaving a fleet object's selection keeps its child. */
  clusterRemovalGraceMs?: number;
  /** --runtime-namespace: where the process runs (the FluxInstance and FluxReport live there). */
  runtimeNamespace?: string;
  /** --watch-label-selector (a shard), as a FluxInstance's sharding is compared with it. */
  watchLabelSelector?: string;
  /** --concurrent, as a FluxInstance's cluster.size is compared with it. */
  concurrent?: number;
  /** flotilla's version (the FluxInstance's components and the FluxReport's operator info). */
  version?: string;
}

/** What the manager hands every controller; each setup asks for the part it uses. */
export interface ControllerDeps {
  /** The cluster the controller's objects live in. */
  cluster: Cluster;
  events: EventRecorder;
  /** Artifact storage, written by the source controllers. */
  storage: Storage;
  /** Source artifacts as their consumers read them. */
  sources: SourceFetcher;
  /** The Receivers by webhook path: filled by the Receiver controller, read by the receiver server. */
  receivers: ReceiverCache;
  flags: ControllerFlags;
}

export interface ControllerSetup<D = ControllerDeps> {
  /** The controller's name in logs and metrics. */
  name: string;
  kind: GroupVersionKind;
  /** Other kinds whose changes queue this kind's objects. */
  watches?: Watch[];
  /** Which updates of the kind's own objects queue them (default: generation, reconcile request, deletion). */
  predicates?: Predicate[];
  /** Informer indexes the watches look objects up by. */
  indexes?: Record<string, (obj: KubeObject) => string[]>;
  reconciler(deps: D): Reconciler;
  /** Wiring that needs the controller itself (e.g. reads served from its watch caches). */
  connect?(controller: Controller, deps: D): void;
}

/** Options every controller of one process shares (cluster, log, metrics, concurrency, scope). */
export type SharedControllerOptions = Omit<ControllerOptions, "name" | "kind" | "reconciler" | "watches">;

export function createController<D>(setup: ControllerSetup<D>, deps: D, options: SharedControllerOptions) {
  const controller = new Controller({
    ...options,
    name: setup.name,
    kind: setup.kind,
    watches: setup.watches,
    ...(setup.predicates ? { predicates: setup.predicates } : {}),
    reconciler: setup.reconciler(deps),
  });
  for (const [name, index] of Object.entries(setup.indexes ?? {})) controller.informer.addIndex(name, index);
  setup.connect?.(controller, deps);
  return controller;
}
