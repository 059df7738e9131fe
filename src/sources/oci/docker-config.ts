// Registry credentials from a docker-registry Secret's `.dockerconfigjson` (or `.dockercfg`-style
// `auths`): the entry for a registry is found the way Docker's config file store and
// go-containerregistry's keychain do (Docker Hub's key is https://index.docker.io/v1/; a key may
// carry a scheme and a path, which are cut off to compare hosts), plus the wildcard host patterns
// (`*.example.com`) of Kubernetes' credential provider that Flux's k8schain pull secrets honour.
import { OciError } from "./errors.js";

interface AuthEntry {
  auth?: string;
  username?: string;
  password?: string;
  identitytoken?: string;
  registrytoken?: string;
}

const DOCKER_HUB_KEY = "https://index.docker.io/v1/";
const DOCKER_HUB_HOSTS = new Set(["index.docker.io", "docker.io", "registry-1.docker.io"]);

/** `https://host:port/path` → `host:port` (Docker's ConvertToHostname). */
export function hostOfConfigKey(key: string): string {
  const noScheme = key.replace(/^https?:\/\//, "");
  return noScheme.split("/")[0]!.toLowerCase();
}

const isDockerHub = (host: string) => DOCKER_HUB_HOSTS.has(host);

/** A `*` label matches one DNS label; ports must be equal (Kubernetes credentialprovider's URL matching). */
function hostMatches(pattern: string, host: string): boolean {
  if (pattern === host || (isDockerHub(pattern) && isDockerHub(host))) return true;
  if (!pattern.includes("*")) return false;
  const [pHost, pPort] = splitPort(pattern);
  const [hHost, hPort] = splitPort(host);
  if (pPort !== hPort) return false;
  const p = pHost.split(".");
  const h = hHost.split(".");
  return p.length === h.length && p.every((label, i) => label === h[i] || label === "*");
}

function splitPort(host: string): [string, string] {
  const m = /^(.*?)(?::(\d+))?$/.exec(host)!;
  return [m[1]!, m[2] ?? ""];
}

function credentialsOf(entry: AuthEntry, key: string): { username: string; password: string } {
  if (entry.username !== undefined || entry.password !== undefined)
    return { username: entry.username ?? "", password: entry.password ?? "" };
  if (entry.auth) {
    const decoded = Buffer.from(entry.auth, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0)
      throw new OciError(
        `the docker config entry for '${key}' has an 'auth' that is not base64 of <username>:<password>`,
      );
    return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  if (entry.identitytoken || entry.registrytoken)
    throw new OciError(
      `the docker config entry for '${key}' holds only an identity or registry token, which flotilla does not support; give a username and password (or auth)`,
    );
  throw new OciError(`the docker config entry for '${key}' has neither 'auth' nor 'username'/'password'`);
}

/** The username/password a `.dockerconfigjson` gives for `registry` (host[:port]), or undefined if none matches. */
export function credentialsFromDockerConfig(
  json: string,
  registry: string,
): { username: string; password: string } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    // The text itself is never quoted: it holds secrets.
    throw new OciError('the docker config is not valid JSON (expected {"auths": {"<registry>": {...}}})');
  }
  if (!parsed || typeof parsed !== "object") throw new OciError('the docker config is not a JSON object with "auths"');
  const auths = ((parsed as { auths?: unknown }).auths ?? parsed) as Record<string, AuthEntry>;
  if (!auths || typeof auths !== "object") throw new OciError('the docker config\'s "auths" is not an object');
  const host = registry.toLowerCase();
  const keys = Object.keys(auths);
  // Exact key first (Docker Hub's is a URL), then the host of each key, then wildcard patterns.
  const exact = keys.find((k) => k === registry || (isDockerHub(host) && k === DOCKER_HUB_KEY));
  const byHost =
    exact ?? keys.find((k) => hostOfConfigKey(k) === host || (isDockerHub(host) && isDockerHub(hostOfConfigKey(k))));
  const key = byHost ?? keys.find((k) => hostMatches(hostOfConfigKey(k), host));
  if (key === undefined) return undefined;
  const entry = auths[key];
  if (!entry || typeof entry !== "object") throw new OciError(`the docker config entry for '${key}' is not an object`);
  return credentialsOf(entry, key);
}
