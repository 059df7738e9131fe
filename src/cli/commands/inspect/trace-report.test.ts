import { describe, expect, it } from "vitest";
import { helmReleaseReport, kustomizationReport, type Obj } from "./trace-report.js";

const at = "2026-11-27T10:00:00Z";
const ready = (status: string, message: string) => ({
  conditions: [{ type: "Ready", status, message, lastTransitionTime: at }],
});
const oci = (extra: Partial<Obj> = {}): Obj => ({
  metadata: { name: "podinfo", namespace: "flux-system" },
  spec: { url: "oci://127.0.0.1:5000/manifests/podinfo", ref: { tag: "v1" } },
  status: {
    ...ready("True", "stored artifact for digest 'v1@sha256:abc'"),
    artifact: {
      revision: "v1@sha256:abc",
      metadata: {
        "org.opencontainers.image.source": "https://example.com/repo",
        "org.opencontainers.image.revision": "main@sha1:123",
      },
    },
  },
  ...extra,
});

describe("flux trace's OCIRepository block", () => {
  it("a Kustomization's OCIRepository source prints URL, tag, revision and the artifact's origin, as flux's template does", () => {
    const ks: Obj = {
      metadata: { name: "apps", namespace: "flux-system" },
      spec: { path: "./deploy" },
      status: { lastAppliedRevision: "v1@sha256:abc", ...ready("True", "Applied revision: v1@sha256:abc") },
    };
    const lines = kustomizationReport("Deployment/podinfo", "apps", ks, { oci: oci() }).split("\n");
    const block = lines.slice(lines.lastIndexOf("---"));
    expect(block.slice(0, 7)).toEqual([
      "---",
      "OCIRepository:   podinfo",
      "Namespace:       flux-system",
      "URL:             oci://127.0.0.1:5000/manifests/podinfo",
      "Tag:             v1",
      "Revision:        v1@sha256:abc",
      "Origin Revision: main@sha1:123",
    ]);
    expect(block[7]).toBe("Origin Source:   https://example.com/repo");
    expect(block[8]).toMatch(/^Status: {10}Last reconciled at /);
    expect(block[9]).toBe("Message:         stored artifact for digest 'v1@sha256:abc'");
  });

  it("a digest ref prints Digest, a missing origin annotation an empty line, a failed source 'Last reconciliation failed'", () => {
    const o = oci({
      spec: { url: "oci://r/x", ref: { digest: "sha256:abc" } },
      status: {
        ...ready("False", "failed to pull"),
        artifact: { revision: "sha256:abc", metadata: { "org.opencontainers.image.source": "s" } },
      },
    });
    const lines = kustomizationReport("ConfigMap/x", undefined, { metadata: { name: "k" } }, { oci: o }).split("\n");
    const from = lines.indexOf("Digest:          sha256:abc");
    expect(from).toBeGreaterThan(0);
    expect(lines.slice(from + 1, from + 4)).toEqual(["Revision:        sha256:abc", "", "Origin Source:   s"]);
    expect(lines[from + 4]).toMatch(/^Status: {10}Last reconciliation failed at /);
  });

  it("a HelmRelease's chartRef OCIRepository follows the release block, without origin lines", () => {
    const hr: Obj = {
      metadata: { name: "podinfo", namespace: "apps" },
      status: ready("True", "Helm install succeeded"),
    };
    const out = helmReleaseReport("Deployment/podinfo", "apps", hr, { oci: oci() });
    expect(out).toContain("---\nOCIRepository:   podinfo\nNamespace:       flux-system\n");
    expect(out).toContain("Revision:        v1@sha256:abc\nStatus:          Last reconciled at ");
    expect(out).not.toContain("Origin");
  });
});
