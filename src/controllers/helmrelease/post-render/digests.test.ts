// Expected digests computed by Go: encoding/json's Encoder on helm-controller's v2 PostRenderer and
// CommonMetadata structs (and fluxcd/pkg's kustomize Patch, Selector, Image) unmarshalled from the same JSON.
import { describe, expect, it } from "vitest";
import type { HelmRelease } from "../../../api/helm/helmrelease.js";
import { commonMetadataDigest, postRenderersDigest } from "./digests.js";

const hr = (spec: Partial<HelmRelease["spec"]>) =>
  ({ metadata: { name: "web", namespace: "apps" }, spec: { interval: "1m", ...spec } }) as HelmRelease;

describe("post-renderers and common metadata digests (helm-controller's postrender.Digest)", () => {
  it("digests the post-renderers as Go's JSON encoder writes them (struct order, omitempty, HTML escaped)", () => {
    const release = hr({
      postRenderers: [
        {
          kustomize: {
            patches: [
              {
                patch: "- op: add\n  path: /metadata/labels/x\n  value: <a&b>",
                target: { kind: "Deployment", name: "web" },
              },
              { patch: "apiVersion: v1\nkind: Service" },
            ],
            images: [{ name: "nginx", newTag: "1.2" }],
          },
        },
        { kustomize: {} },
        {},
      ],
    });
    expect(postRenderersDigest(release)).toBe(
      "sha256:ed97230f8059a77e8d36ddb17cb3b948f8956cd0cc333993f3729ac1fe39f564",
    );
    expect(postRenderersDigest(hr({ postRenderers: [] }))).toBe(
      "sha256:37517e5f3dc66819f61f5a7bb8ace1921282415f10551d2defa5c3eb0985b570",
    );
  });

  it("digests common metadata with map keys in Go's byte order", () => {
    const release = hr({
      commonMetadata: { labels: { b: "2", a: "1", "10": "x", "9": "y" }, annotations: { note: "\u2028é" } },
    });
    expect(commonMetadataDigest(release)).toBe(
      "sha256:bbee20bbc9abfa048d75cacf470388e9fb83710d7948e7c8579b3bcfad4a42a0",
    );
    expect(commonMetadataDigest(hr({ commonMetadata: {} }))).toBe(
      "sha256:ca3d163bab055381827226140568f3bef7eaac187cebd76878e0b63e9e442356",
    );
  });

  it("has no digest when the field is unset, as helm-controller leaves the status field empty", () => {
    expect(postRenderersDigest(hr({}))).toBeUndefined();
    expect(commonMetadataDigest(hr({}))).toBeUndefined();
  });
});
