// A client of one OCI distribution registry (the /v2 API): tags, manifests, blobs, pushes. Every body
// is read under a cap and checked against its digest before it is returned, so a registry can neither
// make flotilla hold more than it allows nor hand it bytes other than those asked for.
import { createHash } from "node:crypto";
import { OciDigestMismatchError, OciError, OciNotFoundError, OciProtocolError } from "./errors.js";
import { isIndexMediaType, MANIFEST_ACCEPT, OCI_MANIFEST_MEDIA_TYPE, type OciManifest } from "./manifest.js";
import { newestFirst } from "./tag-order.js";
import { nextLink, readCapped, readJson } from "./responses.js";
import { RegistryTransport } from "./transport.js";

export interface RegistryOptions {
  /** Plain HTTP. */
  insecure?: boolean;
  auth?: { username: string; password: string };
  /** PEM */
  ca?: string;
  cert?: string;
  key?: string;
  /** Per call (all its requests together); default 60 s, Flux's OCIRepository timeout. */
  timeoutMs?: number;
  signal?: AbortSignal;
  proxyUrl?: string;
  /** Tags asked for per page of the tag list (`?n=`); default 1000. */
  tagPageSize?: number;
}

export const DEFAULT_MANIFEST_MAX_BYTES = 4 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 60_000;
const MAX_REDIRECTS = 5;
const MAX_TAG_PAGES = 10_000;
const DIGEST = /^sha256:[a-f0-9]{64}$/;

/** JSON as Go's encoding/json writes it: HTML characters and the JS line separators escaped. */
export const goJson = (value: unknown): string =>
  JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

export const sha256Digest = (data: Buffer) => `sha256:${createHash("sha256").update(data).digest("hex")}`;

export class RegistryClient {
  private readonly transport: RegistryTransport;

  constructor(
    readonly registry: string,
    private readonly options: RegistryOptions = {},
  ) {
    this.transport = new RegistryTransport(registry, options);
  }

  /** Frees the connections (they also close by themselves after a few idle seconds). */
  close(): Promise<void> {
    return this.transport.close();
  }

  private deadline(): AbortSignal {
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    return this.options.signal ? AbortSignal.any([this.options.signal, timeout]) : timeout;
  }

  private name(repository: string, ref?: string): string {
    return `${this.registry}/${repository}${ref ? (ref.startsWith("sha256:") ? `@${ref}` : `:${ref}`) : ""}`;
  }

  /** Every tag of the repository, following `Link: <...>; rel="next"` pages. */
  async listTags(repository: string): Promise<string[]> {
    const signal = this.deadline();
    const what = `listing the tags of ${this.name(repository)}`;
    const tags: string[] = [];
    const seen = new Set<string>();
    let path: string | undefined = `/v2/${repository}/tags/list?n=${this.options.tagPageSize ?? 1000}`;
    while (path) {
      if (seen.has(path) || seen.size >= MAX_TAG_PAGES)
        throw new OciProtocolError(`registry ${this.registry} paginates ${what} in a loop`);
      seen.add(path);
      const res = await this.transport.send({ method: "GET", path, scope: pull(repository), what, signal });
      if (res.statusCode !== 200) throw await this.transport.failure(res, what);
      const link = res.headers.link;
      const body = (await readJson(res, DEFAULT_MANIFEST_MAX_BYTES, what, this.registry, signal)) as {
        tags?: string[] | null;
      };
      tags.push(...(body.tags ?? []));
      path = nextLink(typeof link === "string" ? link : link?.join(", "), path, this.registry);
    }
    return tags;
  }

  /** The manifest a tag or digest names, its bytes verified against the digest. An image index is refused by name. */
  async getManifest(
    repository: string,
    tagOrDigest: string,
    maxBytes = DEFAULT_MANIFEST_MAX_BYTES,
  ): Promise<{ digest: string; mediaType: string; manifest: OciManifest; raw: Buffer }> {
    const signal = this.deadline();
    const what = `reading the manifest ${this.name(repository, tagOrDigest)}`;
    const res = await this.transport.send({
      method: "GET",
      path: `/v2/${repository}/manifests/${tagOrDigest}`,
      scope: pull(repository),
      what,
      signal,
      headers: { accept: MANIFEST_ACCEPT },
    });
    if (res.statusCode === 404 && !DIGEST.test(tagOrDigest)) {
      await res.body.dump();
      throw await this.missingTag(repository, tagOrDigest);
    }
    if (res.statusCode !== 200) throw await this.transport.failure(res, what);
    const raw = await readCapped(res, maxBytes, `the manifest ${this.name(repository, tagOrDigest)}`, signal);
    const digest = sha256Digest(raw);
    const announced = res.headers["docker-content-digest"];
    const expected = DIGEST.test(tagOrDigest) ? tagOrDigest : typeof announced === "string" ? announced : undefined;
    if (expected && expected !== digest)
      throw new OciDigestMismatchError(
        `the manifest ${this.name(repository, tagOrDigest)} from registry ${this.registry} hashes to ${digest}, not ${expected}: refused`,
      );
    let manifest: OciManifest;
    try {
      manifest = JSON.parse(raw.toString("utf8")) as OciManifest;
    } catch {
      throw new OciProtocolError(`the manifest ${this.name(repository, tagOrDigest)} is not JSON`);
    }
    const contentType = String(res.headers["content-type"] ?? "")
      .split(";")[0]!
      .trim();
    const mediaType = manifest.mediaType || contentType || OCI_MANIFEST_MEDIA_TYPE;
    if (isIndexMediaType(mediaType))
      throw new OciProtocolError(
        `${this.name(repository, tagOrDigest)} is an image index (${mediaType}), not an artifact manifest; name one of its manifests by digest`,
      );
    if (manifest.schemaVersion !== 2 || !manifest.config || !Array.isArray(manifest.layers))
      throw new OciProtocolError(
        `the manifest ${this.name(repository, tagOrDigest)} is not an OCI image manifest (schemaVersion 2 with config and layers)`,
      );
    return { digest, mediaType, manifest, raw };
  }

  private async missingTag(repository: string, tag: string): Promise<OciError> {
    let tags: string[];
    try {
      tags = newestFirst(await this.listTags(repository));
    } catch (err) {
      if (err instanceof OciNotFoundError)
        return new OciNotFoundError(
          `repository ${this.name(repository)} does not exist on registry ${this.registry}`,
          [],
        );
      throw err;
    }
    const shown = tags.slice(0, 10);
    const list = !tags.length
      ? "the repository has no tags"
      : `tags that exist, newest first: ${shown.join(", ")}${tags.length > shown.length ? ` (and ${tags.length - shown.length} more)` : ""}`;
    return new OciNotFoundError(`tag '${tag}' not found in ${this.name(repository)}; ${list}`, shown);
  }

  /** The blob's bytes, refused past `maxBytes` (while reading) and unless they hash to `digest`. */
  async getBlob(repository: string, digest: string, maxBytes: number): Promise<Buffer> {
    if (!DIGEST.test(digest)) throw new OciProtocolError(`'${digest}' is not a sha256 digest`);
    const signal = this.deadline();
    const what = `reading the blob ${this.name(repository, digest)}`;
    let path = `/v2/${repository}/blobs/${digest}`;
    let res = await this.transport.send({ method: "GET", path, scope: pull(repository), what, signal });
    // Registries may redirect blob downloads to their storage; credentials go only to the registry itself.
    for (let hops = 0; res.statusCode >= 300 && res.statusCode < 400 && res.headers.location; hops++) {
      await res.body.dump();
      if (hops >= MAX_REDIRECTS)
        throw new OciProtocolError(`registry ${this.registry} redirected ${what} more than ${MAX_REDIRECTS} times`);
      const target = new URL(String(res.headers.location), this.absolute(path));
      path = target.toString();
      const sameHost = target.host === this.registry;
      res = sameHost
        ? await this.transport.send({ method: "GET", path, scope: pull(repository), what, signal })
        : await this.transport.sendAnonymous({ method: "GET", path, scope: pull(repository), what, signal });
    }
    if (res.statusCode !== 200) throw await this.transport.failure(res, what);
    const data = await readCapped(res, maxBytes, `the blob ${this.name(repository, digest)}`, signal);
    const actual = sha256Digest(data);
    if (actual !== digest)
      throw new OciDigestMismatchError(
        `the blob ${this.name(repository, digest)} from registry ${this.registry} hashes to ${actual}: refused`,
      );
    return data;
  }

  private absolute(path: string): string {
    return /^https?:\/\//.test(path) ? path : `${this.transport.currentScheme()}://${this.registry}${path}`;
  }

  /** Uploads `data` (monolithic POST + PUT) unless the registry has it already; returns its digest. */
  async pushBlob(repository: string, data: Buffer): Promise<string> {
    const signal = this.deadline();
    const digest = sha256Digest(data);
    const what = `uploading the blob ${this.name(repository, digest)}`;
    const scope = push(repository);
    const head = await this.transport.send({
      method: "HEAD",
      path: `/v2/${repository}/blobs/${digest}`,
      scope,
      what,
      signal,
    });
    await head.body.dump();
    if (head.statusCode === 200) return digest;
    const start = await this.transport.send({
      method: "POST",
      path: `/v2/${repository}/blobs/uploads/`,
      scope,
      what,
      signal,
    });
    if (start.statusCode !== 202 || !start.headers.location) throw await this.transport.failure(start, what);
    await start.body.dump();
    const location = new URL(String(start.headers.location), this.absolute(`/v2/${repository}/blobs/uploads/`));
    location.searchParams.set("digest", digest);
    const put = await this.transport.send({
      method: "PUT",
      path: location.toString(),
      scope,
      what,
      signal,
      headers: { "content-type": "application/octet-stream", "content-length": String(data.length) },
      body: data,
    });
    if (put.statusCode !== 201) throw await this.transport.failure(put, what);
    await put.body.dump();
    return digest;
  }

  /**
   * Stores the manifest under `reference` (a tag or its digest), serialized as Go's encoding/json writes it
   * (so as Flux's pushes are: `<`, `>`, `&` escaped); returns the digest of the bytes sent.
   */
  putManifest(repository: string, reference: string, manifest: OciManifest): Promise<string> {
    return this.putManifestRaw(
      repository,
      reference,
      Buffer.from(goJson(manifest)),
      manifest.mediaType ?? OCI_MANIFEST_MEDIA_TYPE,
    );
  }

  /** Stores these exact manifest bytes (e.g. read by getManifest, to tag them again under the same digest). */
  async putManifestRaw(repository: string, reference: string, raw: Buffer, mediaType: string): Promise<string> {
    const signal = this.deadline();
    const digest = sha256Digest(raw);
    const what = `pushing the manifest ${this.name(repository, reference)}`;
    const res = await this.transport.send({
      method: "PUT",
      path: `/v2/${repository}/manifests/${reference}`,
      scope: push(repository),
      what,
      signal,
      headers: { "content-type": mediaType },
      body: raw,
    });
    if (res.statusCode !== 201) throw await this.transport.failure(res, what);
    await res.body.dump();
    return digest;
  }

  /** Deletes a manifest by digest (the registry must allow deletes). */
  async deleteManifest(repository: string, digest: string): Promise<void> {
    const signal = this.deadline();
    const what = `deleting the manifest ${this.name(repository, digest)}`;
    const res = await this.transport.send({
      method: "DELETE",
      path: `/v2/${repository}/manifests/${digest}`,
      scope: push(repository),
      what,
      signal,
    });
    if (res.statusCode !== 202 && res.statusCode !== 200) throw await this.transport.failure(res, what);
    await res.body.dump();
  }
}

const pull = (repository: string) => `repository:${repository}:pull`;
const push = (repository: string) => `repository:${repository}:pull,push`;
