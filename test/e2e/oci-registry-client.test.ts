// flotilla's OCI client (src/sources/oci) against the real distribution registry on loopback: Flux
// artifacts pushed and pulled (directly and through a proxy), tag pagination, a missing tag or
// repository, a blob over the limit and a tampered blob, each refused with one clear message. Auth,
// TLS and unreachable registries: oci-registry-client-access.test.ts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RegistryClient } from "../../src/sources/oci/client.js";
import { OciDigestMismatchError, OciNotFoundError, OciTooLargeError } from "../../src/sources/oci/errors.js";
import {
  buildArtifact,
  FLUX_CONFIG_MEDIA_TYPE,
  FLUX_CONTENT_MEDIA_TYPE,
  pullArtifact,
  pushArtifact,
} from "../../src/sources/oci/flux-artifact.js";
import { parseOciUrl } from "../../src/sources/oci/reference.js";
import { readTarball } from "../../src/sources/artifact/tarball.js";
import { startHttpProxy } from "../support/http-proxy.js";
import { type OciRegistry, startOciRegistry } from "../support/oci-registry.js";

const MiB = 1024 * 1024;
let plain: OciRegistry;
let scratch: string;

beforeAll(async () => {
  plain = await startOciRegistry();
  scratch = mkdtempSync(join(tmpdir(), "oci-client-"));
  writeFileSync(join(scratch, "configmap.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\n");
});
afterAll(async () => {
  await plain?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

async function pushSmall(client: RegistryClient, url: string, revision = "main@sha1:abc") {
  return pushArtifact(client, parseOciUrl(url), await buildArtifact(scratch, []), {
    source: "https://github.com/example/app",
    revision,
  });
}

describe("push and pull a Flux artifact", () => {
  it("pulls back the files, the digest and the metadata it pushed", async () => {
    const client = new RegistryClient(plain.host, { insecure: true });
    const url = `${plain.url}/apps/web:v1`;
    const content = await buildArtifact(scratch, []);
    const pushed = await pushArtifact(client, parseOciUrl(url), content, {
      source: "https://github.com/example/app",
      revision: "main@sha1:0123456",
      created: "2026-01-02T03:04:05Z",
      annotations: { "org.example/team": "web" },
    });
    const pulled = await pullArtifact(client, parseOciUrl(url), 10 * MiB);
    expect(pulled.digest).toBe(pushed.digest);
    expect(pulled.layer.equals(content)).toBe(true);
    expect(readTarball(pulled.layer).map((e) => e.path)).toEqual([".", "configmap.yaml"]);
    expect(pulled.manifest.config.mediaType).toBe(FLUX_CONFIG_MEDIA_TYPE);
    expect(pulled.manifest.layers.map((l) => l.mediaType)).toEqual([FLUX_CONTENT_MEDIA_TYPE]);
    expect(pulled.meta).toMatchObject({
      source: "https://github.com/example/app",
      revision: "main@sha1:0123456",
      created: "2026-01-02T03:04:05Z",
    });
    expect(pulled.meta.annotations["org.example/team"]).toBe("web");
    // Pinned by digest, the same artifact.
    expect((await pullArtifact(client, parseOciUrl(`${plain.url}/apps/web@${pushed.digest}`), 10 * MiB)).digest).toBe(
      pushed.digest,
    );
  });

  it("talks plain HTTP to a loopback registry without `insecure`, as go-containerregistry does", async () => {
    const client = new RegistryClient(plain.host);
    await pushSmall(client, `${plain.url}/apps/fallback:v1`);
    expect(await client.listTags("apps/fallback")).toEqual(["v1"]);
  });
});

describe("through an HTTP proxy", () => {
  it("sends every request through proxyUrl, with the proxy's own credentials", async () => {
    const proxy = await startHttpProxy({ auth: { username: "px", password: "px-pw" } });
    try {
      const client = new RegistryClient(plain.host, {
        insecure: true,
        proxyUrl: proxy.url.replace("://", "://px:px-pw@"),
      });
      const { digest } = await pushSmall(client, `${plain.url}/proxied/app:v1`);
      expect((await pullArtifact(client, parseOciUrl(`${plain.url}/proxied/app:v1`), MiB)).digest).toBe(digest);
      // HEAD+POST+PUT per blob (2), PUT manifest, GET manifest, GET blob: all of them passed the proxy.
      expect(proxy.requests.forwarded).toBeGreaterThanOrEqual(9);
      expect(proxy.requests.rejected).toBe(0);
    } finally {
      await proxy.close();
    }
  });
});

describe("tags", () => {
  it("lists every tag across pages of ?n= (Link rel=next)", async () => {
    const client = new RegistryClient(plain.host, { insecure: true, tagPageSize: 3 });
    const tags = Array.from({ length: 8 }, (_, i) => `1.0.${i}`);
    for (const tag of tags) await pushSmall(client, `${plain.url}/paged/app:${tag}`, tag);
    // The registry does cut the list at n=3 and point to the next page...
    const firstPage = await fetch(`http://${plain.host}/v2/paged/app/tags/list?n=3`);
    expect(((await firstPage.json()) as { tags: string[] }).tags).toHaveLength(3);
    expect(firstPage.headers.get("link")).toMatch(/^<\/v2\/paged\/app\/tags\/list\?.*>; rel="next"$/);
    // ... and listTags follows the pages to the end.
    const listed = await client.listTags("paged/app");
    expect(listed.sort()).toEqual([...tags].sort());
  });

  it("a tag that does not exist: OciNotFoundError listing the tags that exist, newest first", async () => {
    const client = new RegistryClient(plain.host, { insecure: true });
    for (const tag of ["1.2.0", "1.10.0", "latest"]) await pushSmall(client, `${plain.url}/missing/app:${tag}`);
    const err = await client.getManifest("missing/app", "2.0.0").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OciNotFoundError);
    expect((err as Error).message).toBe(
      `tag '2.0.0' not found in ${plain.host}/missing/app; tags that exist, newest first: 1.10.0, 1.2.0, latest`,
    );
  });

  it("a repository that does not exist says so", async () => {
    const client = new RegistryClient(plain.host, { insecure: true });
    await expect(client.getManifest("nobody/here", "v1")).rejects.toThrow(
      `repository ${plain.host}/nobody/here does not exist on registry ${plain.host}`,
    );
  });
});

describe("limits and integrity", () => {
  it("refuses a blob over maxBytes, naming the limit", async () => {
    const client = new RegistryClient(plain.host, { insecure: true });
    const digest = await client.pushBlob("big/app", Buffer.alloc(2 * MiB, 7));
    const err = await client.getBlob("big/app", digest, MiB).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OciTooLargeError);
    expect((err as Error).message).toContain("is larger than 1 MiB, the limit for it");
  });

  it("refuses a blob whose bytes were tampered with on the registry", async () => {
    const client = new RegistryClient(plain.host, { insecure: true });
    const digest = await client.pushBlob("tampered/app", Buffer.from("the real content"));
    writeFileSync(plain.blobPath(digest), "the EVIL content"); // same length, other bytes
    const err = await client.getBlob("tampered/app", digest, MiB).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OciDigestMismatchError);
    expect((err as Error).message).toMatch(/hashes to sha256:[0-9a-f]{64}: refused$/);
    expect(readFileSync(plain.blobPath(digest), "utf8")).toBe("the EVIL content"); // the registry did serve it
  });
});
