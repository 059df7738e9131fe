// The demo's Helm chart repository: one add-on chart written as a directory, packaged and indexed by
// the real helm (through the helm wrapper), and served over plain HTTP on loopback — what a platform
// team's chart museum is, in-process. The HelmReleases the demo creates install it into every tenant.
//
//   const charts = await startChartRepository();   // charts.url → http://127.0.0.1:PORT
//   await charts.close();
import { createReadStream, existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join, resolve, sep } from "node:path";
import { runHelm, withHelmHome } from "../binaries/helm/index.js";
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

export interface ChartRepository {
  /** http://127.0.0.1:PORT (index at /index.yaml). */
  url: string;
  close(): Promise<void>;
}

export async function startChartRepository(): Promise<ChartRepository> {
  const base = makeWorkDir("flotilla-demo-charts-");
  const src = join(base, "src");
  const served = join(base, "repo");
  mkdirSync(served);
  for (const [file, text] of Object.entries(addonChartFiles)) {
    mkdirSync(dirname(join(src, file)), { recursive: true });
    writeFileSync(join(src, file), text);
  }

  const server = createServer((req, res) => {
    req.resume();
    const file = resolve(served, "." + new URL(req.url ?? "/", "http://127.0.0.1").pathname);
    if (req.method !== "GET" || !file.startsWith(served + sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "Content-Length": String(statSync(file).size) });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => ok());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () => new Promise<void>((ok) => server.close(() => ok()));
  try {
    const tgz = await packageChart(src, {});
    writeFileSync(join(served, `${ADDON_CHART.name}-${ADDON_CHART.version}.tgz`), tgz);
    await withHelmHome((home) => runHelm(["repo", "index", served, "--url", url], { home }));
  } catch (err) {
    await close();
    throw err;
  }
  return { url, close };
}
