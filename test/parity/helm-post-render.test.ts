// The HelmRelease post-renderer through the real pinned helm (v4): preparePostRenderer installs the
// postrenderer/v1 plugin into a private helm home, `helm template` runs it — flotilla's own CLI
// (bin/flotilla.js, so dist/ must be built) — and the output carries the patches and origin labels.
// (In the parity project: it needs the built tools, not a fleet.)
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HelmRelease } from "../../src/api/helm/helmrelease.js";
import { HelmError, HelmHome, runHelm } from "../../src/binaries/helm/index.js";
import { postRenderFailure, preparePostRenderer } from "../../src/controllers/helmrelease/post-render/post-renderer.js";
import { parseYamlDocuments } from "../../src/kustomize/yaml/parse.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

let work: string;
let chart: string;
let emptyChart: string;
let home: HelmHome;

function writeChart(dir: string, templates: Record<string, string>): void {
  mkdirSync(join(dir, "templates"), { recursive: true });
  writeFileSync(join(dir, "Chart.yaml"), "apiVersion: v2\nname: web\nversion: 0.1.0\n");
  for (const [f, t] of Object.entries(templates)) writeFileSync(join(dir, "templates", f), t);
}

beforeAll(() => {
  work = makeWorkDir("flotilla-post-render-");
  chart = join(work, "web");
  writeChart(chart, {
    "deployment.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}
spec:
  replicas: 1
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.0
`,
    "hook.yaml": `apiVersion: batch/v1
kind: Job
metadata:
  name: {{ .Release.Name }}-migrate
  annotations:
    helm.sh/hook: pre-install
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: migrate
        image: busybox
`,
  });
  emptyChart = join(work, "empty");
  writeChart(emptyChart, { "NOTES.txt": "nothing to install\n" });
  home = new HelmHome();
});

afterAll(() => {
  home.remove();
  rmSync(work, { recursive: true, force: true });
});

const release = (spec: Partial<HelmRelease["spec"]>): HelmRelease =>
  ({
    apiVersion: "helm.toolkit.fluxcd.io/v2",
    kind: "HelmRelease",
    metadata: { name: "web", namespace: "apps" },
    spec: { interval: "1m", ...spec },
  }) as HelmRelease;

type Obj = {
  kind: string;
  metadata: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: { replicas?: number; template: { spec: { containers: { image: string }[] } } };
};

describe("the HelmRelease post-renderer as a helm v4 plugin", () => {
  it("gives every object helm renders, hooks included, the patches and the origin labels", async () => {
    const hr = release({
      postRenderers: [
        {
          kustomize: {
            patches: [
              { patch: '[{"op": "replace", "path": "/spec/replicas", "value": 3}]', target: { kind: "Deployment" } },
            ],
            images: [{ name: "nginx", newTag: "2.0" }],
          },
        },
      ],
      commonMetadata: { labels: { team: "blue" } },
    });
    const args = preparePostRenderer(home, hr);
    expect(args[0]).toBe("--post-renderer");
    const { stdout } = await runHelm(["template", "web", chart, "-n", "apps", ...args], { home, timeoutMs: 120_000 });
    const objects = parseYamlDocuments(stdout, "helm template").map((d) => d.value as unknown as Obj);
    expect(objects.map((o) => o.kind).sort()).toEqual(["Deployment", "Job"]);
    for (const o of objects) {
      expect(o.metadata.labels).toMatchObject({
        team: "blue",
        "helm.toolkit.fluxcd.io/name": "web",
        "helm.toolkit.fluxcd.io/namespace": "apps",
      });
      // helm takes its filename annotation back off after post-rendering
      expect(o.metadata.annotations?.["postrenderer.helm.sh/postrender-filename"]).toBeUndefined();
    }
    const deployment = objects.find((o) => o.kind === "Deployment")!;
    expect(deployment.spec.replicas).toBe(3);
    expect(deployment.spec.template.spec.containers[0]!.image).toBe("nginx:2.0");
    expect(postRenderFailure(home, hr)).toBeUndefined();
  }, 180_000);

  it("lets a chart that renders no object through (helm refuses an empty post-render)", async () => {
    const hr = release({});
    const { stdout } = await runHelm(["template", "web", emptyChart, "-n", "apps", ...preparePostRenderer(home, hr)], {
      home,
      timeoutMs: 120_000,
    });
    expect(parseYamlDocuments(stdout, "helm template")).toEqual([]);
  }, 180_000);

  it("fails helm when a patch cannot apply, and keeps the reason helm does not show", async () => {
    const hr = release({
      postRenderers: [
        { kustomize: { patches: [{ patch: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: nope\n" }] } },
      ],
    });
    const run = runHelm(["template", "web", chart, "-n", "apps", ...preparePostRenderer(home, hr)], {
      home,
      timeoutMs: 120_000,
    });
    await expect(run).rejects.toBeInstanceOf(HelmError);
    expect(postRenderFailure(home, hr)).toMatch(
      /^post-rendering HelmRelease apps\/web failed: HelmRelease apps\/web spec.postRenderers\[0\].kustomize: no resource matches strategic merge patch/,
    );
  }, 180_000);
});
