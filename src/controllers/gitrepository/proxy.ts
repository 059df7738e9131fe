// spec.proxySecretRef for git: the proxy (and its credentials) as configuration for this server only.
import type { GitRepository } from "../../api/source/git-repository.js";
import type { KubeClient } from "../../kube/client.js";
import { ReconcileFailure } from "../kit/failure.js";
import { ProxySecretError, proxyUrlFromSecret } from "../kit/proxy-secret.js";

/**
 * spec.proxySecretRef (keys address, username, password) as git's http.proxy for this server:
 * HTTP/S and SOCKS5 proxies for http(s) URLs. Proxying ssh is not supported yet (Stalled).
 */
export async function proxyConfig(client: KubeClient, obj: GitRepository, scheme: string, origin: string) {
  if (!obj.spec.proxySecretRef) return [];
  const ref = `${obj.metadata.namespace}/${obj.spec.proxySecretRef.name}`;
  const fail = (why: string) =>
    new ReconcileFailure("AuthenticationFailed", `failed to configure proxy options: ${why}`);
  if (scheme === "ssh")
    throw new ReconcileFailure(
      "UnsupportedProxy",
      "spec.proxySecretRef is not supported for ssh:// URLs yet: only http(s) URLs can be proxied",
      { stalled: true },
    );
  let proxy: URL;
  try {
    proxy = await proxyUrlFromSecret(client, obj.metadata.namespace!, obj.spec.proxySecretRef.name);
  } catch (err) {
    if (err instanceof ProxySecretError) throw fail(err.message);
    throw err;
  }
  if (!["http:", "https:", "socks5:"].includes(proxy.protocol))
    throw fail(`secret '${ref}': proxy scheme '${proxy.protocol.replace(/:$/, "")}' is not http, https or socks5`);
  const username = proxy.username;
  // Travels as GIT_CONFIG_* environment (never argv); error output is masked of URL credentials.
  const entries: [string, string][] = [[`http.${origin}.proxy`, proxy.toString()]];
  // Send the credentials at once instead of after a 407 round trip.
  if (username) entries.push([`http.${origin}.proxyAuthMethod`, "basic"]);
  return entries;
}

export function addConfig(env: Record<string, string>, entries: readonly (readonly [string, string])[]) {
  let n = Number(env.GIT_CONFIG_COUNT ?? "0");
  for (const [k, v] of entries) {
    env[`GIT_CONFIG_KEY_${n}`] = k;
    env[`GIT_CONFIG_VALUE_${n++}`] = v;
  }
  env.GIT_CONFIG_COUNT = String(n);
}
