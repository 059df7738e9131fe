// Everything needed to run flotilla in a cluster, as `flotilla install --export` prints it: the CRDs,
// the namespace, RBAC (Flux's model: the controller is cluster-admin and impersonates tenants), the
// artifact Service, the webhook receiver Service (Flux's name, webhook-receiver, port 80), the event
// endpoint's Service (Flux's name, notification-controller, port 80: what Flux controllers of a mixed
// installation post their events to, http://notification-controller.<ns>.svc.cluster.local./), the
// controller Deployment (controller-deployment.ts), optionally its PodDisruptionBudget, and Flux's
// NetworkPolicies (the artifact server reachable from the namespace only).
import { servedCrds } from "../api/flux-crds.js";
import type { KubeObject } from "../api/meta/object.js";
import { CONTROLLER_LABELS, controllerDeployment, controllerDisruptionBudget } from "./controller-deployment.js";
import { networkPolicies } from "./network-policies.js";

/** Where `npm run image` publishes flotilla (Flux's --registry: the images are <registry>/<name>:<version>). */
export const DEFAULT_REGISTRY = "ghcr.io/flotilla-dev";
export const IMAGE_NAME = "flotilla";

export interface InstallOptions {
  namespace: string;
  /** The controller image, a full reference (registry/repository:tag or @sha256:digest). */
  image: string;
  /** flotilla's version, the app.kubernetes.io/version label. */
  version: string;
  /** Flux's multi-tenancy lockdown flags. */
  multiTenant?: boolean;
  /** Flux's --image-pull-secret: a Secret of the namespace the pod pulls its image with. */
  imagePullSecret?: string;
  /** Flux's --network-policy (default true): allow-egress, allow-scraping, allow-webhooks. */
  networkPolicy?: boolean;
  /** A PodDisruptionBudget for the controller (default off). */
  podDisruptionBudget?: boolean;
}

/** The controller's arguments: Flux's flags with the in-cluster addresses of the Services below. */
export function controllerArgs(o: Pick<InstallOptions, "namespace" | "multiTenant">): string[] {
  return [
    "controller",
    "--storage-path=/data",
    "--storage-addr=:9090",
    `--storage-adv-addr=http://flotilla-artifacts.${o.namespace}.svc.cluster.local.`,
    "--health-addr=:9440",
    "--metrics-addr=:8080",
    "--receiver-addr=:9292",
    "--events-addr=:9091",
    `--runtime-namespace=${o.namespace}`,
    ...(o.multiTenant
      ? ["--no-cross-namespace-refs=true", "--no-remote-bases=true", "--default-service-account=default"]
      : []),
  ];
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
  // The artifact, webhook receiver and event Services: port 80 on the controller's named container port.
  const controllerService = (name: string, targetPort: string): KubeObject => ({
    apiVersion: "v1",
    kind: "Service",
    metadata: meta(name),
    spec: {
      type: "ClusterIP",
      selector: CONTROLLER_LABELS,
      ports: [{ name: "http", port: 80, protocol: "TCP", targetPort }],
    },
  });
  const deployment = { namespace: o.namespace, image: o.image, args: controllerArgs(o) };
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
    controllerService("notification-controller", "http-events"),
    controllerDeployment(
      o.imagePullSecret ? { ...deployment, imagePullSecret: o.imagePullSecret } : deployment,
      meta("flotilla-controller"),
    ),
    ...(o.podDisruptionBudget ? [controllerDisruptionBudget(meta("flotilla-controller"))] : []),
    ...(o.networkPolicy === false ? [] : networkPolicies(meta)),
  ];
}
