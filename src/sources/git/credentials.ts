// Git credentials from a GitRepository's secretRef, turned into git configuration and environment —
// never into the command line or the URL, where `ps` and error messages would show them.
import { FlotillaError } from "../../util/errors.js";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface GitAuth {
  username?: string;
  password?: string;
  bearerToken?: string;
  identity?: string;
  knownHosts?: string;
  caCert?: string;
}

export class GitAuthError extends FlotillaError {
  override name = "GitAuthError";
}

/** Reads Flux's secret keys: username, password, bearerToken, identity, known_hosts, ca.crt (or caFile). */
export function authFromSecretData(data: Record<string, string> | undefined): GitAuth {
  const get = (k: string) => (data?.[k] !== undefined ? Buffer.from(data[k]!, "base64").toString("utf8") : undefined);
  return {
    username: get("username"),
    password: get("password"),
    bearerToken: get("bearerToken"),
    identity: get("identity"),
    knownHosts: get("known_hosts"),
    caCert: get("ca.crt") ?? get("caFile"),
  };
}

/** Removes user:password@ from URLs in any text. */
export function maskUrlCredentials(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s'"]+@/gi, "$1***@");
}

export function stripUrlCredentials(url: string): { url: string; username?: string; password?: string } {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return { url };
    const out = {
      url: "",
      username: decodeURIComponent(u.username) || undefined,
      password: decodeURIComponent(u.password) || undefined,
    };
    u.username = "";
    u.password = "";
    out.url = u.toString();
    return out;
  } catch {
    return { url };
  }
}

/**
 * Environment for one git invocation: auth as `GIT_CONFIG_*` entries (http.extraHeader for basic
 * and bearer, sslCAInfo) and, for ssh, a GIT_SSH_COMMAND with the identity and known_hosts files
 * written into `workDir` (removed with it). With `origin` (scheme://host:port/) the header is
 * scoped to that server, so a submodule hosted elsewhere never receives these credentials.
 */
export function gitAuthEnv(scheme: string, auth: GitAuth, workDir: string, origin?: string): Record<string, string> {
  const header = origin ? `http.${origin}.extraHeader` : "http.extraHeader";
  const config: [string, string][] = [];
  const env: Record<string, string> = {};
  if (scheme === "http" || scheme === "https") {
    if (auth.password && !auth.username)
      throw new GitAuthError(`invalid '${scheme}' auth option: 'password' requires 'username' to be set`);
    if (auth.bearerToken && auth.username)
      throw new GitAuthError("basic auth and bearer token cannot be set at the same time");
    if (auth.username)
      config.push([
        header,
        `Authorization: Basic ${Buffer.from(`${auth.username}:${auth.password ?? ""}`).toString("base64")}`,
      ]);
    if (auth.bearerToken) config.push([header, `Authorization: Bearer ${auth.bearerToken}`]);
    if (auth.caCert) {
      const ca = join(workDir, "ca.crt");
      writeFileSync(ca, auth.caCert, { mode: 0o600 });
      config.push(["http.sslCAInfo", ca]);
    }
  } else if (scheme === "ssh") {
    if (!auth.identity) throw new GitAuthError("invalid 'ssh' auth option: 'identity' is required");
    if (!auth.knownHosts) throw new GitAuthError("invalid 'ssh' auth option: 'known_hosts' is required");
    const key = join(workDir, "identity");
    const hosts = join(workDir, "known_hosts");
    writeFileSync(key, auth.identity.endsWith("\n") ? auth.identity : `${auth.identity}\n`, { mode: 0o600 });
    chmodSync(key, 0o600);
    writeFileSync(hosts, auth.knownHosts, { mode: 0o600 });
    env.GIT_SSH_COMMAND = `ssh -i ${key} -o IdentitiesOnly=yes -o UserKnownHostsFile=${hosts} -o StrictHostKeyChecking=yes -o BatchMode=yes -o ConnectTimeout=15`;
  }
  env.GIT_CONFIG_COUNT = String(config.length);
  config.forEach(([k, v], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = k;
    env[`GIT_CONFIG_VALUE_${i}`] = v;
  });
  return env;
}
