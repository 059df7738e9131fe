// The controller Deployment `flotilla install` writes, shaped as Flux's controllers' (fluxcd/*-controller
// config/manager/deployment.yaml): the ports http (artifacts), http-prom (metrics, with the
// prometheus.io annotations Flux's pods carry) and healthz (probes), Flux's security context with /tmp
// and /data as emptyDirs, and two ports notification-controller has in Flux: http-webhook (the receiver)
// and http-events (the event endpoint, 9091 here as 9090 is the artifact server's). Optionally a
// PodDisruptionBudget (off by default: with one replica it blocks node drains).
import type { KubeObject } from "../api/meta/object.js";

export const CONTROLLER_LABELS = { app: "flotilla-controller" };

// Sized from docs/benchmarks.md "Side by side with Flux" (100 objects, --concurrent 20): the controller
// process peaked at 128 MiB (Kustomizations) and 138 MiB (HelmReleases), so 192Mi is requested; the
// process tree with its helm children peaked at 490 MiB and the container's limit counts them all, so
// the limit is 1Gi (twice that, at five times the default --concurrent 4). CPU: 35.4 s over 26.7 s for
// the HelmReleases (1.3 cores at --concurrent 20); 100m requested at rest, 2 cores at most.
export const CONTROLLER_RESOURCES = {
  requests: { cpu: "100m", memory: "192Mi" },
  limits: { cpu: "2000m", memory: "1Gi" },
};

// V8's young generation: by default two semi-spaces growing to 16 MiB each, 32 MiB of RSS the controller
// reaches while loading its modules and never gives back. 2 MiB each held the Kustomization benchmark's
// time and CPU and lowered its peak RSS by 16 MiB at 100 objects (decision 0050). A launch flag: V8 sizes
// its heap when it starts, so the process cannot set it for itself; the benchmark starts the controller
// with the same value.
export const CONTROLLER_NODE_OPTIONS = "--max-semi-space-size=2";

// glibc's malloc keeps up to 8 arenas per core, one per thread that allocated concurrently (V8's compiler and
// GC workers, libuv's pool), each holding its freed memory apart: 2 lowered the 500-Kustomization peak RSS by
// ≈ 4 MiB with the same CPU (decision 0050). The image's Debian base is glibc.
export const CONTROLLER_MALLOC_ARENA_MAX = "2";

export interface DeploymentOptions {
  namespace: string;
  image: string;
  args: string[];
  imagePullSecret?: string;
}

export function controllerDeployment(o: DeploymentOptions, metadata: KubeObject["metadata"]): KubeObject {
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata,
    spec: {
      replicas: 1,
      selector: { matchLabels: CONTROLLER_LABELS },
      template: {
        metadata: {
          annotations: { "prometheus.io/port": "8080", "prometheus.io/scrape": "true" },
          labels: CONTROLLER_LABELS,
        },
        spec: {
          serviceAccountName: "flotilla-controller",
          terminationGracePeriodSeconds: 60,
          nodeSelector: { "kubernetes.io/os": "linux" },
          ...(o.imagePullSecret ? { imagePullSecrets: [{ name: o.imagePullSecret }] } : {}),
          securityContext: {
            runAsNonRoot: true,
            runAsUser: 65534,
            fsGroup: 1337,
            seccompProfile: { type: "RuntimeDefault" },
          },
          containers: [
            {
              name: "manager",
              image: o.image,
              imagePullPolicy: "IfNotPresent",
              args: o.args,
              env: [
                { name: "RUNTIME_NAMESPACE", valueFrom: { fieldRef: { fieldPath: "metadata.namespace" } } },
                { name: "NODE_OPTIONS", value: CONTROLLER_NODE_OPTIONS },
                { name: "MALLOC_ARENA_MAX", value: CONTROLLER_MALLOC_ARENA_MAX },
              ],
              ports: [
                { name: "http", containerPort: 9090, protocol: "TCP" },
                { name: "http-prom", containerPort: 8080, protocol: "TCP" },
                { name: "healthz", containerPort: 9440, protocol: "TCP" },
                { name: "http-webhook", containerPort: 9292, protocol: "TCP" },
                { name: "http-events", containerPort: 9091, protocol: "TCP" },
              ],
              livenessProbe: { httpGet: { path: "/healthz", port: "healthz" } },
              readinessProbe: { httpGet: { path: "/readyz", port: "healthz" } },
              resources: CONTROLLER_RESOURCES,
              securityContext: {
                allowPrivilegeEscalation: false,
                readOnlyRootFilesystem: true,
                runAsNonRoot: true,
                capabilities: { drop: ["ALL"] },
                seccompProfile: { type: "RuntimeDefault" },
              },
              volumeMounts: [
                { name: "data", mountPath: "/data" },
                { name: "tmp", mountPath: "/tmp" },
              ],
            },
          ],
          volumes: [
            { name: "data", emptyDir: {} },
            { name: "tmp", emptyDir: {} },
          ],
        },
      },
    },
  } as KubeObject;
}

/** --pod-disruption-budget: one controller pod stays through voluntary disruptions (drains wait for it). */
export function controllerDisruptionBudget(metadata: KubeObject["metadata"]): KubeObject {
  return {
    apiVersion: "policy/v1",
    kind: "PodDisruptionBudget",
    metadata,
    spec: { minAvailable: 1, selector: { matchLabels: CONTROLLER_LABELS } },
  } as KubeObject;
}
