// Charts of particular shapes for HelmRelease tests, added to a ChartRepo (chart-repo.ts: written as
// directories, packaged and indexed by the real helm):
//
//   await certManagerLike(repo);                       // cert-manager v1.10.1, as the Kamaji guide installs it
//   await hookFailingChart(repo, "hooked", "1.0.0");   // its post-install/post-upgrade hook Job fails
//   await failingRenderChart(repo, "broken", "1.0.0"); // {{ fail }}: helm cannot render it
//   await benchChart(repo);                            // Flux's benchmark app: ConfigMap, SA, Service, 0-replica Deployment
//   await clusterScopedChart(repo, "reader", "1.0.0"); // one ClusterRole
//
// How the hook fails on kwok: every Pod kwok runs becomes Ready, and a Job's Pod then Succeeded, so a
// hook Job cannot fail by exiting non-zero. Instead its image is under the reserved `.invalid` domain,
// which flotilla's kwok stage (tools/kwok-stages/pod-image-pull-failure.yaml) keeps Pending in
// ImagePullBackOff, and the Job has activeDeadlineSeconds: 1, so the Job controller fails it
// (DeadlineExceeded) a second after it starts: a real, deterministic runtime failure of the hook, seen
// by helm as it would be on a real cluster. `--set hook.fail=false` gives it a pullable image and no
// deadline: the Job then completes, so a test can mend the release by changing values.
import type { ChartRepo } from "./chart-repo.js";

export interface ChartRef {
  name: string;
  version: string;
}

/** The message of failingRenderChart's {{ fail }}, as helm reports it (after "execution error at (...): "). */
export const RENDER_FAILURE = "this chart refuses to render (set failRender: false)";
/** The image of hookFailingChart's failing hook Job: it can never be pulled. */
export const UNPULLABLE_IMAGE = "registry.invalid/flotilla/hook:never";

const lines = (...l: string[]) => l.join("\n") + "\n";
const NO_CONFIGMAP = { "templates/configmap.yaml": null };

async function add(repo: ChartRepo, chart: ChartRef, files: Record<string, string | null>, appVersion?: string) {
  await repo.addChart(chart.name, chart.version, { files, ...(appVersion ? { appVersion } : {}) });
  return chart;
}

// cert-manager's own naming: the release name when it already contains the chart's name, else
// <release>-<chart>; the other components append -cainjector and -webhook.
const CERT_MANAGER_HELPERS = lines(
  '{{- define "cert-manager.fullname" -}}',
  '{{- if .Values.fullnameOverride }}{{ .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}',
  '{{- else if contains .Chart.Name .Release.Name }}{{ .Release.Name | trunc 63 | trimSuffix "-" }}',
  '{{- else }}{{ printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" }}{{- end }}',
  "{{- end }}",
);

const certManagerDeployment = (suffix: string, replicas: string, image: string) =>
  lines(
    "apiVersion: apps/v1",
    "kind: Deployment",
    "metadata:",
    `  name: {{ include "cert-manager.fullname" . }}${suffix}`,
    "  namespace: {{ .Release.Namespace }}",
    "  labels:",
    `    app.kubernetes.io/name: cert-manager${suffix}`,
    "    app.kubernetes.io/instance: {{ .Release.Name }}",
    "spec:",
    `  replicas: {{ ${replicas} }}`,
    "  selector:",
    "    matchLabels:",
    `      app.kubernetes.io/name: cert-manager${suffix}`,
    "      app.kubernetes.io/instance: {{ .Release.Name }}",
    "  template:",
    "    metadata:",
    "      labels:",
    `        app.kubernetes.io/name: cert-manager${suffix}`,
    "        app.kubernetes.io/instance: {{ .Release.Name }}",
    "    spec:",
    '      serviceAccountName: {{ include "cert-manager.fullname" . }}',
    "      containers:",
    `        - name: cert-manager${suffix}`,
    `          image: "quay.io/jetstack/${image}:{{ .Chart.AppVersion }}"`,
  );

/**
 * cert-manager v1.10.1 as the Kamaji guide installs it: Deployments <fullname>, <fullname>-cainjector
 * and <fullname>-webhook (the first with `replicaCount` replicas, default 1), the webhook's Service
 * and a ServiceAccount, all in the release namespace; values.schema.json requires replicaCount to be
 * an integer.
 */
export function certManagerLike(repo: ChartRepo): Promise<ChartRef> {
  const schema = {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    required: ["replicaCount"],
    properties: { replicaCount: { type: "integer", minimum: 0 } },
  };
  return add(
    repo,
    { name: "cert-manager", version: "v1.10.1" },
    {
      ...NO_CONFIGMAP,
      "values.yaml": lines("replicaCount: 1", 'fullnameOverride: ""'),
      "values.schema.json": JSON.stringify(schema, null, 2) + "\n",
      "templates/_helpers.tpl": CERT_MANAGER_HELPERS,
      "templates/deployment.yaml": certManagerDeployment("", ".Values.replicaCount", "cert-manager-controller"),
      "templates/cainjector-deployment.yaml": certManagerDeployment("-cainjector", "1", "cert-manager-cainjector"),
      "templates/webhook-deployment.yaml": certManagerDeployment("-webhook", "1", "cert-manager-webhook"),
      "templates/webhook-service.yaml": lines(
        "apiVersion: v1",
        "kind: Service",
        "metadata:",
        '  name: {{ include "cert-manager.fullname" . }}-webhook',
        "  namespace: {{ .Release.Namespace }}",
        "spec:",
        "  type: ClusterIP",
        "  selector:",
        "    app.kubernetes.io/name: cert-manager-webhook",
        "    app.kubernetes.io/instance: {{ .Release.Name }}",
        "  ports:",
        "    - name: https",
        "      port: 443",
        "      targetPort: 10250",
        "      protocol: TCP",
      ),
      "templates/serviceaccount.yaml": lines(
        "apiVersion: v1",
        "kind: ServiceAccount",
        "metadata:",
        '  name: {{ include "cert-manager.fullname" . }}',
        "  namespace: {{ .Release.Namespace }}",
      ),
    },
    "v1.10.1",
  );
}

/**
 * The default ConfigMap, and a post-install/post-upgrade hook Job that fails on kwok (see the top of the
 * file). `hook.hang: true` keeps the Job's Pod pending without a deadline: helm waits until its timeout,
 * an upgrade held in flight for as long as a test needs.
 */
export function hookFailingChart(repo: ChartRepo, name: string, version: string): Promise<ChartRef> {
  return add(
    repo,
    { name, version },
    {
      "values.yaml": lines("message: hello", "hook:", "  fail: true", "  hang: false"),
      "templates/post-hook-job.yaml": lines(
        "apiVersion: batch/v1",
        "kind: Job",
        "metadata:",
        "  name: {{ .Release.Name }}-post-hook",
        "  namespace: {{ .Release.Namespace }}",
        "  annotations:",
        '    "helm.sh/hook": post-install,post-upgrade',
        '    "helm.sh/hook-delete-policy": before-hook-creation',
        "spec:",
        "  backoffLimit: 0",
        "  {{- if and .Values.hook.fail (not .Values.hook.hang) }}",
        "  activeDeadlineSeconds: 1",
        "  {{- end }}",
        "  template:",
        "    spec:",
        "      restartPolicy: Never",
        "      containers:",
        "        - name: hook",
        `          image: {{ if or .Values.hook.fail .Values.hook.hang }}${UNPULLABLE_IMAGE}{{ else }}busybox:1.36{{ end }}`,
        '          command: ["sh", "-c", "exit 0"]',
      ),
    },
  );
}

/** A chart helm cannot render ({{ fail }}) unless `failRender: false`; then it renders the default ConfigMap. */
export function failingRenderChart(repo: ChartRepo, name: string, version: string): Promise<ChartRef> {
  return add(
    repo,
    { name, version },
    {
      "values.yaml": lines("message: hello", "failRender: true"),
      "templates/fail.yaml": lines(
        "{{- if .Values.failRender }}",
        `{{- fail ${JSON.stringify(RENDER_FAILURE)} }}`,
        "{{- end }}",
      ),
    },
  );
}

/**
 * Flux's benchmark app (bench/support/controller-bench.mjs appFiles) as a chart: ConfigMap,
 * ServiceAccount, Service and a 0-replica Deployment, all named after the release; the ConfigMap
 * carries `message`, so changing it is an upgrade.
 */
export function benchChart(repo: ChartRepo, name = "bench", version = "1.0.0"): Promise<ChartRef> {
  const meta = ["metadata:", "  name: {{ .Release.Name }}", "  namespace: {{ .Release.Namespace }}"];
  return add(
    repo,
    { name, version },
    {
      "values.yaml": lines("message: hello"),
      "templates/configmap.yaml": lines(
        "apiVersion: v1",
        "kind: ConfigMap",
        ...meta,
        "data:",
        "  release: {{ .Release.Name }}",
        "  message: {{ .Values.message | quote }}",
      ),
      "templates/serviceaccount.yaml": lines("apiVersion: v1", "kind: ServiceAccount", ...meta),
      "templates/service.yaml": lines(
        "apiVersion: v1",
        "kind: Service",
        ...meta,
        "spec:",
        "  selector:",
        "    app: {{ .Release.Name }}",
        "  ports:",
        "    - name: http",
        "      port: 80",
        "      targetPort: 8080",
        "      protocol: TCP",
      ),
      "templates/deployment.yaml": lines(
        "apiVersion: apps/v1",
        "kind: Deployment",
        ...meta,
        "spec:",
        "  replicas: 0",
        "  selector:",
        "    matchLabels:",
        "      app: {{ .Release.Name }}",
        "  template:",
        "    metadata:",
        "      labels:",
        "        app: {{ .Release.Name }}",
        "    spec:",
        "      serviceAccountName: {{ .Release.Name }}",
        "      containers:",
        "        - name: app",
        "          image: nginx:1.27",
      ),
    },
  );
}

/** One cluster-scoped object: ClusterRole <release>-reader (reads ConfigMaps). */
export function clusterScopedChart(repo: ChartRepo, name: string, version: string): Promise<ChartRef> {
  return add(
    repo,
    { name, version },
    {
      ...NO_CONFIGMAP,
      "templates/clusterrole.yaml": lines(
        "apiVersion: rbac.authorization.k8s.io/v1",
        "kind: ClusterRole",
        "metadata:",
        "  name: {{ .Release.Name }}-reader",
        "rules:",
        '  - apiGroups: [""]',
        '    resources: ["configmaps"]',
        '    verbs: ["get", "list", "watch"]',
      ),
    },
  );
}

/** A Deployment whose replica count is the value `replicas` and whose label says the chart's version (for diffs). */
export function replicasChart(repo: ChartRepo, name = "web", version = "1.0.0"): Promise<ChartRef> {
  return add(
    repo,
    { name, version },
    {
      "values.yaml": lines("replicas: 0"),
      "templates/deployment.yaml": lines(
        "apiVersion: apps/v1",
        "kind: Deployment",
        "metadata:",
        "  name: {{ .Release.Name }}",
        "  namespace: {{ .Release.Namespace }}",
        "  labels:",
        "    chart-version: {{ .Chart.Version | quote }}",
        "spec:",
        "  replicas: {{ .Values.replicas }}",
        "  selector:",
        "    matchLabels:",
        "      app: {{ .Release.Name }}",
        "  template:",
        "    metadata:",
        "      labels:",
        "        app: {{ .Release.Name }}",
        "    spec:",
        "      containers:",
        "        - name: app",
        "          image: nginx:1.27",
      ),
    },
  );
}
