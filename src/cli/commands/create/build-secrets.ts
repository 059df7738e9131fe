// The Secrets `create secret git|helm|tls` write, as flux's manifestgen/sourcesecret and fluxcd/pkg
// runtime/secrets build them: stringData only (values never leave this process except into the
// export or the cluster), `kubernetes.io/basic-auth` for helm basic auth, `kubernetes.io/tls` for a
// certificate pair, Opaque for a CA alone.
import { readFileSync } from "node:fs";
import { X509Certificate, createPrivateKey } from "node:crypto";
import { generateKeyPair, publicKeyOf, scanHostKey } from "../../../binaries/openssh/index.js";
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
  /** A new key's algorithm and size (flux: ecdsa p384; rsa 2048). */
  sshKeyAlgorithm?: "rsa" | "ecdsa" | "ed25519";
  sshRsaBits?: number;
  sshEcdsaCurve?: "p256" | "p384" | "p521";
}

/**
 * An SSH Secret as flux's sourcesecret writes one: identity (the key file as given, or a new ecdsa p384
 * key), identity.pub, known_hosts (the server's key, scanned as Go's ssh client would pick it), and the
 * key's passphrase when there is one.
 */
async function sshSecret(m: Meta, a: GitSecretArgs) {
  let privateKey: string;
  let publicKey: string;
  if (a.privateKeyFile) {
    privateKey = read(a.privateKeyFile, "unable to read the private key file");
    publicKey = await publicKeyOf(privateKey, a.password ?? "");
  } else {
    const algorithm = a.sshKeyAlgorithm ?? "ecdsa";
    const bits =
      algorithm === "rsa"
        ? (a.sshRsaBits ?? 2048)
        : algorithm === "ecdsa"
          ? Number((a.sshEcdsaCurve ?? "p384").slice(1))
          : undefined;
    ({ privateKey, publicKey } = await generateKeyPair(algorithm, bits));
  }
  const host = new URL(a.url).host;
  const data: Record<string, string> = {
    identity: privateKey,
    "identity.pub": `${publicKey}\n`,
    known_hosts: await scanHostKey(host),
  };
  if (a.password) data.password = a.password;
  return secret(m, data);
}

export async function gitSecret(m: Meta, a: GitSecretArgs) {
  if (!a.url) throw new UsageError("url is required");
  let scheme: string;
  try {
    scheme = new URL(a.url).protocol.replace(/:$/, "");
  } catch {
    throw new UsageError(`git URL parse failed: ${a.url} is not a URL`);
  }
  if (scheme === "ssh") return sshSecret(m, a);
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
