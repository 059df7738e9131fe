import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KubeconfigError } from "./errors.js";
import { endpointFromKubeconfig, endpointFromKubeconfigFile } from "./kubeconfig.js";
import { makeWorkDir } from "../util/work-dir.js";

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

  it("refuses token, certificate and key files in a kubeconfig that is not a file (a Secret's), naming the field", () => {
    const secret = { source: "secret t1/own-kubeconfig" };
    expect(() =>
      endpointFromKubeconfig(config({ tokenFile: "/var/run/secrets/kubernetes.io/serviceaccount/token" }), secret),
    ).toThrow(
      `kubeconfig secret t1/own-kubeconfig: user "u" names a file (tokenFile), which is refused for a kubeconfig that is not itself a file: it would be read from the controller's disk; embed the value instead (token)`,
    );
    for (const [user, cluster, field] of [
      [{ "client-certificate": "/etc/c.crt", "client-key-data": "eA==" }, {}, "client-certificate"],
      [{ "client-certificate-data": "eA==", "client-key": "/etc/c.key" }, {}, "client-key"],
      [{ token: "t" }, { "certificate-authority": "/etc/ca.crt" }, "certificate-authority"],
    ] as const)
      expect(() => endpointFromKubeconfig(config(user, cluster), secret)).toThrow(`names a file (${field})`);
  });

  it("lets a kubeconfig file (the operator's) name files relative to itself", () => {
    const dir = makeWorkDir("kubeconfig-");
    writeFileSync(join(dir, "ca.crt"), "CA");
    writeFileSync(join(dir, "kc"), config({ tokenFile: "token" }, { "certificate-authority": "ca.crt" }));
    expect(endpointFromKubeconfigFile(join(dir, "kc"))).toMatchObject({ caPem: "CA", tokenFile: join(dir, "token") });
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
    expect(() => endpointFromKubeconfig(`a: ${"[".repeat(10_000)}`, { source: "f" })).toThrow(
      "kubeconfig f: not valid YAML: the kubeconfig nests collections deeper than 256 levels, flotilla's limit",
    );
  });
});
