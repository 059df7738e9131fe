import { createServer, type Server } from "node:http";
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ArtifactDownloadError, ArtifactVerificationError } from "./errors.js";
import { fetchArtifact } from "./fetch.js";
import { digestOf, Storage } from "./storage.js";
import { type Artifact } from "../../api/meta/artifact.js";
import { makeWorkDir } from "../../util/work-dir.js";

const body = Buffer.from("artifact bytes");
let server: Server;
let base: string;
let root: string;

beforeAll(async () => {
  root = makeWorkDir("flotilla-fetch-");
  server = createServer((req, res) => {
    if (req.url === "/a.tar.gz") res.end(body);
    else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(root, { recursive: true, force: true });
});

const artifact = (path: string, digest = digestOf(body)): Artifact => ({
  path,
  url: `${base}/${path}`,
  digest,
  revision: "r",
  lastUpdateTime: "",
  size: body.length,
});

describe("fetching artifacts", () => {
  it("downloads an artifact whose bytes match its digest", async () => {
    expect(await fetchArtifact(artifact("a.tar.gz"))).toEqual(body);
  });

  it("refuses bytes that do not match the digest, naming both digests", async () => {
    const wrong = `sha256:${"0".repeat(64)}`;
    const err = await fetchArtifact(artifact("a.tar.gz", wrong)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ArtifactVerificationError);
    expect((err as Error).message).toBe(
      `computed digest doesn't match '${wrong}' for ${base}/a.tar.gz (got ${digestOf(body)})`,
    );
  });

  it("says which URL failed and how", async () => {
    await expect(fetchArtifact(artifact("gone.tar.gz"))).rejects.toThrow(
      new ArtifactDownloadError(`failed to download artifact from ${base}/gone.tar.gz: HTTP 404`),
    );
  });

  it("reads our own storage first, without a request", async () => {
    const storage = new Storage(root, "http://127.0.0.1:1");
    const stored = storage.store("gitrepository/ns/x/b.tar.gz", body, "r");
    expect(await fetchArtifact(stored, { storage })).toEqual(body);
  });
});
