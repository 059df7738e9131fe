// Writes kubeconfig documents in the shape kubeadm and Kamaji produce (credentials embedded as *-data).
import { stringify } from "yaml";

export interface KubeconfigSpec {
  clusterName: string;
  server: string;
  caPem: string;
  userName: string;
  certPem: string;
  keyPem: string;
  /** Defaults to "<user>@<cluster>", as kubeadm names it. */
  contextName?: string;
}

const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

export function renderKubeconfig(spec: KubeconfigSpec): string {
  const context = spec.contextName ?? `${spec.userName}@${spec.clusterName}`;
  return stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [
      { name: spec.clusterName, cluster: { server: spec.server, "certificate-authority-data": b64(spec.caPem) } },
    ],
    users: [
      {
        name: spec.userName,
        user: { "client-certificate-data": b64(spec.certPem), "client-key-data": b64(spec.keyPem) },
      },
    ],
    contexts: [{ name: context, context: { cluster: spec.clusterName, user: spec.userName } }],
    "current-context": context,
    preferences: {},
  });
}
