// flotilla's OCI client (src/sources/oci) against the real distribution registry on loopback: who may
// talk to it and how — basic auth (htpasswd), Bearer tokens from a token service, TLS with and without
// the registry's CA — and registries that cannot be talked to: refused connections and silence.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RegistryClient } from "../../src/sources/oci/client.js";
import { OciAuthError, OciUnreachableError } from "../../src/sources/oci/errors.js";
import { buildArtifact, pullArtifact, pushArtifact } from "../../src/sources/oci/flux-artifact.js";
import { parseOciUrl } from "../../src/sources/oci/reference.js";
import { type OciRegistry, startOciRegistry } from "../support/oci-registry.js";

const MiB = 1024 * 1024;
let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "oci-client-access-"));
  writeFileSync(join(scratch, "configmap.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\n");
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function pushSmall(client: RegistryClient, url: string) {
  return pushArtifact(client, parseOciUrl(url), await buildArtifact(scratch, []), {
    source: "https://example/app",
    revision: "main@sha1:abc",
  });
}

describe("basic auth (htpasswd)", () => {
  let reg: OciRegistry;
  beforeAll(async () => {
    reg = await startOciRegistry({ htpasswd: { username: "bot", password: "s3cret-pw" } });
  });
  afterAll(() => reg?.stop());

  it("pushes and pulls with the right password", async () => {
    const client = new RegistryClient(reg.host, { insecure: true, auth: { username: "bot", password: "s3cret-pw" } });
    const { digest } = await pushSmall(client, `${reg.url}/private/app:v1`);
    expect((await pullArtifact(client, parseOciUrl(`${reg.url}/private/app:v1`), MiB)).digest).toBe(digest);
  });

  it("a wrong password: OciAuthError that never shows the password", async () => {
    const client = new RegistryClient(reg.host, {
      insecure: true,
      auth: { username: "bot", password: "wrong-pw-123" },
    });
    const err = await client.listTags("private/app").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OciAuthError);
    expect((err as Error).message).toContain(
      `registry ${reg.host} refused listing the tags of ${reg.host}/private/app (401`,
    );
    expect((err as Error).message).toContain("check the username and password");
    expect((err as Error).message).not.toContain("wrong-pw-123");
    expect((err as Error).message).not.toContain(Buffer.from("bot:wrong-pw-123").toString("base64"));
  });

  it("no credentials: OciAuthError saying they are needed", async () => {
    const client = new RegistryClient(reg.host, { insecure: true });
    await expect(client.listTags("private/app")).rejects.toThrow(
      `registry ${reg.host} needs credentials for listing the tags of ${reg.host}/private/app, and none were given`,
    );
  });
});

describe("Bearer token auth (a token service, as ghcr.io and Docker Hub)", () => {
  const user = { username: "robot", password: "token-pw" };
  let reg: OciRegistry;
  beforeAll(async () => {
    reg = await startOciRegistry({ tokenAuth: user });
  });
  afterAll(() => reg?.stop());

  it("pushes and pulls with tokens from the realm, one per scope, reused", async () => {
    const client = new RegistryClient(reg.host, { insecure: true, auth: user });
    const { digest } = await pushSmall(client, `${reg.url}/tokened/app:v1`);
    expect((await pullArtifact(client, parseOciUrl(`${reg.url}/tokened/app:v1`), MiB)).digest).toBe(digest);
    expect(await client.listTags("tokened/app")).toEqual(["v1"]);
    // One token for pull,push (the whole push), one for pull (manifest, blob, tags): not one per request.
    expect(reg.tokens!.issued.withAccess).toBe(2);
  });

  it("a wrong password is refused by the token service: OciAuthError without the password", async () => {
    const client = new RegistryClient(reg.host, { insecure: true, auth: { ...user, password: "not-it-42" } });
    const err = await client.listTags("tokened/app").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OciAuthError);
    expect((err as Error).message).toMatch(
      /^registry 127\.0\.0\.1:\d+ refused a token for listing the tags of .* \(401 UNAUTHORIZED/,
    );
    expect((err as Error).message).not.toContain("not-it-42");
  });

  it("anonymous: the token service's token grants nothing, and the registry's refusal says credentials are needed", async () => {
    const client = new RegistryClient(reg.host, { insecure: true });
    await expect(client.listTags("tokened/app")).rejects.toThrow(
      `registry ${reg.host} refused listing the tags of ${reg.host}/tokened/app (401 UNAUTHORIZED: authentication required): it needs credentials`,
    );
  });
});

describe("TLS", () => {
  let reg: OciRegistry;
  beforeAll(async () => {
    reg = await startOciRegistry({ tls: true });
  });
  afterAll(() => reg?.stop());

  it("works with the registry's CA", async () => {
    const client = new RegistryClient(reg.host, { ca: reg.caPem });
    const { digest } = await pushSmall(client, `${reg.url}/secure/app:v1`);
    expect((await client.getManifest("secure/app", "v1")).digest).toBe(digest);
  });

  it("without the CA fails saying the certificate is not trusted (and never falls back to plain HTTP)", async () => {
    const client = new RegistryClient(reg.host);
    const err = await client.listTags("secure/app").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OciUnreachableError);
    expect((err as Error).message).toMatch(
      new RegExp(
        `^registry ${reg.host}: its TLS certificate is not trusted \\([A-Z_]+\\); give the CA that signed it$`,
      ),
    );
  });
});

describe("unreachable registries", () => {
  it("a registry that refuses connections: OciUnreachableError naming it", async () => {
    const stopped = await startOciRegistry();
    await stopped.stop();
    const client = new RegistryClient(stopped.host, { insecure: true, timeoutMs: 5000 });
    await expect(client.listTags("app")).rejects.toThrow(
      new RegExp(`^registry ${stopped.host} is unreachable: .*ECONNREFUSED`),
    );
  });

  it("a registry that accepts but never answers: OciUnreachableError within the timeout", async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((s) => sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const host = `127.0.0.1:${(silent.address() as { port: number }).port}`;
    try {
      const client = new RegistryClient(host, { insecure: true, timeoutMs: 1500 });
      const started = Date.now();
      const err = await client.listTags("app").catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OciUnreachableError);
      expect((err as Error).message).toBe(`registry ${host} did not answer within 1.5 s (the timeout)`);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      sockets.forEach((s) => s.destroy());
      silent.close();
    }
  });
});
