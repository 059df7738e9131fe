// Health of one object by kstatus rules (what Flux's wait uses): Current, InProgress, Failed,
// Terminating, NotFound. Generic checks first (deletion, observedGeneration, Reconciling/Stalled
// conditions), then per-kind rules, then "Current". Messages follow kstatus's wording.
import type { KubeObject } from "../../api/meta/object.js";

export type HealthStatus = "Current" | "InProgress" | "Failed" | "Terminating" | "NotFound" | "Unknown";

export interface Health {
  status: HealthStatus;
  message: string;
}

interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}

// kstatus reads many optional fields of many kinds; every number goes through num() and every
// string is compared, so a loose shape here costs no safety.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = Record<string, any>;
type Obj = KubeObject & { spec?: Loose; status?: Loose };
type ContainerStatus = { name: string; state?: { waiting?: { reason?: string; message?: string } } };

const num = (v: unknown, fallback = 0) => (typeof v === "number" ? v : fallback);
const conditions = (o: Obj): Condition[] => (Array.isArray(o.status?.conditions) ? o.status.conditions : []);
const condition = (o: Obj, type: string) => conditions(o).find((c) => c.type === type);
const current = (message: string): Health => ({ status: "Current", message });
const inProgress = (message: string): Health => ({ status: "InProgress", message });
const failed = (message: string): Health => ({ status: "Failed", message });

function generic(o: Obj): Health | undefined {
  if (o.metadata.deletionTimestamp) return { status: "Terminating", message: "Resource scheduled for deletion" };
  const gen = o.metadata.generation;
  const observed = o.status?.observedGeneration;
  if (typeof gen === "number" && typeof observed === "number" && gen !== observed) {
    return inProgress(`${o.kind} generation is ${gen}, but latest observed generation is ${observed}`);
  }
  for (const c of conditions(o)) {
    if (c.type === "Reconciling" && c.status === "True") return inProgress(c.message ?? "Reconciling");
    if (c.type === "Stalled" && c.status === "True") return failed(c.message ?? "Stalled");
  }
  return undefined;
}

function deployment(o: Obj): Health {
  const progressing = condition(o, "Progressing");
  if (progressing?.reason === "ProgressDeadlineExceeded") return failed("Progress deadline exceeded");
  const spec = num(o.spec?.replicas, 1);
  const s = o.status ?? {};
  const [replicas, updated, available, ready] = [
    num(s.replicas),
    num(s.updatedReplicas),
    num(s.availableReplicas),
    num(s.readyReplicas),
  ];
  if (spec > replicas) return inProgress(`Replicas: ${replicas}/${spec}`);
  if (spec > updated) return inProgress(`Updated: ${updated}/${spec}`);
  if (replicas > spec) return inProgress(`Pending termination: ${replicas - spec}`);
  if (updated > available) return inProgress(`Available: ${available}/${updated}`);
  if (spec > ready) return inProgress(`Ready: ${ready}/${spec}`);
  const isProgressing =
    o.spec?.progressDeadlineSeconds === undefined ||
    (progressing?.status === "True" && progressing.reason === "NewReplicaSetAvailable");
  if (!isProgressing) return inProgress("ReplicaSet not Available");
  if (condition(o, "Available")?.status !== "True") return inProgress("Deployment not Available");
  return current(`Deployment is available. Replicas: ${replicas}`);
}

function statefulSet(o: Obj): Health {
  if (o.spec?.updateStrategy?.type === "OnDelete") return current("StatefulSet is using the ondelete update strategy");
  const spec = num(o.spec?.replicas, 1);
  const s = o.status ?? {};
  if (spec > num(s.replicas)) return inProgress(`Replicas: ${num(s.replicas)}/${spec}`);
  if (spec > num(s.readyReplicas)) return inProgress(`Ready: ${num(s.readyReplicas)}/${spec}`);
  if (num(s.replicas) > spec) return inProgress(`Pending termination: ${num(s.replicas) - spec}`);
  const partition = o.spec?.updateStrategy?.rollingUpdate?.partition;
  if (typeof partition === "number" && partition > 0) {
    if (num(s.updatedReplicas) < spec - partition)
      return inProgress(`updated: ${num(s.updatedReplicas)}/${spec - partition}`);
    return current(`Partition rollout complete. updated: ${num(s.updatedReplicas)}`);
  }
  if (spec > num(s.currentReplicas)) return inProgress(`current: ${num(s.currentReplicas)}/${spec}`);
  if (s.currentRevision !== s.updateRevision) return inProgress("Waiting for updated revision to match current");
  return current(`All replicas scheduled as expected. Replicas: ${num(s.replicas)}`);
}

function daemonSet(o: Obj): Health {
  const s = o.status ?? {};
  if (typeof s.desiredNumberScheduled !== "number") return inProgress("Missing .status.desiredNumberScheduled");
  const desired = s.desiredNumberScheduled;
  const checks: [string, unknown][] = [
    ["Current", s.currentNumberScheduled],
    ["Updated", s.updatedNumberScheduled],
    ["Available", s.numberAvailable],
    ["Ready", s.numberReady],
  ];
  for (const [label, value] of checks)
    if (desired > num(value)) return inProgress(`${label}: ${num(value)}/${desired}`);
  return current(`All replicas scheduled as expected. Replicas: ${desired}`);
}

function replicaSet(o: Obj): Health {
  if (condition(o, "ReplicaFailure")?.status === "True") return inProgress("Replica Failure condition. Check Pods");
  const spec = num(o.spec?.replicas, 1);
  const s = o.status ?? {};
  if (spec > num(s.fullyLabeledReplicas)) return inProgress(`Labelled: ${num(s.fullyLabeledReplicas)}/${spec}`);
  if (spec > num(s.availableReplicas)) return inProgress(`Available: ${num(s.availableReplicas)}/${spec}`);
  if (spec > num(s.readyReplicas)) return inProgress(`Ready: ${num(s.readyReplicas)}/${spec}`);
  if (num(s.replicas) > spec) return inProgress(`Pending termination: ${num(s.replicas) - spec}`);
  return current(`ReplicaSet is available. Replicas: ${num(s.replicas)}`);
}

/** Container waiting reasons that mean the pod will not start without a change (shown in messages). */
const BLOCKING_WAIT_REASONS = new Set([
  "ErrImagePull",
  "ImagePullBackOff",
  "InvalidImageName",
  "CreateContainerConfigError",
  "CrashLoopBackOff",
]);

export function podProblems(o: Obj): string[] {
  const statuses = [
    ...(o.status?.initContainerStatuses ?? []),
    ...(o.status?.containerStatuses ?? []),
  ] as ContainerStatus[];
  return statuses
    .filter((c) => c.state?.waiting?.reason && BLOCKING_WAIT_REASONS.has(c.state.waiting.reason))
    .map(
      (c) =>
        `container ${c.name} waiting: ${c.state!.waiting!.reason}${c.state!.waiting!.message ? ` (${c.state!.waiting!.message})` : ""}`,
    );
}

function pod(o: Obj): Health {
  const phase = o.status?.phase;
  if (phase === "Succeeded") return current("Pod has completed successfully");
  if (phase === "Failed") return current("Pod has completed, but not successfully");
  const problems = podProblems(o);
  if (phase === "Running") {
    if (condition(o, "Ready")?.status === "True") return current("Pod is Ready");
    const crashing = ((o.status?.containerStatuses ?? []) as ContainerStatus[])
      .filter((c) => c.state?.waiting?.reason === "CrashLoopBackOff")
      .map((c) => c.name);
    if (crashing.length) return failed(`Containers in CrashLoop state: ${crashing.join(",")}`);
    return inProgress(
      problems.length ? `Pod is running but is not Ready: ${problems.join("; ")}` : "Pod is running but is not Ready",
    );
  }
  if (phase === "Pending") {
    const scheduled = condition(o, "PodScheduled");
    if (scheduled?.status === "False" && scheduled.reason === "Unschedulable") {
      const age = Date.now() - Date.parse(String(o.metadata.creationTimestamp ?? ""));
      return age > 15_000 ? failed("Pod could not be scheduled") : inProgress("Pod has not been scheduled");
    }
    return inProgress(
      problems.length ? `Pod is in the Pending phase: ${problems.join("; ")}` : "Pod is in the Pending phase",
    );
  }
  return inProgress("Pod phase not available");
}

function job(o: Obj): Health {
  const completions = num(o.spec?.completions, num(o.spec?.parallelism, 1));
  if (condition(o, "Complete")?.status === "True")
    return current(`Job Completed. succeeded: ${num(o.status?.succeeded)}/${completions}`);
  if (condition(o, "Failed")?.status === "True")
    return failed(`Job Failed. failed: ${num(o.status?.failed)}/${completions}`);
  return inProgress("Job in progress");
}

function crd(o: Obj): Health {
  const names = condition(o, "NamesAccepted");
  if (names?.status === "False") return failed(names.message ?? names.reason ?? "names not accepted");
  const established = condition(o, "Established");
  if (established?.status === "False" && established.reason !== "Installing")
    return failed(established.message ?? "not established");
  if (established?.status === "True") return current("CRD is established");
  return inProgress("Install in progress");
}

const BY_KIND: Record<string, (o: Obj) => Health> = {
  "apps/Deployment": deployment,
  "extensions/Deployment": deployment,
  "apps/StatefulSet": statefulSet,
  "apps/DaemonSet": daemonSet,
  "extensions/DaemonSet": daemonSet,
  "apps/ReplicaSet": replicaSet,
  Pod: pod,
  "batch/Job": job,
  "apiextensions.k8s.io/CustomResourceDefinition": crd,
  PersistentVolumeClaim: (o) =>
    o.status?.phase === "Bound"
      ? current("PVC is Bound")
      : inProgress(`PVC is not Bound. phase: ${o.status?.phase ?? "unknown"}`),
  Service: (o) =>
    o.spec?.type === "LoadBalancer" && !o.spec?.clusterIP
      ? inProgress("ClusterIP not set. Service type: LoadBalancer")
      : current("Service is ready"),
  "policy/PodDisruptionBudget": () => current("AllowedDisruptions has been computed."),
  "batch/CronJob": () => current("Resource is always ready"),
  ConfigMap: () => current("Resource is always ready"),
  Secret: () => current("Resource is always ready"),
};

export function computeHealth(obj: KubeObject | undefined): Health {
  if (!obj) return { status: "NotFound", message: "Resource not found" };
  const o = obj as Obj;
  const g = generic(o);
  if (g) return g;
  const group = o.apiVersion.includes("/") ? o.apiVersion.slice(0, o.apiVersion.indexOf("/")) : "";
  const rule = BY_KIND[group ? `${group}/${o.kind}` : o.kind];
  return rule ? rule(o) : (readyCondition(o) ?? current("Resource is current"));
}

/**
 * A kind without rules of its own that has a Ready condition is judged by it (fluxcd/cli-utils kstatus
 * checkReadyCondition, which Flux's health checks use): True is Current, False or Unknown InProgress — a
 * Flux object that failed without Stalled may still recover, so it is not Current (nor Failed).
 */
function readyCondition(o: Obj): Health | undefined {
  const ready = condition(o, "Ready");
  if (ready?.status === "True") return current("Resource is Ready");
  if (ready?.status === "False" || ready?.status === "Unknown") return inProgress(ready.message ?? "");
  return undefined;
}
