// Small object builders for tests.
import type { KubeObject } from "../../src/api/meta/object.js";

export const configMap = (
  namespace: string,
  name: string,
  data: Record<string, string> = {},
  annotations?: Record<string, string>,
): KubeObject => ({
  apiVersion: "v1",
  kind: "ConfigMap",
  metadata: { name, namespace, ...(annotations ? { annotations } : {}) },
  data,
});

export const deployment = (namespace: string, name: string, image: string, replicas = 1): KubeObject => ({
  apiVersion: "apps/v1",
  kind: "Deployment",
  metadata: { name, namespace },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: "main", image }] } },
  },
});

export const namespace = (name: string): KubeObject => ({ apiVersion: "v1", kind: "Namespace", metadata: { name } });
