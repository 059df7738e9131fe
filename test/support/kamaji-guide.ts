// The Kamaji guide's manifests (../shared/seeds, "Manage Tenant Control Planes with GitOps") as written:
// a v1beta2 HelmRepository `jetstack` in flux-system and a v2beta1 HelmRelease `tenant1-cert-manager` in
// tenants installing cert-manager v1.10.1 into tenant1 through tenant1-admin-kubeconfig/admin.conf.
// Only the chart repository's URL is a loopback one; a test running a controller of its own may add a
// shard label to each object (and to the HelmChart made from the template), to keep to its objects in
// the fleet the e2e files share.
export function kamajiGuideManifests(url: string, shard?: string): string {
  const labels = (indent: string) => (shard ? `\n${indent}labels: {flotilla.dev/shard: ${shard}}` : "");
  return `
---
apiVersion: source.toolkit.fluxcd.io/v1beta2
kind: HelmRepository
metadata:
  name: jetstack
  namespace: flux-system${labels("  ")}
spec:
  interval: 1m
  url: ${url}
---
apiVersion: helm.toolkit.fluxcd.io/v2beta1
kind: HelmRelease
metadata:
  name: tenant1-cert-manager
  namespace: tenants${labels("  ")}
spec:
  interval: 5m
  kubeConfig:
    secretRef:
      name: tenant1-admin-kubeconfig
      key: admin.conf
  targetNamespace: default
  chart:${shard ? `\n    metadata:${labels("      ")}` : ""}
    spec:
      chart: cert-manager
      version: v1.10.1
      sourceRef:
        kind: HelmRepository
        name: jetstack
        namespace: flux-system
      interval: 1m
  values:
    replicaCount: 2
`;
}
