// What an OCIRepository says about bad input, against a real registry: a tag that does not exist
// (naming the tags that do), a semver range nothing matches (naming the newest tags), a layer that is
// not what layerSelector asks for, an artifact over --artifact-max-size or --artifact-max-files, an
// unreachable registry. Each time the previous artifact stays, and a Kustomization applying it to a
// tenant plane keeps its objects (reconciled again, still Ready at the old revision, nothing pruned).
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../src/local/ports.js";
import { planeCluster, testNamespace } from "../support/fleet-context.js";
import { conditionOf, type OciEnv, readyOf, startOciEnv } from "../support/oci-env.js";
import { configMapYaml, pushFiles, pushRawLayer } from "../support/oci-push.js";
import { type OciRegistry, startOciRegistry } from "../support/oci-registry.js";

const LIMITS = { maxSize: 64 * 1024, maxFiles: 200 };
let reg: OciRegistry;
let env: OciEnv;
let remote: string;
let good: { revision: string; digest: string };
const tenant1 = planeCluster("tenant1");
const CHART_LAYER = "application/vnd.cncf.helm.chart.content.v1.tar+gzip";

beforeAll(async () => {
  reg = await startOciRegistry();
  env = await startOciEnv({ prefix: "oci-bad", artifactLimits: LIMITS });
  remote = await testNamespace(tenant1.client, "oci-bad");
  const to = { host: reg.host, repository: "fleet/app" };
  const digest = await pushFiles(to, "1.0.0", { "cm.yaml": configMapYaml("kept", remote, { v: "1" }) });
  await pushFiles(to, "1.1.0", { "cm.yaml": configMapYaml("kept", remote, { v: "1.1" }) });
  await pushFiles(to, "latest", { "cm.yaml": configMapYaml("kept", remote, { v: "latest" }) });
  // 96 KiB that gzip cannot shrink: over the 64 KiB limit before a byte of it is pulled.
  await pushFiles(to, "2.0.0-huge", { "blob.bin": randomBytes(96 * 1024) });
  // 300 tiny files: a small layer, but more files than --artifact-max-files unpacked.
  await pushFiles(to, "2.0.0-many", Object.fromEntries([...Array(300).keys()].map((i) => [`f/${i}.txt`, `${i}\n`])));
  await env.createOci("app", { url: `${reg.url}/fleet/app`, ref: { tag: "1.0.0" }, insecure: true });
  const ready = await env.waitOci("app", "True");
  good = { revision: ready.status!.artifact!.revision, digest: ready.status!.artifact!.digest };
  expect(good.revision).toBe(`1.0.0@${digest}`);
  const secret = await env.copyAdminKubeconfig("tenant1");
  await env.createKs("app", {
    path: "./",
    sourceRef: { kind: "OCIRepository", name: "app" },
    kubeConfig: { secretRef: { name: secret, key: "admin.conf" } },
  });
  await env.waitReady("app");
});

afterAll(async () => {
  await env?.stop();
  await reg?.stop();
});

/** A merge patch replacing spec.ref as a whole (tag 1.0.0 unless `spec` says otherwise). */
const withRef = (spec: Record<string, unknown>) => ({
  ...spec,
  ref: { tag: null, semver: null, semverFilter: null, digest: null, ...((spec.ref as object) ?? { tag: "1.0.0" }) },
});

/** The OCIRepository with `spec` is not Ready for `reason`; its artifact and the Kustomization's objects stay. */
async function refused(spec: Record<string, unknown>, reason: string) {
  await env.patchOci("app", withRef({ layerSelector: null, url: `${reg.url}/fleet/app`, ...spec }));
  const obj = await env.waitOci("app", "False", reason);
  expect(obj.status!.artifact).toMatchObject(good);
  expect(conditionOf(obj, "FetchFailed")).toMatchObject({ status: "True", reason });
  // The consumer, reconciled now, still applies the previous artifact: nothing pruned, nothing changed.
  await env.reconcileNow("app");
  const ks = await env.getKs("app");
  expect(readyOf(ks)?.status).toBe("True");
  expect(ks.status?.lastAppliedRevision).toBe(good.revision);
  const cm = await tenant1.client.get<{ data: Record<string, string> }>(`/api/v1/namespaces/${remote}/configmaps/kept`);
  expect(cm.data).toEqual({ v: "1" });
  return { message: readyOf(obj)!.message, obj };
}

describe("an OCIRepository given bad input keeps its previous artifact and says what is wrong", () => {
  it("a tag that does not exist: the tags that exist, newest first", async () => {
    const { message } = await refused({ ref: { tag: "9.9.9" } }, "OCIArtifactPullFailed");
    expect(message).toBe(
      `failed to determine artifact digest: tag '9.9.9' not found in ${reg.host}/fleet/app; ` +
        "tags that exist, newest first: 2.0.0-many, 2.0.0-huge, 1.1.0, 1.0.0, latest",
    );
  });

  it("a semver range nothing matches: the newest tags", async () => {
    const { message } = await refused({ ref: { semver: ">=3.0.0" } }, "ReadOperationFailed");
    expect(message).toBe(
      `failed to determine the artifact tag for '${reg.url}/fleet/app': no match found for semver: >=3.0.0; ` +
        "newest tags: 2.0.0-many, 2.0.0-huge, 1.1.0, 1.0.0, latest",
    );
  });

  it("a layer that is not what layerSelector asks for: the media types the artifact has", async () => {
    const { message, obj } = await refused(
      { ref: { tag: "1.1.0" }, layerSelector: { mediaType: CHART_LAYER } },
      "OCIArtifactLayerOperationFailed",
    );
    expect(message).toBe(
      `failed to find layer with media type '${CHART_LAYER}' in artifact (its layers are ` +
        "'application/vnd.cncf.flux.content.v1.tar+gzip'): fix spec.layerSelector.mediaType or push the artifact with that layer",
    );
    expect(conditionOf(obj, "ArtifactOutdated")).toMatchObject({ status: "True", reason: "NewRevision" });
    expect(conditionOf(obj, "ArtifactOutdated")?.message).toMatch(
      new RegExp(`^new revision '1\\.1\\.0@sha256:[0-9a-f]{64}' for '${reg.host}/fleet/app:1\\.1\\.0'$`),
    );
  });

  it("a layer that is not a tarball, where extract is asked for", async () => {
    await pushRawLayer({ host: reg.host, repository: "fleet/app" }, "raw", "application/x-text", Buffer.from("hi\n"));
    const { message } = await refused({ ref: { tag: "raw" } }, "OCIArtifactLayerOperationFailed");
    expect(message).toBe(
      "failed to extract layer contents from artifact: archive is not valid gzip: incorrect header check",
    );
  });

  it("an artifact over --artifact-max-size is not pulled; one over --artifact-max-files is not unpacked", async () => {
    const huge = await refused({ ref: { tag: "2.0.0-huge" } }, "OCIArtifactLayerOperationFailed");
    expect(huge.message).toMatch(
      new RegExp(
        `^refused to pull layer sha256:[0-9a-f]{64} of '${reg.host}/fleet/app:2\\.0\\.0-huge': it is 96\\.\\d KiB, ` +
          "over the 64 KiB limit set by --artifact-max-size; push a smaller artifact or raise the limit$",
      ),
    );
    const many = await refused({ ref: { tag: "2.0.0-many" } }, "OCIArtifactLayerOperationFailed");
    expect(many.message).toMatch(
      new RegExp(
        `^failed to extract layer contents from artifact: the artifact of OCIRepository ${env.ns}/app ` +
          "\\(2\\.0\\.0-many@sha256:[0-9a-f]{64}\\) holds more than 200 files, the limit set by --artifact-max-files",
      ),
    );
  });

  it("an unreachable registry: named, with the artifact kept", async () => {
    const port = await freePort();
    const { message } = await refused({ url: `oci://127.0.0.1:${port}/fleet/app` }, "OCIArtifactPullFailed");
    expect(message).toMatch(/^failed to determine artifact digest: /);
    expect(message).toContain(`registry 127.0.0.1:${port} is unreachable: `);
  });

  it("put right again, it is Ready on the same artifact without storing it again, and says it recovered", async () => {
    await env.patchOci("app", withRef({ layerSelector: null, url: `${reg.url}/fleet/app` }));
    const obj = await env.waitOci("app", "True");
    expect(obj.status!.artifact).toMatchObject(good);
    expect(conditionOf(obj, "FetchFailed")).toBeUndefined();
    expect(conditionOf(obj, "ArtifactOutdated")).toBeUndefined();
    const events = await env.events("app");
    expect(events.filter((e) => e.reason === "NewArtifact")).toHaveLength(1);
    // Flux's recovery event: the same artifact, said again once the failure is over.
    expect(events).toContainEqual(
      expect.objectContaining({
        type: "Normal",
        reason: "Succeeded",
        message: expect.stringMatching(
          new RegExp(`^stored artifact with revision '1\\.0\\.0@sha256:[0-9a-f]{64}' from `),
        ),
      }),
    );
  });
});
