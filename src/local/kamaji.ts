// The shapes Kamaji gives a hosted tenant control plane, reproduced for the local fleet's tenant
// planes: a TenantControlPlane object and a `<tenant>-admin-kubeconfig` Secret in the management
// plane. Discovery features are written against these shapes, so they must match real Kamaji.
// Our CRD is deliberately minimal (group kamaji.clastix.io, v1alpha1) and preserves unknown fields.

export const TENANTS_NAMESPACE = "tenants";
const KAMAJI_GROUP = "kamaji.clastix.io";

export const adminKubeconfigSecretName = (tenant: string) => `${tenant}-admin-kubeconfig`;

export const tenantControlPlaneCrd = {
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: `tenantcontrolplanes.${KAMAJI_GROUP}` },
  spec: {
    group: KAMAJI_GROUP,
    scope: "Namespaced",
    names: {
      kind: "TenantControlPlane",
      listKind: "TenantControlPlaneList",
      plural: "tenantcontrolplanes",
      singular: "tenantcontrolplane",
      shortNames: ["tcp"],
    },
    versions: [
      {
        name: "v1alpha1",
        served: true,
        storage: true,
        subresources: { status: {} },
        additionalPrinterColumns: [
          { name: "Version", type: "string", jsonPath: ".spec.kubernetes.version" },
          { name: "Status", type: "string", jsonPath: ".status.kubernetesResources.version.status" },
          { name: "Control-Plane endpoint", type: "string", jsonPath: ".status.controlPlaneEndpoint" },
          { name: "Kubeconfig", type: "string", jsonPath: ".status.kubeconfig.admin.secretName" },
          { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
        ],
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: {
              spec: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
              status: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
            },
          },
        },
      },
    ],
  },
};

export interface TenantPlaneFacts {
  tenant: string;
  port: number;
  kubernetesVersion: string;
}

export function tenantControlPlane(f: TenantPlaneFacts) {
  return {
    apiVersion: `${KAMAJI_GROUP}/v1alpha1`,
    kind: "TenantControlPlane",
    metadata: { name: f.tenant, namespace: TENANTS_NAMESPACE, labels: { "flotilla.dev/local-fleet": "true" } },
    spec: {
      kubernetes: { version: f.kubernetesVersion },
      controlPlane: { service: { serviceType: "ClusterIP" } },
      networkProfile: { address: "127.0.0.1", port: f.port },
    },
  };
}

export function tenantControlPlaneStatus(f: TenantPlaneFacts) {
  return {
    apiVersion: `${KAMAJI_GROUP}/v1alpha1`,
    kind: "TenantControlPlane",
    metadata: { name: f.tenant, namespace: TENANTS_NAMESPACE },
    status: {
      controlPlaneEndpoint: `127.0.0.1:${f.port}`,
      kubernetesResources: { version: { version: f.kubernetesVersion, status: "Ready" } },
      kubeconfig: {
        admin: { secretName: adminKubeconfigSecretName(f.tenant) },
      },
    },
  };
}

/** Kamaji's admin kubeconfig Secret: key admin.conf (and super-admin.conf), with Kamaji's labels. */
export function adminKubeconfigSecret(tenant: string, adminConf: string, superAdminConf: string) {
  return {
    apiVersion: "v1",
    kind: "Secret",
    type: "Opaque",
    metadata: {
      name: adminKubeconfigSecretName(tenant),
      namespace: TENANTS_NAMESPACE,
      labels: { "kamaji.clastix.io/name": tenant, "kamaji.clastix.io/component": "admin-kubeconfig" },
    },
    data: {
      "admin.conf": Buffer.from(adminConf).toString("base64"),
      "super-admin.conf": Buffer.from(superAdminConf).toString("base64"),
    },
  };
}
