// GitRepository credentials beyond basic auth and SSH, against real git servers on loopback: HTTPS
// with the server's CA from the secret's ca.crt (and a clear failure without it), and a bearer token.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GitRepository } from "../../src/api/source/git-repository.js";
import { generateKeyPair, issueCertificate } from "../../src/local/pki/certificate.js";
import { planeCluster, testNamespace } from "../support/fleet-context.js";
import { type GitHttpServer, startGitHttpServer } from "../support/git-http-server.js";
import { type SourceControllers, startSourceControllers } from "../support/source-controllers.js";

const cluster = planeCluster("management");
const GR = "gitrepositories";
let tlsGit: GitHttpServer;
let tokenGit: GitHttpServer;
let sc: SourceControllers;
let ns: string;
let caPem: string;

const ready = (o: GitRepository) => o.status?.conditions?.find((c) => c.type === "Ready");
async function secret(name: string, stringData: Record<string, string>) {
  await cluster.client.create(`/api/v1/namespaces/${ns}/secrets`, { metadata: { name }, stringData });
}

beforeAll(async () => {
  ns = await testNamespace(cluster.client, "gitcreds");
  const caKeys = generateKeyPair();
  const caSubject = { commonName: "flotilla test git CA" };
  const ca = issueCertificate({ subject: caSubject, validityDays: 1, isCA: true }, caKeys);
  caPem = ca.certificatePem;
  const serving = issueCertificate(
    { subject: { commonName: "git" }, validityDays: 1, serverAuth: true, altNames: ["127.0.0.1", "localhost"] },
    generateKeyPair(),
    { subject: caSubject, keys: caKeys },
  );
  tlsGit = await startGitHttpServer({ tls: { certPem: serving.certificatePem, keyPem: serving.privateKeyPem } });
  tokenGit = await startGitHttpServer({ auth: { token: "t0ken-value" } });
  sc = await startSourceControllers(cluster, ns);
});

afterAll(async () => {
  await sc?.stop();
  await Promise.all([tlsGit?.close(), tokenGit?.close()]);
});

describe("GitRepository credentials", () => {
  it("fetches over HTTPS trusting the ca.crt from the secret, and fails clearly on the unknown CA without it", async () => {
    const repo = await tlsGit.createRepo("tls");
    const sha = await repo.commit({ "a.yaml": "a: 1\n" }, "one");
    expect(repo.url.startsWith("https://127.0.0.1:")).toBe(true);
    await secret("git-ca", { "ca.crt": caPem });
    await sc.create(GR, "with-ca", {
      url: repo.url,
      interval: "10m",
      ref: { branch: "main" },
      secretRef: { name: "git-ca" },
    });
    const ok = await sc.waitReady<GitRepository>(GR, "with-ca");
    expect(ok.status!.artifact!.revision).toBe(`main@sha1:${sha}`);

    await sc.create(GR, "without-ca", { url: repo.url, interval: "10m", ref: { branch: "main" } });
    const failed = await sc.waitReady<GitRepository>(GR, "without-ca", "False");
    expect(ready(failed)!.reason).toBe("GitOperationFailed");
    expect(ready(failed)!.message).toMatch(/certificate/i);
  });

  it("authenticates with the secret's bearerToken, and reports a wrong one as AuthenticationFailed without showing it", async () => {
    const repo = await tokenGit.createRepo("token");
    const sha = await repo.commit({ "a.yaml": "a: 1\n" }, "one");
    await secret("good-token", { bearerToken: "t0ken-value" });
    await secret("bad-token", { bearerToken: "wrong-t0ken" });
    await sc.create(GR, "good", {
      url: repo.url,
      interval: "10m",
      ref: { branch: "main" },
      secretRef: { name: "good-token" },
    });
    const ok = await sc.waitReady<GitRepository>(GR, "good");
    expect(ok.status!.artifact!.revision).toBe(`main@sha1:${sha}`);

    await sc.create(GR, "bad", {
      url: repo.url,
      interval: "10m",
      ref: { branch: "main" },
      secretRef: { name: "bad-token" },
    });
    const failed = await sc.waitReady<GitRepository>(GR, "bad", "False");
    expect(ready(failed)!.reason).toBe("AuthenticationFailed");
    expect(JSON.stringify(failed.status)).not.toContain("wrong-t0ken");
  });
});
