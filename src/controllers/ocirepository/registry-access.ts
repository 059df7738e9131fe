// How an OCIRepository talks to its registry, from its spec and Secrets, with source-controller's
// failures: credentials from spec.secretRef (a docker-registry Secret) and the imagePullSecrets of
// spec.serviceAccountName ("failed to get credential: ..."), a proxy from spec.proxySecretRef ("failed
// to get proxy address: ..."), TLS from spec.certSecretRef (ca.crt, tls.crt, tls.key: "failed to
// generate transport for '<url>': ..."), plain HTTP with spec.insecure, spec.timeout per call. All
// AuthenticationFailed. No message carries a value from a Secret.
import { USED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { OCIRepository } from "../../api/source/oci-repository.js";
import type { KubeClient } from "../../kube/client.js";
import type { RegistryOptions } from "../../sources/oci/client.js";
import { credentialsFromDockerConfig } from "../../sources/oci/docker-config.js";
import { ReconcileFailure } from "../kit/failure.js";
import { ProxySecretError, proxyUrlFromSecret } from "../kit/proxy-secret.js";

type SecretData = Record<string, string>;
type Credentials = { username: string; password: string };

const AUTH_FAILED = "AuthenticationFailed";
const decode = (data: SecretData, key: string) =>
  data[key] ? Buffer.from(data[key], "base64").toString("utf8") : undefined;

async function secretData(client: KubeClient, namespace: string, name: string): Promise<SecretData> {
  try {
    return (await client.get<{ data?: SecretData }>(pathOf(USED_KINDS.Secret, namespace, name))).data ?? {};
  } catch (err) {
    throw new Error(`failed to get secret '${namespace}/${name}': ${(err as Error).message.replace(/^[^:]+: /, "")}`);
  }
}

/** The registry's credentials in one docker-registry Secret (`.dockerconfigjson`, or the older `.dockercfg`). */
function fromPullSecret(data: SecretData, ref: string, registry: string): Credentials | undefined {
  const json = decode(data, ".dockerconfigjson") ?? decode(data, ".dockercfg");
  if (!json)
    throw new Error(
      `secret '${ref}' has no '.dockerconfigjson' key: create it with \`kubectl create secret docker-registry\``,
    );
  try {
    return credentialsFromDockerConfig(json, registry);
  } catch (err) {
    throw new Error(`secret '${ref}': ${(err as Error).message}`);
  }
}

/** spec.secretRef first, then the service account's imagePullSecrets in order: the first with an entry for the registry. */
async function credentials(client: KubeClient, obj: OCIRepository, registry: string): Promise<Credentials | undefined> {
  const ns = obj.metadata.namespace!;
  const names: string[] = [];
  if (obj.spec.secretRef) names.push(obj.spec.secretRef.name);
  if (obj.spec.serviceAccountName) {
    let sa: { imagePullSecrets?: { name?: string }[] };
    try {
      sa = await client.get(pathOf(USED_KINDS.ServiceAccount, ns, obj.spec.serviceAccountName));
    } catch (err) {
      const why = (err as Error).message.replace(/^[^:]+: /, "");
      throw new Error(`failed to get service account '${ns}/${obj.spec.serviceAccountName}': ${why}`);
    }
    for (const s of sa.imagePullSecrets ?? []) if (s.name) names.push(s.name);
  }
  for (const name of names) {
    const found = fromPullSecret(await secretData(client, ns, name), `${ns}/${name}`, registry);
    if (found) return found;
  }
  return undefined;
}

async function tls(client: KubeClient, obj: OCIRepository): Promise<Pick<RegistryOptions, "ca" | "cert" | "key">> {
  if (!obj.spec.certSecretRef) return {};
  const ns = obj.metadata.namespace!;
  const data = await secretData(client, ns, obj.spec.certSecretRef.name);
  const [ca, cert, key] = [decode(data, "ca.crt"), decode(data, "tls.crt"), decode(data, "tls.key")];
  const ref = `${ns}/${obj.spec.certSecretRef.name}`;
  if (!cert !== !key) throw new Error(`secret '${ref}': a client certificate needs both 'tls.crt' and 'tls.key'`);
  if (!ca && !cert) throw new Error(`secret '${ref}': found none of 'ca.crt', 'tls.crt' and 'tls.key'`);
  return { ca, cert, key };
}

async function proxy(client: KubeClient, obj: OCIRepository): Promise<string | undefined> {
  if (!obj.spec.proxySecretRef) return undefined;
  const url = await proxyUrlFromSecret(client, obj.metadata.namespace!, obj.spec.proxySecretRef.name);
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new ProxySecretError(
      `secret '${obj.metadata.namespace}/${obj.spec.proxySecretRef.name}': proxy scheme '${url.protocol.replace(/:$/, "")}' is not http or https`,
    );
  return url.toString();
}

/** The RegistryClient options for this object and registry (host[:port]); ReconcileFailures as Flux words them. */
export async function registryOptions(
  client: KubeClient,
  obj: OCIRepository,
  registry: string,
  timeoutMs: number,
): Promise<RegistryOptions> {
  const auth = await credentials(client, obj, registry).catch((err: Error) => {
    throw new ReconcileFailure(AUTH_FAILED, `failed to get credential: ${err.message}`);
  });
  const proxyUrl = await proxy(client, obj).catch((err: Error) => {
    if (!(err instanceof ProxySecretError)) throw err;
    throw new ReconcileFailure(AUTH_FAILED, `failed to get proxy address: ${err.message}`);
  });
  const certs = await tls(client, obj).catch((err: Error) => {
    throw new ReconcileFailure(AUTH_FAILED, `failed to generate transport for '${obj.spec.url}': ${err.message}`);
  });
  return { insecure: obj.spec.insecure === true, timeoutMs, ...certs, ...(auth ? { auth } : {}), proxyUrl };
}
