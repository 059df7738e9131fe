// OCIRepository credentials, TLS and proxy against real registries on loopback: an htpasswd registry
// read through spec.secretRef (a docker-registry Secret) or a service account's imagePullSecrets,
// wrong or missing credentials refused without the password anywhere; a TLS registry trusted through
// spec.certSecretRef's ca.crt and refused without it; spec.proxySecretRef's proxy carrying the pulls.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OciEnv, readyOf, startOciEnv } from "../support/oci-env.js";
import { configMapYaml, pushFiles } from "../support/oci-push.js";
import { type OciRegistry, startOciRegistry } from "../support/oci-registry.js";
import { type HttpProxy, startHttpProxy } from "../support/http-proxy.js";

const USER = { username: "bot", password: "reg-pass-7f3a" };
let basic: OciRegistry;
let tls: OciRegistry;
let proxy: HttpProxy;
let env: OciEnv;
let digest: string;
const FILES = { "cm.yaml": configMapYaml("a", "x", { a: "1" }) };

const dockerConfig = (host: string, entry: Record<string, string>) => JSON.stringify({ auths: { [host]: entry } });

beforeAll(async () => {
  [basic, tls, proxy] = await Promise.all([
    startOciRegistry({ htpasswd: USER }),
    startOciRegistry({ tls: true }),
    startHttpProxy({ auth: { username: "p", password: "proxy-pass-91" } }),
  ]);
  env = await startOciEnv({ prefix: "oci-auth" });
  digest = await pushFiles({ host: basic.host, repository: "private/app", options: { auth: USER } }, "1.0.0", FILES);
  await pushFiles({ host: tls.host, repository: "secure/app", options: { ca: tls.caPem } }, "1.0.0", FILES);
});

afterAll(async () => {
  await env?.stop();
  await Promise.all([basic?.stop(), tls?.stop(), proxy?.close()]);
});

const noSecretIn = async (name: string, ...secrets: string[]) => {
  const text = JSON.stringify([await env.getOci(name), await env.events(name)]);
  for (const s of secrets) expect(text).not.toContain(s);
};

describe("an OCIRepository on a registry with basic auth", () => {
  it("pulls with spec.secretRef, a kubernetes.io/dockerconfigjson Secret", async () => {
    await env.secret(
      "regcred",
      { ".dockerconfigjson": dockerConfig(basic.host, { username: USER.username, password: USER.password }) },
      "kubernetes.io/dockerconfigjson",
    );
    await env.createOci("by-secret", {
      url: `${basic.url}/private/app`,
      ref: { tag: "1.0.0" },
      insecure: true,
      secretRef: { name: "regcred" },
    });
    const obj = await env.waitOci("by-secret", "True");
    expect(obj.status!.artifact!.revision).toBe(`1.0.0@${digest}`);
    await noSecretIn("by-secret", USER.password);
  });

  it("pulls with the imagePullSecrets of spec.serviceAccountName (an `auth` entry)", async () => {
    const auth = Buffer.from(`${USER.username}:${USER.password}`).toString("base64");
    await env.secret(
      "sa-cred",
      { ".dockerconfigjson": dockerConfig(basic.host, { auth }) },
      "kubernetes.io/dockerconfigjson",
    );
    await env.mgmt.client.create(`/api/v1/namespaces/${env.ns}/serviceaccounts`, {
      apiVersion: "v1",
      kind: "ServiceAccount",
      metadata: { name: "puller" },
      imagePullSecrets: [{ name: "sa-cred" }],
    });
    await env.createOci("by-sa", {
      url: `${basic.url}/private/app`,
      ref: { tag: "1.0.0" },
      insecure: true,
      serviceAccountName: "puller",
    });
    expect((await env.waitOci("by-sa", "True")).status!.artifact!.revision).toBe(`1.0.0@${digest}`);
  });

  it("wrong or missing credentials are refused by the registry, the password never shown", async () => {
    await env.secret(
      "wrong",
      { ".dockerconfigjson": dockerConfig(basic.host, { username: USER.username, password: "not-it-42" }) },
      "kubernetes.io/dockerconfigjson",
    );
    await env.createOci("wrong", {
      url: `${basic.url}/private/app`,
      ref: { tag: "1.0.0" },
      insecure: true,
      secretRef: { name: "wrong" },
    });
    await env.createOci("anonymous", { url: `${basic.url}/private/app`, ref: { tag: "1.0.0" }, insecure: true });
    for (const name of ["wrong", "anonymous"]) {
      const obj = await env.waitOci(name, "False", "OCIArtifactPullFailed");
      expect(readyOf(obj)!.message).toMatch(/^failed to determine artifact digest: /);
      expect(readyOf(obj)!.message).toContain(basic.host);
      expect(readyOf(obj)!.message).toMatch(/401|unauthori[sz]ed|credentials|authentication/i);
      expect(obj.status!.artifact).toBeUndefined();
      await noSecretIn(name, "not-it-42", USER.password);
    }
  });

  it("a Secret that does not exist, or is not a docker config, names the Secret (AuthenticationFailed)", async () => {
    await env.createOci("no-secret", {
      url: `${basic.url}/private/app`,
      insecure: true,
      secretRef: { name: "nope" },
    });
    const missing = await env.waitOci("no-secret", "False", "AuthenticationFailed");
    expect(readyOf(missing)!.message).toMatch(
      new RegExp(`^failed to get credential: failed to get secret '${env.ns}/nope': `),
    );
    await env.secret("opaque", { username: "bot", password: "reg-pass-7f3a" });
    await env.createOci("opaque", { url: `${basic.url}/private/app`, insecure: true, secretRef: { name: "opaque" } });
    const opaque = await env.waitOci("opaque", "False", "AuthenticationFailed");
    expect(readyOf(opaque)!.message).toBe(
      `failed to get credential: secret '${env.ns}/opaque' has no '.dockerconfigjson' key: ` +
        "create it with `kubectl create secret docker-registry`",
    );
    await noSecretIn("opaque", USER.password);
  });
});

describe("an OCIRepository on a TLS registry", () => {
  it("trusts the registry through spec.certSecretRef's ca.crt, and is refused without it", async () => {
    await env.secret("registry-ca", { "ca.crt": tls.caPem! });
    await env.createOci("tls", {
      url: `${tls.url}/secure/app`,
      ref: { tag: "1.0.0" },
      certSecretRef: { name: "registry-ca" },
    });
    expect((await env.waitOci("tls", "True")).status!.artifact!.revision).toMatch(/^1\.0\.0@sha256:[0-9a-f]{64}$/);

    await env.createOci("untrusted", { url: `${tls.url}/secure/app`, ref: { tag: "1.0.0" } });
    const untrusted = await env.waitOci("untrusted", "False", "OCIArtifactPullFailed");
    expect(readyOf(untrusted)!.message).toContain(`registry ${tls.host}: its TLS certificate is not trusted`);

    await env.secret("half-cert", { "tls.crt": tls.caPem! });
    await env.createOci("half", { url: `${tls.url}/secure/app`, certSecretRef: { name: "half-cert" } });
    const half = await env.waitOci("half", "False", "AuthenticationFailed");
    expect(readyOf(half)!.message).toBe(
      `failed to generate transport for '${tls.url}/secure/app': secret '${env.ns}/half-cert': ` +
        "a client certificate needs both 'tls.crt' and 'tls.key'",
    );
  });
});

describe("an OCIRepository behind a proxy", () => {
  it("sends its registry requests through spec.proxySecretRef's proxy, with the proxy's credentials", async () => {
    await env.secret("proxy", { address: proxy.url, username: "p", password: "proxy-pass-91" });
    await env.secret("regcred-proxied", {
      ".dockerconfigjson": dockerConfig(basic.host, { username: USER.username, password: USER.password }),
    });
    const before = proxy.requests.forwarded;
    await env.createOci("proxied", {
      url: `${basic.url}/private/app`,
      ref: { tag: "1.0.0" },
      insecure: true,
      secretRef: { name: "regcred-proxied" },
      proxySecretRef: { name: "proxy" },
    });
    expect((await env.waitOci("proxied", "True")).status!.artifact!.revision).toBe(`1.0.0@${digest}`);
    expect(proxy.requests.forwarded).toBeGreaterThan(before);
    expect(proxy.requests.rejected).toBe(0);
    await noSecretIn("proxied", "proxy-pass-91", USER.password);
  });
});
