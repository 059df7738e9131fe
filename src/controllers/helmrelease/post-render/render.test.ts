import { describe, expect, it } from "vitest";
import type { HelmRelease, PostRenderer } from "../../../api/helm/helmrelease.js";
import { parseYamlDocuments } from "../../../kustomize/yaml/parse.js";
import { postRender, PostRenderError } from "./render.js";

// What helm hands a post-renderer: its documents merged, each annotated with the template it came from.
const RENDERED = `apiVersion: v1
kind: Service
metadata:
  name: web
  annotations:
    postrenderer.helm.sh/postrender-filename: 'chart/templates/service.yaml'
spec:
  ports:
  - port: 80
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
  annotations:
    postrenderer.helm.sh/postrender-filename: 'chart/templates/deployment.yaml'
spec:
  replicas: 1
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.0
`;

const hr = (spec: Partial<HelmRelease["spec"]>) =>
  ({
    apiVersion: "helm.toolkit.fluxcd.io/v2",
    kind: "HelmRelease",
    metadata: { name: "web", namespace: "apps" },
    spec: { interval: "1m", ...spec },
  }) as HelmRelease;

type Obj = {
  kind: string;
  metadata: { labels?: Record<string, unknown>; annotations?: Record<string, string> };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test reads deep, untyped fields
  spec: any;
};
type KustomizeSection = NonNullable<PostRenderer["kustomize"]>;
/** RENDERED through one post-renderer per kustomize section, in order, with the rest of the spec. */
const renderedWith = (sections: KustomizeSection[], spec: Partial<HelmRelease["spec"]> = {}) =>
  postRender(RENDERED, hr({ postRenderers: sections.map((kustomize) => ({ kustomize })), ...spec }));

const objects = (text: string) => parseYamlDocuments(text, "out").map((d) => d.value as unknown as Obj);
const deployment = (text: string) => objects(text).find((o) => o.kind === "Deployment")!;

describe("postRender (helm-controller's post-render pipeline)", () => {
  it("adds the origin labels to every object, keeping helm's order and filename annotations", () => {
    const out = objects(postRender(RENDERED, hr({})));
    expect(out.map((o) => o.kind)).toEqual(["Service", "Deployment"]);
    for (const o of out) {
      expect(o.metadata.labels).toMatchObject({
        "helm.toolkit.fluxcd.io/name": "web",
        "helm.toolkit.fluxcd.io/namespace": "apps",
      });
      expect(o.metadata.annotations?.["postrenderer.helm.sh/postrender-filename"]).toMatch(/^chart\/templates\//);
    }
    // metadata only: the pod template is not labelled
    expect(deployment(postRender(RENDERED, hr({}))).spec.template.metadata.labels).toEqual({ app: "web" });
  });

  it("applies a strategic merge patch with a target, a JSON 6902 patch and images", () => {
    const out = renderedWith([
      {
        patches: [
          {
            patch: "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: any\nspec:\n  replicas: 3\n",
            target: { kind: "Deployment" },
          },
          {
            patch: '[{"op": "add", "path": "/spec/ports/0/name", "value": "http"}]',
            target: { kind: "Service", name: "web" },
          },
        ],
        images: [{ name: "nginx", newName: "registry.local/nginx", newTag: "2.0" }],
      },
    ]);
    expect(deployment(out).spec.replicas).toBe(3);
    expect(deployment(out).spec.template.spec.containers[0].image).toBe("registry.local/nginx:2.0");
    expect(objects(out)[0]!.spec.ports[0]).toEqual({ name: "http", port: 80 });
  });

  it("reads the v2beta patchesStrategicMerge and patchesJson6902", () => {
    const out = renderedWith([
      {
        patchesStrategicMerge: [
          { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "web" }, spec: { replicas: 2 } },
        ],
        patchesJson6902: [
          {
            target: { kind: "Deployment", name: "web" },
            patch: [{ op: "replace", path: "/spec/replicas", value: 4 }],
          },
        ],
      },
    ]);
    // kustomize's order: strategic merge first, JSON 6902 after
    expect(deployment(out).spec.replicas).toBe(4);
  });

  it("runs post-renderers in order, then commonMetadata, then the origin labels, which win", () => {
    const out = renderedWith(
      [
        {
          patches: [
            { patch: '[{"op": "replace", "path": "/spec/replicas", "value": 5}]', target: { kind: "Deployment" } },
          ],
        },
        {
          patches: [
            {
              patch: '[{"op": "copy", "from": "/spec/replicas", "path": "/metadata/labels/replicas"}]',
              target: { kind: "Deployment" },
            },
          ],
        },
      ],
      {
        commonMetadata: {
          labels: { team: "blue", "helm.toolkit.fluxcd.io/name": "spoofed" },
          annotations: { owner: "ops" },
        },
      },
    );
    const d = deployment(out);
    expect(d.metadata.labels).toEqual({
      app: "web",
      replicas: 5,
      team: "blue",
      "helm.toolkit.fluxcd.io/name": "web",
      "helm.toolkit.fluxcd.io/namespace": "apps",
    });
    expect(d.metadata.annotations?.owner).toBe("ops");
    expect(d.spec.template.metadata.annotations).toBeUndefined();
  });

  it("says which HelmRelease and post-renderer a patch failed in", () => {
    const bad = hr({
      postRenderers: [
        { kustomize: { patches: [{ patch: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: nope\n" }] } },
      ],
    });
    expect(() => postRender(RENDERED, bad)).toThrow(PostRenderError);
    expect(() => postRender(RENDERED, bad)).toThrow(/HelmRelease apps\/web spec.postRenderers\[0\].kustomize/);
  });

  it("renders nothing to nothing", () => {
    expect(postRender("", hr({}))).toBe("");
  });
});
