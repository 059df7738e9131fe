// The demo's chart registry, the way Flux's own example repository serves charts now: one add-on chart
// written as a directory, packaged and pushed by the real helm (`helm push`, helm's OCI layout) to a local
// CNCF distribution registry on loopback (local/oci-registry.ts). An OCIRepository selects it and the
// FleetHelmRelease's children install it through `chartRef` (addon-releases.ts).
//
//   const charts = await startChartRegistry();   // charts.chartUrl → oci://127.0.0.1:PORT/charts/metrics-agent
//   await charts.close();
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { runHelm, withHelmHome } from "../binaries/helm/index.js";
import { startLocalRegistry } from "../local/oci-registry.js";
import { packageChart } from "../sources/helm/package.js";
import { makeWorkDir } from "../util/work-dir.js";

export const ADDON_CHART = { name: "metrics-agent", version: "1.0.0" };

/** A small agent every tenant cluster runs: a ServiceAccount, a ConfigMap and a Deployment. */
const addonChartFiles: Record<string, string> = {
  "Chart.yaml": `apiVersion: v2
name: ${ADDON_CHART.name}
version: ${ADDON_CHART.version}
appVersion: "1.0.0"
description: A metrics agent for every tenant cluster (the flotilla demo's add-on)
type: application
`,
  "values.yaml": `replicaCount: 1
cluster: unknown
`,
  "templates/serviceaccount.yaml": `apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ .Release.Name }}
`,
  "templates/configmap.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-config
data:
  cluster: {{ .Values.cluster | quote }}
`,
  "templates/deployment.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}
  labels:
    app.kubernetes.io/name: {{ .Chart.Name }}
    app.kubernetes.io/instance: {{ .Release.Name }}
spec:
  replicas: {{ .Values.replicaCount }}
  selector:
    matchLabels:
      app.kubernetes.io/instance: {{ .Release.Name }}
  template:
    metadata:
      labels:
        app.kubernetes.io/instance: {{ .Release.Name }}
    spec:
      serviceAccountName: {{ .Release.Name }}
      containers:
        - name: agent
          image: ghcr.io/example/metrics-agent:{{ .Chart.AppVersion }}
          envFrom:
            - configMapRef:
                name: {{ .Release.Name }}-config
`,
};

export interface ChartRegistry {
  /** oci://127.0.0.1:PORT/charts/<chart>: the repository an OCIRepository points at. */
  chartUrl: string;
  close(): Promise<void>;
}

export async function startChartRegistry(): Promise<ChartRegistry> {
  const base = makeWorkDir("flotilla-demo-charts-");
  const src = join(base, "src");
  for (const [file, text] of Object.entries(addonChartFiles)) {
    mkdirSync(dirname(join(src, file)), { recursive: true });
    writeFileSync(join(src, file), text);
  }
  const registry = await startLocalRegistry(join(base, "registry"));
  try {
    const tgz = join(base, `${ADDON_CHART.name}-${ADDON_CHART.version}.tgz`);
    writeFileSync(tgz, await packageChart(src, {}));
    await withHelmHome((home) => runHelm(["push", tgz, `${registry.url}/charts`, "--plain-http"], { home }));
  } catch (err) {
    await registry.stop();
    throw err;
  }
  return { chartUrl: `${registry.url}/charts/${ADDON_CHART.name}`, close: registry.stop };
}
