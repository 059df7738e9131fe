// A Provider resolved into what a delivery needs, as notification-controller's createNotifier reads it:
// spec.address unless the secretRef's `address` key is set; token, username, password and headers
// (YAML) from the secretRef; the proxy from proxySecretRef's `address`, else the Secret's deprecated
// `proxy` key, else spec.proxy; TLS from certSecretRef (ca.crt, tls.crt, tls.key). Anything flotilla
// cannot honour is refused by name (ProviderInvalid), never ignored. Messages never hold a value.
import { parse as parseYaml } from "yaml";
import { USED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { Provider } from "../../api/notification/provider.js";
import type { KubeClient } from "../../kube/client.js";
import { NotFoundError } from "../../kube/errors.js";
import { parseDuration } from "../../util/duration.js";
import { ProviderInvalid } from "./errors.js";
import {
  ADDRESS_NOT_USED,
  GIT_ADDRESS_TYPES,
  PROVIDERS,
  PROVIDER_CHECKS,
  supportedProviderTypes,
} from "./providers/index.js";
import type { ProviderBuilder, ProviderSettings } from "./providers/types.js";
import type { SendOptions } from "./send.js";

export interface ResolvedProvider {
  build: ProviderBuilder;
  settings: ProviderSettings;
  send: SendOptions;
}

type SecretData = Record<string, string>;

/** What is wrong with the Provider's spec alone, before any Secret is read (the status reconcile's check). */
export function specProblem(p: Provider): ProviderInvalid | undefined {
  if (!PROVIDERS[p.spec.type])
    return new ProviderInvalid(
      `provider type '${p.spec.type}' is not supported by flotilla (supported: ${supportedProviderTypes().join(", ")})`,
      "UnsupportedType",
    );
  if (p.spec.serviceAccountName)
    return new ProviderInvalid(
      "spec.serviceAccountName (workload identity) is not supported by flotilla",
      "UnsupportedField",
    );
  if (p.spec.commitStatusExpr)
    return new ProviderInvalid("spec.commitStatusExpr is not supported by flotilla", "UnsupportedField");
  if (p.spec.timeout) {
    try {
      parseDuration(p.spec.timeout);
    } catch {
      return new ProviderInvalid(`spec.timeout '${p.spec.timeout}' is not a duration`);
    }
  }
  return undefined;
}

async function secretData(client: KubeClient, namespace: string, name: string, field: string): Promise<SecretData> {
  try {
    const s = await client.get<{ data?: Record<string, string> }>(pathOf(USED_KINDS.Secret, namespace, name));
    return Object.fromEntries(
      Object.entries(s.data ?? {}).map(([k, v]) => [k, Buffer.from(v, "base64").toString("utf8")]),
    );
  } catch (err) {
    if (err instanceof NotFoundError)
      throw new ProviderInvalid(`${field}: Secret '${namespace}/${name}' not found`, "SecretNotFound");
    throw err;
  }
}

function headersOf(data: SecretData, ref: string): Record<string, string> | undefined {
  if (data.headers === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = parseYaml(data.headers);
  } catch {
    parsed = undefined;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed))
    throw new ProviderInvalid(`failed to read headers from Secret '${ref}': 'headers' must be a YAML map of strings`);
  return Object.fromEntries(Object.entries(parsed as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
}

/** The types notification-controller v1.x authenticates as a GitHub App when the Secret has no token. */
const GITHUB_APP_TYPES = new Set(["github", "githubdispatch", "githubpullrequestcomment"]);

/**
 * GitHub App authentication (the Secret's githubAppID, githubAppInstallationID, githubAppPrivateKey…
 * keys, which Flux uses when `token` is absent) is not implemented: refused naming the keys found,
 * rather than failing later as a missing token.
 */
export function githubAppProblem(type: string, data: SecretData, ref: string): ProviderInvalid | undefined {
  if (!GITHUB_APP_TYPES.has(type) || data.token?.trim()) return undefined;
  const keys = Object.keys(data)
    .filter((k) => k.startsWith("githubApp"))
    .sort();
  if (!keys.length) return undefined;
  return new ProviderInvalid(
    `spec.secretRef: Secret '${ref}' holds GitHub App keys (${keys.join(", ")}): GitHub App authentication is not supported by flotilla; set the 'token' key instead`,
    "UnsupportedField",
  );
}

export async function resolveProvider(client: KubeClient, p: Provider): Promise<ResolvedProvider> {
  const problem = specProblem(p);
  if (problem) throw problem;
  const ns = p.metadata.namespace!;
  const settings: ProviderSettings = {
    address: p.spec.address ?? "",
    channel: p.spec.channel,
    username: p.spec.username,
    providerUid: p.metadata.uid,
  };
  let proxy = p.spec.proxy;
  if (p.spec.secretRef) {
    const ref = `${ns}/${p.spec.secretRef.name}`;
    const data = await secretData(client, ns, p.spec.secretRef.name, "spec.secretRef");
    if (data.address !== undefined) {
      if (data.address.length > 2048)
        throw new ProviderInvalid(`invalid address in Secret '${ref}': longer than 2048 bytes`);
      settings.address = data.address.trim();
    }
    const app = githubAppProblem(p.spec.type, data, ref);
    if (app) throw app;
    if (data.token !== undefined) settings.token = data.token.trim();
    if (data.username !== undefined) settings.username = data.username;
    if (data.password !== undefined) settings.password = data.password;
    settings.headers = headersOf(data, ref);
    if (data.proxy !== undefined) proxy = data.proxy.trim();
  }
  if (p.spec.proxySecretRef) {
    const data = await secretData(client, ns, p.spec.proxySecretRef.name, "spec.proxySecretRef");
    if (!data.address)
      throw new ProviderInvalid(
        `spec.proxySecretRef: Secret '${ns}/${p.spec.proxySecretRef.name}' has no 'address' key`,
      );
    const u = new URL(data.address);
    if (data.username) u.username = encodeURIComponent(data.username);
    if (data.password) u.password = encodeURIComponent(data.password);
    proxy = u.toString();
  }
  let tls: SendOptions["tls"];
  if (p.spec.certSecretRef) {
    const data = await secretData(client, ns, p.spec.certSecretRef.name, "spec.certSecretRef");
    tls = {
      ca: data["ca.crt"] ?? data.caFile,
      cert: data["tls.crt"] ?? data.certFile,
      key: data["tls.key"] ?? data.keyFile,
    };
    if (!tls.ca && !tls.cert)
      throw new ProviderInvalid(
        `spec.certSecretRef: Secret '${ns}/${p.spec.certSecretRef.name}' has neither 'ca.crt' nor 'tls.crt'`,
      );
    if (!!tls.cert !== !!tls.key)
      throw new ProviderInvalid(
        `spec.certSecretRef: Secret '${ns}/${p.spec.certSecretRef.name}' needs both 'tls.crt' and 'tls.key'`,
      );
  }
  if (!ADDRESS_NOT_USED.has(p.spec.type)) {
    if (!settings.address)
      throw new ProviderInvalid(
        "no address: set spec.address or the 'address' key of the secretRef's Secret",
        "AddressNotSet",
      );
    // A forge's address may be scp-like (git@host:owner/repo); its own check parses it.
    if (!GIT_ADDRESS_TYPES.has(p.spec.type))
      try {
        new URL(settings.address);
      } catch {
        throw new ProviderInvalid("the provider's address is not a valid URL", "InvalidAddress");
      }
  }
  PROVIDER_CHECKS[p.spec.type]?.(settings);
  const secrets = [settings.token, settings.password, settings.address].filter((x): x is string => !!x);
  return {
    build: PROVIDERS[p.spec.type]!,
    settings,
    send: {
      timeoutMs: p.spec.timeout ? parseDuration(p.spec.timeout) : 15_000,
      ...(proxy ? { proxy } : {}),
      ...(tls ? { tls } : {}),
      secrets,
    },
  };
}
