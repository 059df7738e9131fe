// A HelmRelease's preview render (`flotilla plan`, `build|diff helmrelease`) goes through the same
// postrenderer/v1 plugin its install and upgrade run, with the real pinned helm: hooks and manifests
// post-rendered together, helm's ownership metadata added, and a failing post-renderer named in its own
// words (helm only says the plugin exited). dist/ must be built (the plugin runs it).
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HelmRelease } from "../../src/api/helm/helmrelease.js";
import { PostRenderError } from "../../src/controllers/helmrelease/post-render/render.js";
import { renderRelease } from "../../src/controllers/helmrelease/render-apply.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

let work: string;
let chart: string;

beforeAll(() => {
  work = makeWorkDir("flotilla-release-render-");
  chart = join(work, "web");
  mkdirSync(join(chart, "templates"), { recursive: true });
  writeFileSync(join(chart, "Chart.yaml"), "apiVersion: v2\nname: web\nversion: 0.1.0\n");
  writeFileSync(
    join(chart, "templates", "cm.yaml"),
    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata:\n  color: {{ .Values.color }}\n",
  );
  writeFileSync(
    join(chart, "templates", "hook.yaml"),
    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}-hook\n  annotations:\n    helm.sh/hook: pre-install\n",
  );
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const release = (spec: Partial<HelmRelease["spec"]> = {}): HelmRelease =>
  ({
    apiVersion: "helm.toolkit.fluxcd.io/v2",
    kind: "HelmRelease",
    metadata: { name: "web", namespace: "apps" },
    spec: { interval: "1m", ...spec },
  }) as HelmRelease;

describe("a HelmRelease rendered for a preview, the way its controller installs it", () => {
  it("post-renders through the install's plugin, hooks included, and adds what helm adds on install", async () => {
    const hr = release({ targetNamespace: "web", commonMetadata: { labels: { team: "a" } } });
    const objects = await renderRelease(hr, chart, { color: "blue" }, async () => true);
    expect(objects.map((o) => `${o.metadata.namespace}/${o.metadata.name}`).sort()).toEqual([
      "web/web-web",
      "web/web-web-hook",
    ]);
    for (const o of objects) {
      expect(o.metadata.labels).toMatchObject({
        team: "a",
        "helm.toolkit.fluxcd.io/name": "web",
        "helm.toolkit.fluxcd.io/namespace": "apps",
        "app.kubernetes.io/managed-by": "Helm",
      });
      expect(o.metadata.annotations).toMatchObject({
        "meta.helm.sh/release-name": "web-web",
        "meta.helm.sh/release-namespace": "web",
      });
    }
    expect(objects.find((o) => o.metadata.name === "web-web")).toMatchObject({ data: { color: "blue" } });
  }, 180_000);

  it("fails with the post-renderer's own message, as the render did in-process", async () => {
    const hr = release({
      postRenderers: [
        { kustomize: { patches: [{ patch: "apiVersion: v1\nkind: Secret\nmetadata:\n  name: nope\n" }] } },
      ],
    });
    const render = renderRelease(hr, chart, { color: "blue" }, async () => true);
    await expect(render).rejects.toBeInstanceOf(PostRenderError);
    await expect(render).rejects.toThrow(
      /^post-rendering HelmRelease apps\/web failed: HelmRelease apps\/web spec.postRenderers\[0\].kustomize: no resource matches strategic merge patch/,
    );
  }, 180_000);
});
