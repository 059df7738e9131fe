import { describe, expect, it } from "vitest";
import { KubeconfigError } from "./errors.js";
import { endpointFromKubeconfig } from "./kubeconfig.js";

const config = (user: Record<string, unknown>, cluster: Record<string, unknown> = {}) =>
  JSON.stringify({
    clusters: [{ name: "c", cluster: { server: "https://127.0.0.1:6443", ...cluster } }],
    users: [{ name: "u", user }],
    contexts: [{ name: "ctx", context: { cluster: "c", user: "u" } }],
    "current-context": "ctx",
  });

describe("kubeconfig loading", () => {
  it("refuses exec plugins and insecure TLS unless allowed, naming the source and the flag", () => {
    const exec = config({ exec: { command: "/bin/steal" } });
    expect(() => endpointFromKubeconfig(exec, { source: "tenants/t1-admin-kubeconfig" })).toThrow(
      'kubeconfig tenants/t1-admin-kubeconfig: user "u" uses an exec credential plugin, which is refused; allow it explicitly (--insecure-kubeconfig-exec) only for trusted kubeconfigs',
    );
    expect(endpointFromKubeconfig(exec, { source: "x", allowExec: true }).exec).toEqual({ command: "/bin/steal" });
    const insecure = config({ token: "t" }, { "insecure-skip-tls-verify": true });
    expect(() => endpointFromKubeconfig(insecure, { source: "x" })).toThrow(KubeconfigError);
    expect(endpointFromKubeconfig(insecure, { source: "x", allowInsecureTls: true }).insecureSkipTlsVerify).toBe(true);
  });

  it("decodes embedded credentials and keeps tls-server-name and proxy", () => {
    const ep = endpointFromKubeconfig(
      config(
        {
          "client-certificate-data": Buffer.from("CERT").toString("base64"),
          "client-key-data": Buffer.from("KEY").toString("base64"),
        },
        {
          "certificate-authority-data": Buffer.from("CA").toString("base64"),
          "tls-server-name": "kubernetes",
          "proxy-url": "http://127.0.0.1:3128",
        },
      ),
      { source: "x" },
    );
    expect(ep).toMatchObject({
      name: "ctx",
      caPem: "CA",
      certPem: "CERT",
      keyPem: "KEY",
      tlsServerName: "kubernetes",
      proxyUrl: "http://127.0.0.1:3128",
    });
  });

  it("names a missing context and invalid YAML", () => {
    expect(() => endpointFromKubeconfig(config({}), { source: "f", context: "nope" })).toThrow(
      'kubeconfig f: context "nope" not found',
    );
    expect(() => endpointFromKubeconfig("a: [", { source: "f" })).toThrow(/kubeconfig f: not valid YAML/);
  });
});
