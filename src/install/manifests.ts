// Everything needed to run flotilla in a cluster, as `flotilla install --export` prints it: the CRDs,
// the namespace, RBAC (Flux's model: the controller is cluster-admin and impersonates tenants), the
// artifact Service, the webhook receiver Service (Flux's name, webhook-receiver, port 80), the
// controller Deployment and Flux's NetworkPolicies (the artifact server reachable from the namespace only).
import { servedCrds } from "../api/flux-crds.js";
import type { KubeObject } from "../api/meta/object.js";
import { networkPolicies } from "./network-policies.js";

export const DEFAULT_IMAGE = "ghcr.io/flotilla-dev/flotilla";

export interface InstallOptions {
  namespace: string;
  image: string;
  version: string;
  /** Flux's multi-tenancy lockdown flags. */
  multiTenant?: boolean;
}

export function installManifests(o: InstallOptions): KubeObject[] {
  const labels = {
    "app.kubernetes.io/instance": o.namespace,
    "app.kubernetes.io/part-of": "flotilla",
    "app.kubernetes.io/version": o.version,
  };
  const meta = (name: string, namespaced = true) => ({
    name,
    ...(namespaced ? { namespace: o.namespace } : {}),
    labels,
  });
  // The artifact and webhook receiver Services: port 80 on the controller's named container port.
  const controllerService = (name: string, targetPort: string): KubeObject => ({
    apiVersion: "v1",
    kind: "Service",
    metadata: meta(name),
    spec: {
      type: "ClusterIP",
      selector: { app: "flotilla-controller" },
      ports: [{ name: "http", port: 80, protocol: "TCP", targetPort }],
    },
  });
  const args = [
    "controller",
    "--storage-path=/data",
    "--storage-addr=:9090",
    `--storage-adv-addr=http://flotilla-artifacts.${o.namespace}.svc.cluster.local.`,
    "--health-addr=:9440",
    "--receiver-addr=:9292",
    `--runtime-namespace=${o.namespace}`,
    ...(o.multiTenant
      ? ["--no-cross-namespace-refs=true", "--no-remote-bases=true", "--default-service-account=default"]
      : []),
  ];
  return [
    ...servedCrds(),
    { apiVersion: "v1", kind: "Namespace", metadata: { name: o.namespace, labels } },
    { apiVersion: "v1", kind: "ServiceAccount", metadata: meta("flotilla-controller") },
    {
      apiVersion: "rbac.authorization.k8s.io/v1",
      kind: "ClusterRoleBinding",
      metadata: meta("flotilla-cluster-reconciler", false),
      roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "cluster-admin" },
      subjects: [{ kind: "ServiceAccount", name: "flotilla-controller", namespace: o.namespace }],
    },
    controllerService("flotilla-artifacts", "http"),
    controllerService("webhook-receiver", "http-webhook"),
    {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: meta("flotilla-controller"),
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: "flotilla-controller" } },
        template: {
          metadata: { labels: { app: "flotilla-controller" } },
          spec: {
            serviceAccountName: "flotilla-controller",
            terminationGracePeriodSeconds: 60,
            securityContext: {
              runAsNonRoot: true,
              runAsUser: 65534,
              fsGroup: 1337,
              seccompProfile: { type: "RuntimeDefault" },
            },
            containers: [
              {
                name: "manager",
                image: `${o.image}:${o.version}`,
                args,
                env: [{ name: "RUNTIME_NAMESPACE", valueFrom: { fieldRef: { fieldPath: "metadata.namespace" } } }],
                ports: [
                  { name: "http", containerPort: 9090, protocol: "TCP" },
                  { name: "healthz", containerPort: 9440, protocol: "TCP" },
                  { name: "http-webhook", containerPort: 9292, protocol: "TCP" },
                ],
                livenessProbe: { httpGet: { path: "/healthz", port: "healthz" } },
                readinessProbe: { httpGet: { path: "/readyz", port: "healthz" } },
                resources: { requests: { cpu: "100m", memory: "128Mi" }, limits: { memory: "1Gi" } },
                securityContext: {
                  allowPrivilegeEscalation: false,
                  readOnlyRootFilesystem: true,
                  capabilities: { drop: ["ALL"] },
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
    },
    ...networkPolicies(meta),
  ];
}
