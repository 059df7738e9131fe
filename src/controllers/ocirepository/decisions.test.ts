// The OCIRepository's pure decisions: which tag a semver range picks, which layer is stored, when a
// stored artifact is built again, which URLs and fields are refused.
import { describe, expect, it } from "vitest";
import type { OCIRepository, OCIRepositorySpec } from "../../api/source/oci-repository.js";
import { unsupportedField } from "../kit/unsupported.js";
import { contentConfigChanged } from "./content-config.js";
import { selectLayer } from "./layer-content.js";
import { pickSemverTag, repositoryOf } from "./resolve.js";
import { OCI_REPOSITORY_UNSUPPORTED } from "./unsupported-fields.js";

const repo = (spec: Partial<OCIRepositorySpec>, status: OCIRepository["status"] = {}): OCIRepository => ({
  apiVersion: "source.toolkit.fluxcd.io/v1",
  kind: "OCIRepository",
  metadata: { name: "app", namespace: "ns" },
  spec: { url: "oci://127.0.0.1:5000/app", interval: "1m", ...spec },
  status,
});
const layer = (mediaType: string) => ({ mediaType, digest: `sha256:${"a".repeat(64)}`, size: 1 });

describe("an OCIRepository's semver ref", () => {
  it("picks the highest tag in the range, skipping tags that are not versions", () => {
    expect(pickSemverTag(["latest", "1.0.0", "1.2.0", "2.0.0", "v1.3.0"], repo({ ref: { semver: "1.x" } }))).toBe(
      "v1.3.0",
    );
  });

  it("considers only the tags semverFilter matches", () => {
    const obj = repo({ ref: { semver: ">=1.0.0-0", semverFilter: ".*-rc.*" } });
    expect(pickSemverTag(["1.0.0", "2.0.0", "1.1.0-rc.1", "1.2.0-rc.1"], obj)).toBe("1.2.0-rc.1");
  });

  it("reads a chart's `_` as `+` when the layer selector asks for a Helm chart (Helm's tag mapping)", () => {
    const obj = repo({
      ref: { semver: ">=1.0.0" },
      layerSelector: { mediaType: "application/vnd.cncf.helm.chart.content.v1.tar+gzip" },
    });
    expect(pickSemverTag(["1.0.0", "1.0.1_build.2"], obj)).toBe("1.0.1_build.2");
  });

  it("says which tags exist, newest first, when nothing matches", () => {
    expect(() => pickSemverTag(["1.0.0", "latest", "2.1.0", "2.0.0"], repo({ ref: { semver: ">=3.0.0" } }))).toThrow(
      "no match found for semver: >=3.0.0; newest tags: 2.1.0, 2.0.0, 1.0.0, latest",
    );
    expect(() => pickSemverTag([], repo({ ref: { semver: "1.x" } }))).toThrow(
      "no match found for semver: 1.x; the repository has no tags",
    );
  });
});

describe("an OCIRepository's layer selector", () => {
  const layers = [layer("application/vnd.cncf.flux.content.v1.tar+gzip"), layer("application/x-other")];

  it("takes the first layer by default, else the first of the media type asked for", () => {
    expect(selectLayer(repo({}), layers)).toBe(layers[0]);
    expect(selectLayer(repo({ layerSelector: { mediaType: "application/x-other" } }), layers)).toBe(layers[1]);
  });

  it("names the media type asked for and the ones the artifact has when none matches", () => {
    expect(() => selectLayer(repo({ layerSelector: { mediaType: "application/x-chart" } }), layers)).toThrow(
      "failed to find layer with media type 'application/x-chart' in artifact (its layers are " +
        "'application/vnd.cncf.flux.content.v1.tar+gzip', 'application/x-other')",
    );
    expect(() => selectLayer(repo({}), [])).toThrow("no layers found in artifact");
  });
});

describe("an OCIRepository's stored artifact", () => {
  it("is built again when spec.ignore or spec.layerSelector differ from what it was built with", () => {
    expect(contentConfigChanged(repo({}, {}))).toBe(false);
    expect(contentConfigChanged(repo({ ignore: "*.md" }, { observedIgnore: "*.md" }))).toBe(false);
    expect(contentConfigChanged(repo({ ignore: "*.md" }, {}))).toBe(true);
    const copy = { mediaType: "a", operation: "copy" as const };
    expect(contentConfigChanged(repo({ layerSelector: copy }, { observedLayerSelector: { ...copy } }))).toBe(false);
    expect(contentConfigChanged(repo({ layerSelector: copy }, { observedLayerSelector: { mediaType: "a" } }))).toBe(
      true,
    );
    expect(contentConfigChanged(repo({}, { observedLayerSelector: copy }))).toBe(true);
  });
});

describe("an OCIRepository's URL and fields", () => {
  it("refuses a tag or digest in spec.url (Stalled, URLInvalid), as source-controller does", () => {
    for (const [url, why] of [
      ["oci://127.0.0.1:5000/app:v1", "URL must not contain a tag; remove ':v1'"],
      [`oci://127.0.0.1:5000/app@sha256:${"b".repeat(64)}`, "URL must not contain a digest"],
      ["https://127.0.0.1:5000/app", "must start with oci://"],
    ]) {
      let failure: { reason?: string; stalled?: boolean; message?: string } = {};
      try {
        repositoryOf(repo({ url }));
      } catch (err) {
        failure = err as typeof failure;
      }
      expect([failure.reason, failure.stalled]).toEqual(["URLInvalid", true]);
      expect(failure.message).toContain(`URL validation failed for '${url}': `);
      expect(failure.message).toContain(why);
    }
    expect(repositoryOf(repo({ url: "oci://127.0.0.1:5000/org/app" }))).toEqual({
      registry: "127.0.0.1:5000",
      repository: "org/app",
    });
  });

  it("refuses a cloud provider, notation and keyless cosign by name, and passes every implemented field (verify with a key included)", () => {
    expect(unsupportedField(repo({ provider: "aws" }).spec, OCI_REPOSITORY_UNSUPPORTED)?.message).toMatch(
      /^spec\.provider 'aws' is not supported by flotilla: use spec\.provider: generic/,
    );
    const notation = repo({ verify: { provider: "notation", secretRef: { name: "trust" } } }).spec;
    expect(unsupportedField(notation, OCI_REPOSITORY_UNSUPPORTED)?.message).toMatch(
      /^spec\.verify\.provider 'notation' is not supported by flotilla: sign with cosign/,
    );
    const keyless = repo({ verify: { provider: "cosign" } }).spec;
    expect(unsupportedField(keyless, OCI_REPOSITORY_UNSUPPORTED)?.message).toMatch(
      /^spec\.verify without secretRef \(keyless cosign\) is not supported by flotilla: it needs the public Sigstore/,
    );
    const all = repo({
      provider: "generic",
      ref: { tag: "v1", semver: "1.x", semverFilter: ".*", digest: `sha256:${"c".repeat(64)}` },
      layerSelector: { mediaType: "m", operation: "copy" },
      secretRef: { name: "s" },
      serviceAccountName: "sa",
      certSecretRef: { name: "c" },
      proxySecretRef: { name: "p" },
      insecure: true,
      ignore: "*.md",
      suspend: false,
      timeout: "30s",
      verify: { provider: "cosign", secretRef: { name: "cosign-pub" } },
    }).spec;
    expect(unsupportedField(all, OCI_REPOSITORY_UNSUPPORTED)).toBeUndefined();
  });
});
