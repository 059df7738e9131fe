// The artifact server on loopback: what it serves, what it never serves, and no descriptor left
// behind by a client that goes away mid-download.
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWorkDir } from "../../util/work-dir.js";
import { startArtifactServer } from "./server.js";
import { Storage } from "./storage.js";

const root = makeWorkDir("flotilla-artifact-server-");
const storage = new Storage(root, "http://127.0.0.1:0");
let server: Awaited<ReturnType<typeof startArtifactServer>>;

beforeAll(async () => {
  storage.store("helmchart/ns/app/app-1.0.0.tgz", Buffer.alloc(4 * 1024 * 1024, 1), "1.0.0");
  mkdirSync(join(root, ".consumer-cache/sha256-abc"), { recursive: true });
  writeFileSync(join(root, ".consumer-cache/sha256-abc/app-1.0.0.tgz"), "unpacked");
  writeFileSync(join(root, "helmchart/ns/app/app-2.0.0.tgz.tmp-1234"), "half");
  server = await startArtifactServer(storage, "127.0.0.1", 0);
});
afterAll(() => server.close());

const openFiles = () => readdirSync("/proc/self/fd").length;

describe("the artifact server", () => {
  it("serves a stored artifact", async () => {
    const res = await fetch(`${server.url}/helmchart/ns/app/app-1.0.0.tgz`);
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBe(4 * 1024 * 1024);
  });

  it.each([
    "/.consumer-cache/sha256-abc/app-1.0.0.tgz",
    "/%2Econsumer-cache/sha256-abc/app-1.0.0.tgz",
    "/helmchart/ns/app/../../../.consumer-cache/sha256-abc/app-1.0.0.tgz",
    "/helmchart/ns/app/app-2.0.0.tgz.tmp-1234",
    "/helmchart/ns/app",
  ])("never serves %s", async (path) => {
    // A raw request: fetch() would normalise the `..` away before sending.
    const status = await new Promise<string>((resolve) => {
      const socket = connect(Number(new URL(server.url).port), "127.0.0.1", () =>
        socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
      );
      let head = "";
      socket.on("data", (d: Buffer) => (head += d.toString()));
      socket.on("end", () => resolve(head.split(" ")[1] ?? ""));
    });
    expect(status).toBe("404");
  });

  it("closes the file of every download its client aborts (50 aborted downloads, no descriptor left open)", async () => {
    const before = openFiles();
    for (let i = 0; i < 50; i++) {
      await new Promise<void>((resolve) => {
        const socket = connect(Number(new URL(server.url).port), "127.0.0.1", () =>
          socket.write("GET /helmchart/ns/app/app-1.0.0.tgz HTTP/1.1\r\nHost: x\r\n\r\n"),
        );
        socket.once("data", () => {
          socket.destroy(); // gone after the first bytes of a 4 MiB body
          resolve();
        });
      });
    }
    let after = openFiles();
    for (let i = 0; i < 100 && after > before + 2; i++) {
      await new Promise((r) => setTimeout(r, 50));
      after = openFiles();
    }
    expect(after).toBeLessThanOrEqual(before + 2);
  });
});
