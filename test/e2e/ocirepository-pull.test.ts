// OCIRepository against a real CNCF distribution registry on loopback: a Flux artifact pushed with
// Flux's format becomes Ready with source-controller's revision, message, artifact, metadata and
// event; an unchanged digest is not pulled again; digest refs, layerSelector copy and spec.ignore; and
// a Kustomization consuming it applies to a tenant plane, following a new semver tag.
import { createHash } from "node:crypto";
import { rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, planeCluster, testNamespace } from "../support/fleet-context.js";
import { conditionOf, type OciEnv, readyOf, startOciEnv } from "../support/oci-env.js";
import { configMapYaml, pushFiles } from "../support/oci-push.js";
import { type OciRegistry, startOciRegistry } from "../support/oci-registry.js";
import { artifactFiles } from "../support/source-controllers.js";

let reg: OciRegistry;
let env: OciEnv;
const tenant1 = planeCluster("tenant1");
const to = (repository: string) => ({ host: reg.host, repository });

beforeAll(async () => {
  reg = await startOciRegistry();
  env = await startOciEnv({ prefix: "oci-pull" });
});

afterAll(async () => {
  await env?.stop();
  await reg?.stop();
});

describe("an OCIRepository pulling a Flux artifact from a real registry", () => {
  it("becomes Ready with Flux's revision <tag>@sha256:<manifest digest>, message, artifact and NewArtifact event", async () => {
    const digest = await pushFiles(
      to("apps/web"),
      "1.0.0",
      { "deploy/cm.yaml": configMapYaml("web", "x", { a: "1" }) },
      {
        source: "https://example.com/web.git",
        revision: "main@sha1:abc123",
      },
    );
    await env.createOci("web", { url: `${reg.url}/apps/web`, ref: { tag: "1.0.0" }, insecure: true });
    const obj = await env.waitOci("web", "True");
    const revision = `1.0.0@${digest}`;
    const artifact = obj.status!.artifact!;
    expect(readyOf(obj)).toMatchObject({ reason: "Succeeded", message: `stored artifact for digest '${revision}'` });
    expect(conditionOf(obj, "ArtifactInStorage")).toMatchObject({ status: "True", reason: "Succeeded" });
    expect(artifact).toMatchObject({ revision, path: `ocirepository/${env.ns}/web/${digest}.tar.gz` });
    expect(obj.status!.url).toBe(artifact.url);
    expect(artifact.metadata).toMatchObject({
      "org.opencontainers.image.source": "https://example.com/web.git",
      "org.opencontainers.image.revision": "main@sha1:abc123",
    });
    // The digest is the stored tarball's, and it holds the pushed files.
    const bytes = Buffer.from(await (await fetch(artifact.url)).arrayBuffer());
    expect(artifact.digest).toBe(`sha256:${createHash("sha256").update(bytes).digest("hex")}`);
    expect(artifact.size).toBe(bytes.length);
    expect(await artifactFiles(artifact.url)).toEqual({ "deploy/cm.yaml": configMapYaml("web", "x", { a: "1" }) });
    const events = await env.events("web");
    expect(events).toContainEqual(
      expect.objectContaining({
        type: "Normal",
        reason: "NewArtifact",
        message:
          `stored artifact with revision '${revision}' from '${reg.url}/apps/web', ` +
          "origin source 'https://example.com/web.git', origin revision 'main@sha1:abc123'",
      }),
    );
  });

  it("an unchanged digest is not pulled again: with the layer gone from the registry it stays Ready on the same file", async () => {
    const digest = await pushFiles(to("apps/still"), "v1", { "cm.yaml": configMapYaml("still", "x", { a: "1" }) });
    await env.createOci("still", { url: `${reg.url}/apps/still`, ref: { tag: "v1" }, insecure: true });
    const first = await env.waitOci("still", "True");
    const stored = join(env.storage.root, first.status!.artifact!.path);
    const before = statSync(stored);
    // The layer's bytes leave the registry: a reconcile that downloaded them would fail.
    const manifest = (await (
      await fetch(`http://${reg.host}/v2/apps/still/manifests/${digest}`, {
        headers: { accept: "application/vnd.oci.image.manifest.v1+json" },
      })
    ).json()) as { layers: { digest: string }[] };
    rmSync(reg.blobPath(manifest.layers[0]!.digest));
    const gone = await fetch(`http://${reg.host}/v2/apps/still/blobs/${manifest.layers[0]!.digest}`);
    expect(gone.status).not.toBe(200);
    const again = await env.reconcileOci("still");
    expect(readyOf(again)).toMatchObject({ status: "True", message: `stored artifact for digest 'v1@${digest}'` });
    expect(again.status!.artifact).toEqual(first.status!.artifact);
    const after = statSync(stored);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect((await env.events("still")).filter((e) => e.reason === "NewArtifact")).toHaveLength(1);
  });

  it("a digest ref's revision is the digest alone; layerSelector copy stores the layer as pushed; spec.ignore leaves files out", async () => {
    const files = { "app/cm.yaml": configMapYaml("d", "x", { a: "1" }), "README.md": "docs\n" };
    const digest = await pushFiles(to("apps/pinned"), "2.0.0", files);
    await env.createOci("pinned", { url: `${reg.url}/apps/pinned`, ref: { digest }, insecure: true, ignore: "*.md" });
    const pinned = await env.waitOci("pinned", "True");
    expect(pinned.status!.artifact!.revision).toBe(digest);
    expect(pinned.status!.observedIgnore).toBe("*.md");
    expect(Object.keys(await artifactFiles(pinned.status!.artifact!.url))).toEqual(["app/cm.yaml"]);

    await env.createOci("copied", {
      url: `${reg.url}/apps/pinned`,
      ref: { tag: "2.0.0" },
      insecure: true,
      layerSelector: { mediaType: "application/vnd.cncf.flux.content.v1.tar+gzip", operation: "copy" },
    });
    const copied = await env.waitOci("copied", "True");
    expect(copied.status!.observedLayerSelector).toEqual({
      mediaType: "application/vnd.cncf.flux.content.v1.tar+gzip",
      operation: "copy",
    });
    const manifest = (await (
      await fetch(`http://${reg.host}/v2/apps/pinned/manifests/2.0.0`, {
        headers: { accept: "application/vnd.oci.image.manifest.v1+json" },
      })
    ).json()) as { layers: { digest: string }[] };
    expect(copied.status!.artifact!.digest).toBe(manifest.layers[0]!.digest);
  });
});

describe("a Kustomization with sourceRef.kind OCIRepository", () => {
  it("applies the artifact to a tenant plane through a kubeconfig Secret, and converges on a newer semver tag", async () => {
    const remote = await testNamespace(tenant1.client, "oci-ks");
    const push = (tag: string, v: string) =>
      pushFiles(to("fleet/apps"), tag, { "apps/cm.yaml": configMapYaml("oci-app", remote, { version: v }) });
    const first = await push("1.0.0", "1");
    await push("0.9.0", "old");
    await env.createOci("fleet", {
      url: `${reg.url}/fleet/apps`,
      ref: { semver: ">=0.1.0" },
      insecure: true,
      interval: "2s",
    });
    const secret = await env.copyAdminKubeconfig("tenant1");
    await env.createKs("apps", {
      path: "./apps",
      sourceRef: { kind: "OCIRepository", name: "fleet" },
      kubeConfig: { secretRef: { name: secret, key: "admin.conf" } },
    });
    const ks = await env.waitReady("apps");
    expect(ks.status?.lastAppliedRevision).toBe(`1.0.0@${first}`);
    const cm = () =>
      tenant1.client.get<{ data: Record<string, string> }>(`/api/v1/namespaces/${remote}/configmaps/oci-app`);
    expect((await cm()).data).toEqual({ version: "1" });

    // A newer version is pushed: the OCIRepository's interval finds it, the Kustomization follows.
    const second = await push("1.1.0", "2");
    const source = await eventually("the OCIRepository at 1.1.0", async () => {
      const o = await env.getOci("fleet");
      return o.status?.artifact?.revision === `1.1.0@${second}` ? o : undefined;
    });
    expect(readyOf(source)?.status).toBe("True");
    await eventually("the Kustomization at 1.1.0", async () => {
      const k = await env.getKs("apps");
      return k.status?.lastAppliedRevision === `1.1.0@${second}`;
    });
    expect((await cm()).data).toEqual({ version: "2" });
  });
});

describe("the OCIRepository API as Flux serves it", () => {
  it("a v1beta2 manifest from older docs applies as written and is reconciled (stored as v1)", async () => {
    const digest = await pushFiles(to("apps/old"), "latest", { "cm.yaml": configMapYaml("old", "x", { a: "1" }) });
    await env.mgmt.client.create(`/apis/source.toolkit.fluxcd.io/v1beta2/namespaces/${env.ns}/ocirepositories`, {
      apiVersion: "source.toolkit.fluxcd.io/v1beta2",
      kind: "OCIRepository",
      metadata: { name: "old" },
      spec: { url: `${reg.url}/apps/old`, interval: "10m", insecure: true },
    });
    // No ref: the tag is latest, as in Flux.
    expect((await env.waitOci("old", "True")).status!.artifact!.revision).toBe(`latest@${digest}`);
  });

  it("a cloud provider or notation verification is Stalled with UnsupportedField, naming the field; suspend stops reconciling", async () => {
    await env.createOci("aws", { url: `${reg.url}/apps/old`, insecure: true, provider: "aws" });
    const aws = await env.waitOci("aws", "False", "UnsupportedField");
    expect(readyOf(aws)!.message).toMatch(/^spec\.provider 'aws' is not supported by flotilla: /);
    expect(conditionOf(aws, "Stalled")?.status).toBe("True");
    await env.createOci("verify", {
      url: `${reg.url}/apps/old`,
      insecure: true,
      verify: { provider: "notation", secretRef: { name: "trust" } },
    });
    const verify = await env.waitOci("verify", "False", "UnsupportedField");
    expect(readyOf(verify)!.message).toMatch(/^spec\.verify\.provider 'notation' is not supported by flotilla: /);

    // Suspended: a requested reconcile is acknowledged but nothing is pulled (the new tag is not seen).
    await env.patchOci("old", { suspend: true });
    await pushFiles(to("apps/old"), "latest", { "cm.yaml": configMapYaml("old", "x", { a: "2" }) });
    const before = (await env.getOci("old")).status!.artifact;
    const handled = await env.reconcileOci("old");
    expect(handled.status!.artifact).toEqual(before);
  });
});
