// spec.proxySecretRef as Flux reads it (fluxcd/pkg/runtime/secrets ProxyURLFromSecretRef): keys
// address, username, password, turned into one proxy URL with the credentials in it. Shared by the
// sources that take a proxy (GitRepository, OCIRepository); each says what the URL is for and which
// schemes its transport can use. The messages name the Secret, never a value from it.
import { USED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { KubeClient } from "../../kube/client.js";
import { FlotillaError } from "../../util/errors.js";

/** Why the proxy Secret cannot give a proxy URL; the caller wraps it in its kind's failure. */
export class ProxySecretError extends FlotillaError {
  override name = "ProxySecretError";
}

/** The proxy URL of Secret `namespace/name`, credentials included (percent-encoded). */
export async function proxyUrlFromSecret(client: KubeClient, namespace: string, name: string): Promise<URL> {
  const ref = `${namespace}/${name}`;
  let data: Record<string, string>;
  try {
    data = (await client.get<{ data?: Record<string, string> }>(pathOf(USED_KINDS.Secret, namespace, name))).data ?? {};
  } catch (err) {
    throw new ProxySecretError(`failed to get secret '${ref}': ${(err as Error).message.replace(/^[^:]+: /, "")}`);
  }
  const get = (k: string) => (data[k] ? Buffer.from(data[k], "base64").toString("utf8") : undefined);
  const address = get("address");
  if (!address) throw new ProxySecretError(`secret '${ref}': key 'address' not found`);
  let proxy: URL;
  try {
    proxy = new URL(address);
  } catch {
    throw new ProxySecretError(`secret '${ref}': invalid address`);
  }
  const [username, password] = [get("username"), get("password")];
  if (username) proxy.username = encodeURIComponent(username);
  if (password) proxy.password = encodeURIComponent(password);
  return proxy;
}
