import { utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KubeClient } from "./client.js";
import { TokenFile } from "./credentials.js";
import { ConnectionError } from "./errors.js";
import { inClusterEndpoint, isInCluster } from "./in-cluster.js";
import { makeWorkDir } from "../util/work-dir.js";

describe("rotating service-account token file", () => {
  it("re-reads the token when the file changes", () => {
    const dir = makeWorkDir("flotilla-token-");
    const file = join(dir, "token");
    writeFileSync(file, "first\n");
    utimesSync(file, 1000, 1000);
    const token = new TokenFile(file);
    expect(token.read()).toBe("first");
    writeFileSync(file, "second\n");
    utimesSync(file, 2000, 2000);
    expect(token.read()).toBe("second");
  });
});

describe("in-cluster configuration", () => {
  it("uses the pod's service-account directory and the service env, with the token re-read from file", () => {
    const dir = makeWorkDir("flotilla-sa-");
    writeFileSync(join(dir, "token"), "t");
    writeFileSync(join(dir, "ca.crt"), "CA");
    const env = { KUBERNETES_SERVICE_HOST: "10.96.0.1", KUBERNETES_SERVICE_PORT: "443" };
    expect(isInCluster(env, dir)).toBe(true);
    expect(inClusterEndpoint(env, dir)).toEqual({
      name: "in-cluster",
      server: "https://10.96.0.1:443",
      caPem: "CA",
      tokenFile: join(dir, "token"),
    });
    expect(() => inClusterEndpoint({}, dir)).toThrow("not running in a cluster");
  });
});

describe("connection errors", () => {
  it("name the cluster and its server", async () => {
    const client = new KubeClient({ name: "tenant9", server: "https://127.0.0.1:1" });
    const err = await client.get("/version").catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect((err as Error).message).toMatch(/^cluster tenant9 \(https:\/\/127\.0\.0\.1:1\) unreachable: ECONNREFUSED/);
  });
});
