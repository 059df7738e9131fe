import { createServer, type Server } from "node:http";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SourceFetcher } from "./consumer.js";
import { createTarball } from "./artifact/tarball.js";
import { digestOf } from "./artifact/storage.js";
import type { Artifact } from "../api/meta/artifact.js";
import type { KubeClient } from "../kube/client.js";
import { makeWorkDir } from "../util/work-dir.js";

// The source object comes from the fetcher's cache (an informer's), so no API server is involved:
// what is under test is the download-and-unpack, with a real artifact server on loopback.
let server: Server;
let requests = 0;
let root: string;
let artifact: Artifact;

beforeAll(async () => {
  root = makeWorkDir("flotilla-consumer-");
  const src = join(root, "src");
  const files: string[] = [];
  for (let i = 0; i < 50; i++) {
    mkdirSync(join(src, `apps/app-${i}`), { recursive: true });
    writeFileSync(join(src, `apps/app-${i}/cm.yaml`), `kind: ConfigMap\nmetadata: {name: app-${i}}\n`);
    files.push(`apps/app-${i}/cm.yaml`);
  }
  const body = createTarball(src, files);
  server = createServer((_req, res) => {
    requests++;
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  artifact = {
    path: "gitrepository/ns/apps/abc.tar.gz",
    url: `http://127.0.0.1:${port}/abc.tar.gz`,
    digest: digestOf(body),
    revision: "main@sha1:abc",
    lastUpdateTime: "",
    size: body.length,
  };
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(root, { recursive: true, force: true });
});

describe("fetching a source's artifact for its consumers", () => {
  it("unpacks once when many reconciles ask for the same new revision at the same time, into a cache directory it creates", async () => {
    const cache = join(root, "not-yet", ".consumer-cache");
    const fetcher = new SourceFetcher({} as KubeClient, cache);
    fetcher.useCache(() => ({
      apiVersion: "v1",
      kind: "GitRepository",
      metadata: { name: "apps" },
      status: { artifact },
    }));
    const ref = { kind: "GitRepository" as const, name: "apps" };
    const before = requests;
    const fetched = await Promise.all(Array.from({ length: 40 }, () => fetcher.fetch(ref, "ns")));
    expect(new Set(fetched.map((f) => f.dir)).size).toBe(1);
    expect(requests - before).toBe(1);
    const dir = fetched[0]!.dir;
    expect(readFileSync(join(dir, "apps/app-49/cm.yaml"), "utf8")).toContain("app-49");
    // No half-unpacked directory left beside it.
    const name = dir.split("/").pop()!;
    expect(readdirSync(cache).sort()).toEqual([name, `${name}.unpacked`]);
    // Later reconciles use the unpacked directory without downloading again.
    await fetcher.fetch(ref, "ns");
    expect(requests - before).toBe(1);
  });

  it("reads a source from whichever controller's cache has seen its newest write (caches lag each other)", async () => {
    const fetcher = new SourceFetcher({} as KubeClient);
    const copy = (resourceVersion: string, revision: string) => ({
      apiVersion: "source.toolkit.fluxcd.io/v1",
      kind: "OCIRepository",
      metadata: { name: "web", resourceVersion },
      status: { artifact: { ...artifact, revision } },
    });
    // The Kustomization controller's informer first, still at the old revision; the HelmRelease one's has the new.
    fetcher.useCache(() => copy("1000", "1.0.0"));
    fetcher.useCache(() => copy("1021", "1.1.0"));
    fetcher.useCache(() => undefined);
    const read = await fetcher.source<{ status: { artifact: Artifact } }>({ kind: "OCIRepository", name: "web" }, "ns");
    expect(read.status.artifact.revision).toBe("1.1.0");
  });

  it("keeps the same bytes as a tarball unpacked for one source and as a file for another (an OCI chart layer and its HelmChart)", async () => {
    const fetcher = new SourceFetcher({} as KubeClient, join(root, "shapes-cache"));
    const asChart: Artifact = { ...artifact, path: "helmchart/ns/web/web-1.0.0.tgz", revision: "1.0.0" };
    fetcher.useCache((kind) => ({
      apiVersion: "v1",
      kind,
      metadata: { name: "web" },
      status: { artifact: kind === "OCIRepository" ? artifact : asChart },
    }));
    const unpacked = await fetcher.fetch({ kind: "OCIRepository", name: "web" }, "ns");
    const file = await fetcher.fetch({ kind: "HelmChart", name: "web" }, "ns");
    expect(file.dir).not.toBe(unpacked.dir);
    expect(readdirSync(file.dir)).toEqual(["web-1.0.0.tgz"]);
    expect(existsSync(join(unpacked.dir, "apps/app-0/cm.yaml"))).toBe(true);
  });

  it("lets a second fetcher (another process's cache) unpack beside the first without a collision", async () => {
    const cache = join(root, "shared-cache");
    const a = new SourceFetcher({} as KubeClient, cache);
    const b = new SourceFetcher({} as KubeClient, cache);
    for (const f of [a, b])
      f.useCache(() => ({ apiVersion: "v1", kind: "GitRepository", metadata: { name: "apps" }, status: { artifact } }));
    const ref = { kind: "GitRepository" as const, name: "apps" };
    const [x, y] = await Promise.all([a.fetch(ref, "ns"), b.fetch(ref, "ns")]);
    expect(x.dir).toBe(y.dir);
    expect(existsSync(join(x.dir, "apps/app-0/cm.yaml"))).toBe(true);
    const name = x.dir.split("/").pop()!;
    expect(readdirSync(cache).sort()).toEqual([name, `${name}.unpacked`]);
  });
});
