// Flux and flotilla read each other's OCI artifacts, against the real distribution registry: the real
// flux CLI (v2.9.5, built from github.com/fluxcd/flux2/v2) pushes and flotilla pulls, flotilla pushes
// and flux pulls, and `flux build artifact` and flotilla's buildArtifact give the same tar stream.
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RegistryClient, sha256Digest } from "../../src/sources/oci/client.js";
import {
  buildArtifact,
  FLUX_CONFIG_MEDIA_TYPE,
  FLUX_CONTENT_MEDIA_TYPE,
  FLUX_DEFAULT_IGNORE_PATHS,
  fluxConfig,
  pullArtifact,
  pushArtifact,
} from "../../src/sources/oci/flux-artifact.js";
import { OCI_MANIFEST_MEDIA_TYPE } from "../../src/sources/oci/manifest.js";
import { parseOciUrl } from "../../src/sources/oci/reference.js";
import { readTarball } from "../../src/sources/artifact/tarball.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { type OciRegistry, runFlux, startOciRegistry } from "../support/oci-registry.js";

const MiB = 1024 * 1024;
const SOURCE = "https://github.com/example/app";
let reg: OciRegistry;
let scratch: string;
let src: string;

/** Files under `dir`, relative, with content and permission bits (what an artifact carries). */
function filesOf(dir: string): Record<string, { content: string; mode: string }> {
  const out: Record<string, { content: string; mode: string }> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p)] = { content: readFileSync(p, "utf8"), mode: (statSync(p).mode & 0o777).toString(8) };
    }
  };
  walk(dir);
  return out;
}

function tarFiles(layer: Buffer): Record<string, { content: string; mode: string }> {
  const out: Record<string, { content: string; mode: string }> = {};
  for (const e of readTarball(layer))
    if (e.type === "file") out[e.path] = { content: e.content.toString("utf8"), mode: e.mode.toString(8) };
  return out;
}

beforeAll(async () => {
  reg = await startOciRegistry();
  scratch = makeWorkDir("oci-interop-");
  src = join(scratch, "src");
  mkdirSync(join(src, "apps/web"), { recursive: true });
  mkdirSync(join(src, ".git"), { recursive: true });
  writeFileSync(join(src, "kustomization.yaml"), "resources:\n  - apps/web/deploy.yaml\n");
  writeFileSync(join(src, "apps/web/deploy.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\n");
  writeFileSync(join(src, "apps/web/hook.sh"), "#!/bin/sh\necho hi\n");
  writeFileSync(join(src, ".git/HEAD"), "ref: refs/heads/main\n"); // ignored by both by default
  chmodSync(join(src, "apps/web/hook.sh"), 0o755);
});
afterAll(async () => {
  await reg?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const expectedFiles = () => {
  const files = filesOf(src);
  delete files[".git/HEAD"];
  return files;
};

describe("flux pushes, flotilla pulls", () => {
  it("pullArtifact yields flux's files and meta, and flux's layer holds flotilla's tar stream byte for byte", async () => {
    const url = `${reg.url}/interop/from-flux:v1`;
    const push = await runFlux([
      "push", "artifact", url, `--path=${src}`, `--source=${SOURCE}`, "--revision=main@sha1:0123abc",
      "--annotations=org.example/team=web", "--insecure-registry", "--output=json",
    ]); // prettier-ignore
    expect(push.code, push.stderr).toBe(0);
    const pushed = JSON.parse(push.stdout) as { digest: string };

    const client = new RegistryClient(reg.host, { insecure: true });
    const pulled = await pullArtifact(client, parseOciUrl(url), 10 * MiB);
    expect(pulled.digest).toBe(pushed.digest);
    expect(tarFiles(pulled.layer)).toEqual(expectedFiles());
    expect(pulled.meta.source).toBe(SOURCE);
    expect(pulled.meta.revision).toBe("main@sha1:0123abc");
    expect(pulled.meta.annotations["org.example/team"]).toBe("web");
    expect(pulled.meta.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(pulled.manifest.mediaType).toBe(OCI_MANIFEST_MEDIA_TYPE);
    expect(pulled.manifest.config.mediaType).toBe(FLUX_CONFIG_MEDIA_TYPE);
    expect(pulled.manifest.config.digest).toBe(sha256Digest(fluxConfig())); // the same config blob, always
    expect(pulled.manifest.layers.map((l) => l.mediaType)).toEqual([FLUX_CONTENT_MEDIA_TYPE]);

    const ours = await buildArtifact(src, FLUX_DEFAULT_IGNORE_PATHS);
    expect(gunzipSync(pulled.layer).equals(gunzipSync(ours))).toBe(true);
  });

  it("with --reproducible, flux's config blob is byte for byte the one flotilla writes, and so is the manifest (Go's escaping included) but for the gzip", async () => {
    const url = `${reg.url}/interop/reproducible:v1`;
    const source = `${SOURCE}?ref=main&path=<apps>`; // Go's JSON writes \u0026, \u003c, \u003e
    const push = await runFlux([
      "push", "artifact", url, `--path=${src}`, `--source=${source}`, "--revision=v1@sha1:fff", "--reproducible", "--insecure-registry",
    ]); // prettier-ignore
    expect(push.code, push.stderr).toBe(0);
    const client = new RegistryClient(reg.host, { insecure: true });
    const theirs = await client.getManifest("interop/reproducible", "v1");
    const theirConfig = await client.getBlob("interop/reproducible", theirs.manifest.config.digest, MiB);
    expect(theirConfig.toString()).toBe(fluxConfig().toString());

    const content = await buildArtifact(src, FLUX_DEFAULT_IGNORE_PATHS);
    await pushArtifact(client, parseOciUrl(`${reg.url}/interop/reproducible:ours`), content, {
      source,
      revision: "v1@sha1:fff",
      created: "1970-01-01T00:00:00Z",
    });
    const ours = await client.getManifest("interop/reproducible", "ours");
    const sameLayer = (raw: Buffer, l: { digest: string; size: number }) =>
      raw.toString().replace(l.digest, "<layer>").replace(`"size":${l.size}`, '"size":<n>');
    expect(theirs.raw.toString()).toContain("\\u0026path=\\u003capps\\u003e");
    expect(sameLayer(ours.raw, ours.manifest.layers[0]!)).toBe(sameLayer(theirs.raw, theirs.manifest.layers[0]!));

    // Flux's manifest bytes written back as they are: a new tag names the same digest.
    const retagged = await client.putManifestRaw("interop/reproducible", "retagged", theirs.raw, theirs.mediaType);
    expect(retagged).toBe(theirs.digest);
    expect((await client.getManifest("interop/reproducible", "retagged")).digest).toBe(theirs.digest);
  });
});

describe("flotilla pushes, flux pulls", () => {
  it("flux pull artifact writes the directory flotilla built and pushed", async () => {
    const url = `${reg.url}/interop/from-flotilla:v2`;
    const client = new RegistryClient(reg.host, { insecure: true });
    await pushArtifact(client, parseOciUrl(url), await buildArtifact(src, FLUX_DEFAULT_IGNORE_PATHS), {
      source: SOURCE,
      revision: "main@sha1:4567def",
    });
    const out = join(scratch, "pulled-by-flux");
    mkdirSync(out);
    const pull = await runFlux(["pull", "artifact", url, `--output=${out}`]);
    expect(pull.code, pull.stderr).toBe(0);
    expect(pull.stderr).toContain(`source ${SOURCE}`);
    expect(pull.stderr).toContain("revision main@sha1:4567def");
    expect(filesOf(out)).toEqual(expectedFiles());
  });

  it("flux pulls with --creds from a registry behind basic auth what flotilla pushed with the same credentials", async () => {
    const auth = { username: "ci-bot", password: "interop-pw" };
    const secured = await startOciRegistry({ htpasswd: auth });
    try {
      const url = `${secured.url}/interop/private:v1`;
      const client = new RegistryClient(secured.host, { insecure: true, auth });
      await pushArtifact(client, parseOciUrl(url), await buildArtifact(src, FLUX_DEFAULT_IGNORE_PATHS), {
        source: SOURCE,
        revision: "main@sha1:1",
      });
      const out = join(scratch, "private-pull");
      mkdirSync(out);
      const denied = await runFlux(["pull", "artifact", url, `--output=${out}`]);
      expect(denied.code).toBe(1);
      expect(denied.stderr).toMatch(/UNAUTHORIZED|401/);
      const pull = await runFlux([
        "pull",
        "artifact",
        url,
        `--output=${out}`,
        `--creds=${auth.username}:${auth.password}`,
      ]);
      expect(pull.code, pull.stderr).toBe(0);
      expect(filesOf(out)).toEqual(expectedFiles());
    } finally {
      await secured.stop();
    }
  });
});

describe("over TLS with the registry's own CA", () => {
  it("flux (trusting the CA through SSL_CERT_FILE) pulls what flotilla pushed with the CA", async () => {
    const tls = await startOciRegistry({ tls: true });
    try {
      const url = `${tls.url}/interop/tls:v1`;
      const client = new RegistryClient(tls.host, { ca: tls.caPem });
      await pushArtifact(client, parseOciUrl(url), await buildArtifact(src, FLUX_DEFAULT_IGNORE_PATHS), {
        source: SOURCE,
        revision: "main@sha1:2",
      });
      const caFile = join(scratch, "registry-ca.pem");
      writeFileSync(caFile, tls.caPem!);
      const out = join(scratch, "tls-pull");
      mkdirSync(out);
      const pull = await runFlux(["pull", "artifact", url, `--output=${out}`], { SSL_CERT_FILE: caFile });
      expect(pull.code, pull.stderr).toBe(0);
      expect(filesOf(out)).toEqual(expectedFiles());
    } finally {
      await tls.stop();
    }
  });
});

describe("flux build artifact and buildArtifact", () => {
  it("give the same tar stream (the gzip around it differs: Go's deflate is not zlib's)", async () => {
    const first = join(scratch, "flux-1.tgz");
    const second = join(scratch, "flux-2.tgz");
    for (const output of [first, second]) {
      const build = await runFlux(["build", "artifact", `--path=${src}`, `--output=${output}`]);
      expect(build.code, build.stderr).toBe(0);
    }
    const theirs = readFileSync(first);
    expect(readFileSync(second).equals(theirs)).toBe(true); // flux itself is deterministic
    const ours = await buildArtifact(src, FLUX_DEFAULT_IGNORE_PATHS);
    expect(gunzipSync(ours).equals(gunzipSync(theirs))).toBe(true);
    expect(ours.subarray(0, 10).equals(theirs.subarray(0, 10))).toBe(true); // the gzip header too
  });
});
