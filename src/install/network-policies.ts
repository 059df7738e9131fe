// Flux's NetworkPolicies (manifests/policies: allow-egress, allow-scraping, allow-webhooks), fitted to
// flotilla's one controller pod: the artifact server (9090) — which has no authentication, as
// source-controller's has none — is reached only from pods of the controller's own namespace; the
// webhook receiver (9292) and the metrics port (8080, http-prom, as Flux's allow-scraping) from any
// namespace; the probes (9440) from the namespace only (the kubelet's probes come from the node, which
// NetworkPolicies always allow); egress is open (git, chart repositories, remote clusters). Flux opens
// every port of notification-controller to every namespace; here only the receiver's port is (issue 28 item 4).
import type { KubeObject } from "../api/meta/object.js";
import { CONTROLLER_LABELS } from "./controller-deployment.js";

const CONTROLLER = { matchLabels: CONTROLLER_LABELS };

export function networkPolicies(meta: (name: string) => KubeObject["metadata"]): KubeObject[] {
  const policy = (name: string, spec: Record<string, unknown>) =>
    ({ apiVersion: "networking.k8s.io/v1", kind: "NetworkPolicy", metadata: meta(name), spec }) as KubeObject;
  return [
    policy("allow-egress", {
      podSelector: {},
      ingress: [{ from: [{ podSelector: {} }] }],
      egress: [{}],
      policyTypes: ["Ingress", "Egress"],
    }),
    policy("allow-scraping", {
      podSelector: {},
      ingress: [{ from: [{ namespaceSelector: {} }], ports: [{ port: 8080, protocol: "TCP" }] }],
      policyTypes: ["Ingress"],
    }),
    policy("allow-webhooks", {
      podSelector: CONTROLLER,
      ingress: [{ from: [{ namespaceSelector: {} }], ports: [{ port: 9292, protocol: "TCP" }] }],
      policyTypes: ["Ingress"],
    }),
  ];
}
