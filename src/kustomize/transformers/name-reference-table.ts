// Which fields refer to objects of which kind by name (kustomize's builtin name-reference table), so
// that renaming a ConfigMap (prefix, suffix, content hash) rewrites every reference to it.
import type { FieldSpec } from "./field-spec.js";

export interface Referral {
  /** Kind (and group) of the object referred to. */
  kind: string;
  group: string;
  referrers: FieldSpec[];
}

const WORKLOADS: [string, string, string][] = [
  // kind, group, path to the pod spec
  ["Deployment", "apps", "spec/template/spec"],
  ["ReplicaSet", "apps", "spec/template/spec"],
  ["DaemonSet", "apps", "spec/template/spec"],
  ["StatefulSet", "apps", "spec/template/spec"],
  ["Job", "batch", "spec/template/spec"],
  ["CronJob", "batch", "spec/jobTemplate/spec/template/spec"],
  ["Pod", "", "spec"],
  ["PodTemplate", "", "template/spec"],
];

const podFields = (paths: string[], kinds = WORKLOADS): FieldSpec[] =>
  kinds.flatMap(([kind, group, base]) => paths.map((p) => ({ kind, group, path: `${base}/${p}` })));

const WITH_RC: [string, string, string][] = [
  ...WORKLOADS.filter(([k]) => k !== "PodTemplate"),
  ["ReplicationController", "", "spec/template/spec"],
];

export const NAME_REFERENCES: Referral[] = [
  {
    kind: "ConfigMap",
    group: "",
    referrers: [
      ...podFields([
        "volumes/configMap/name",
        "containers/env/valueFrom/configMapKeyRef/name",
        "initContainers/env/valueFrom/configMapKeyRef/name",
        "containers/envFrom/configMapRef/name",
        "initContainers/envFrom/configMapRef/name",
        "volumes/projected/sources/configMap/name",
      ]),
      { kind: "Node", path: "spec/configSource/configMap" },
      { kind: "Role", group: "rbac.authorization.k8s.io", path: "rules/resourceNames" },
      { kind: "ClusterRole", group: "rbac.authorization.k8s.io", path: "rules/resourceNames" },
      { kind: "Ingress", path: "metadata/annotations/nginx.ingress.kubernetes.io\\/fastcgi-params-configmap" },
    ],
  },
  {
    kind: "Secret",
    group: "",
    referrers: [
      ...podFields([
        "volumes/secret/secretName",
        "containers/env/valueFrom/secretKeyRef/name",
        "initContainers/env/valueFrom/secretKeyRef/name",
        "containers/envFrom/secretRef/name",
        "initContainers/envFrom/secretRef/name",
        "imagePullSecrets/name",
        "volumes/projected/sources/secret/name",
      ]),
      { kind: "Ingress", path: "spec/tls/secretName" },
      { kind: "Ingress", path: "metadata/annotations/ingress.kubernetes.io\\/auth-secret" },
      { kind: "Ingress", path: "metadata/annotations/nginx.ingress.kubernetes.io\\/auth-secret" },
      { kind: "Ingress", path: "metadata/annotations/nginx.ingress.kubernetes.io\\/auth-tls-secret" },
      { kind: "ServiceAccount", group: "", path: "imagePullSecrets/name" },
      ...["secretName", "adminSecretName", "userSecretName", "secretRef"].map((p) => ({
        kind: "StorageClass",
        path: `parameters/${p}`,
      })),
      { kind: "Role", group: "rbac.authorization.k8s.io", path: "rules/resourceNames" },
      { kind: "ClusterRole", group: "rbac.authorization.k8s.io", path: "rules/resourceNames" },
      {
        kind: "Service",
        group: "serving.knative.dev",
        version: "v1",
        path: "spec/template/spec/containers/env/valueFrom/secretKeyRef/name",
      },
      { kind: "PersistentVolume", path: "spec/azureFile/secretName" },
    ],
  },
  {
    kind: "Service",
    group: "",
    referrers: [
      { kind: "StatefulSet", group: "apps", path: "spec/serviceName" },
      { kind: "Ingress", path: "spec/rules/http/paths/backend/serviceName" },
      { kind: "Ingress", path: "spec/backend/serviceName" },
      { kind: "Ingress", path: "spec/rules/http/paths/backend/service/name" },
      { kind: "Ingress", path: "spec/defaultBackend/service/name" },
      { kind: "APIService", group: "apiregistration.k8s.io", path: "spec/service/name" },
      { kind: "ValidatingWebhookConfiguration", path: "webhooks/clientConfig/service" },
      { kind: "MutatingWebhookConfiguration", path: "webhooks/clientConfig/service" },
    ],
  },
  {
    kind: "Role",
    group: "rbac.authorization.k8s.io",
    referrers: [{ kind: "RoleBinding", group: "rbac.authorization.k8s.io", path: "roleRef/name" }],
  },
  {
    kind: "ClusterRole",
    group: "rbac.authorization.k8s.io",
    referrers: [
      { kind: "RoleBinding", group: "rbac.authorization.k8s.io", path: "roleRef/name" },
      { kind: "ClusterRoleBinding", group: "rbac.authorization.k8s.io", path: "roleRef/name" },
    ],
  },
  {
    kind: "ServiceAccount",
    group: "",
    referrers: [
      { kind: "RoleBinding", group: "rbac.authorization.k8s.io", path: "subjects" },
      { kind: "ClusterRoleBinding", group: "rbac.authorization.k8s.io", path: "subjects" },
      ...podFields(["serviceAccountName"], WITH_RC),
    ],
  },
  {
    kind: "PersistentVolumeClaim",
    group: "",
    referrers: podFields(["volumes/persistentVolumeClaim/claimName"], WITH_RC),
  },
  {
    kind: "PersistentVolume",
    group: "",
    referrers: [
      { kind: "PersistentVolumeClaim", path: "spec/volumeName" },
      { kind: "ClusterRole", group: "rbac.authorization.k8s.io", path: "rules/resourceNames" },
    ],
  },
  {
    kind: "StorageClass",
    group: "storage.k8s.io",
    referrers: [
      { kind: "PersistentVolume", path: "spec/storageClassName" },
      { kind: "PersistentVolumeClaim", path: "spec/storageClassName" },
      { kind: "StatefulSet", group: "apps", path: "spec/volumeClaimTemplates/spec/storageClassName" },
    ],
  },
  { kind: "PriorityClass", group: "scheduling.k8s.io", referrers: podFields(["priorityClassName"], WITH_RC) },
  { kind: "IngressClass", group: "networking.k8s.io", referrers: [{ kind: "Ingress", path: "spec/ingressClassName" }] },
  {
    kind: "ValidatingAdmissionPolicy",
    group: "admissionregistration.k8s.io",
    referrers: [{ kind: "ValidatingAdmissionPolicyBinding", path: "spec/policyName" }],
  },
  ...["Deployment", "ReplicationController", "ReplicaSet", "StatefulSet"].map((kind) => ({
    kind,
    group: kind === "ReplicationController" ? "" : "apps",
    referrers: [{ kind: "HorizontalPodAutoscaler", path: "spec/scaleTargetRef/name" }],
  })),
];
