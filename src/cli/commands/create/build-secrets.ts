// The Secrets `create secret git|helm|tls` write, as flux's manifestgen/sourcesecret and fluxcd/pkg
// runtime/secrets build them: stringData only (values never leave this process except into the
// export or the cluster), `kubernetes.io/basic-auth` for helm basic auth, `kubernetes.io/tls` for a
// certificate pair, Opaque for a CA alone.
import { readFileSync } from "node:fs";
import { X509Certificate, createPrivateKey } from "node:crypto";
import { UsageError } from "../../errors.js";
import { metadata, type Meta } from "./build-sources.js";

const read = (file: string, what: string) => {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    throw new UsageError(`${what}: ${(err as Error).message}`);
  }
};

function secret(m: Meta, stringData: Record<string, string>, type?: string) {
  return { apiVersion: "v1", kind: "Secret", metadata: metadata(m), stringData, ...(type ? { type } : {}) };
}

export interface GitSecretArgs {
  url: string;
  username?: string;
  password?: string;
  bearerToken?: string;
  caCrtFile?: string;
  privateKeyFile?: string;
}

export function gitSecret(m: Meta, a: GitSecretArgs) {
  if (!a.url) throw new UsageError("url is required");
  let scheme: string;
  try {
    scheme = new URL(a.url).protocol.replace(/:$/, "");
  } catch {
    throw new UsageError(`git URL parse failed: ${a.url} is not a URL`);
  }
  if (scheme === "ssh")
    throw new UsageError(
      "create secret git for an ssh:// URL (deploy keys, known_hosts) is not implemented in flotilla yet: " +
        "create the Secret with keys identity, identity.pub and known_hosts yourself",
    );
  if (scheme !== "http" && scheme !== "https")
    throw new UsageError(`git URL scheme '${scheme}' not supported, can be: ssh, http and https`);
  if ((!a.username || !a.password) && !a.bearerToken)
    throw new UsageError("for Git over HTTP/S the username and password, or a bearer token is required");
  if (a.username && a.password && a.bearerToken)
    throw new UsageError("user credentials and bearer token cannot be used together");
  const data: Record<string, string> = {};
  if (a.username && a.password) Object.assign(data, { username: a.username, password: a.password });
  if (a.bearerToken) data.bearerToken = a.bearerToken;
  if (a.caCrtFile) data["ca.crt"] = read(a.caCrtFile, "unable to read TLS CA file");
  return secret(m, data);
}

interface TlsFiles {
  tlsCrtFile?: string;
  tlsKeyFile?: string;
  caCrtFile?: string;
}

function tlsSecret(m: Meta, a: TlsFiles) {
  const ca = a.caCrtFile ? read(a.caCrtFile, "unable to read TLS CA file") : "";
  const crt = a.tlsCrtFile ? read(a.tlsCrtFile, "failed to read cert file") : "";
  const key = a.tlsKeyFile ? read(a.tlsKeyFile, "failed to read key file") : "";
  if (!!crt !== !!key)
    throw new UsageError(
      crt ? "private key is required with --tls-crt-file" : "certificate is required with --tls-key-file",
    );
  if (!crt && !ca)
    throw new UsageError(
      "a certificate and key pair (--tls-crt-file, --tls-key-file) or a CA (--ca-crt-file) is required",
    );
  if (crt) {
    try {
      const cert = new X509Certificate(crt);
      if (!cert.checkPrivateKey(createPrivateKey(key))) throw new Error("private key does not match public key");
    } catch (err) {
      throw new UsageError(`invalid TLS certificate and key pair: ${(err as Error).message}`);
    }
  }
  const data: Record<string, string> = crt ? { "tls.crt": crt, "tls.key": key } : {};
  if (ca) data["ca.crt"] = ca;
  return secret(m, data, crt ? "kubernetes.io/tls" : "Opaque");
}

export const tlsOnlySecret = tlsSecret;

export interface HelmSecretArgs extends TlsFiles {
  username?: string;
  password?: string;
}

export function helmSecret(m: Meta, a: HelmSecretArgs) {
  if (a.tlsCrtFile || a.tlsKeyFile) return tlsSecret(m, a);
  if (a.username || a.password) {
    if (!a.username) throw new UsageError("username is required");
    if (!a.password) throw new UsageError("password is required");
    const data: Record<string, string> = { username: a.username, password: a.password };
    if (a.caCrtFile) data["ca.crt"] = read(a.caCrtFile, "unable to read TLS CA file");
    return secret(m, data, "kubernetes.io/basic-auth");
  }
  if (a.caCrtFile) return tlsSecret(m, a);
  return secret(m, {});
}
