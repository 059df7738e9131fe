// The remote side of a GitRepository: its URL without credentials, the git environment built from
// the secret (and URL userinfo), `ls-remote` to resolve the ref, and the checkout of one commit.
// Failures come back as Flux's reasons and messages, with credentials masked.
import { USED_KINDS } from "../../api/kinds.js";
import { pathOf } from "../../api/paths.js";
import type { GitRepository } from "../../api/source/git-repository.js";
import type { KubeClient } from "../../kube/client.js";
import { checkout, type CheckoutExtras } from "../../sources/git/checkout.js";
import {
  authFromSecretData,
  GitAuthError,
  gitAuthEnv,
  maskUrlCredentials,
  stripUrlCredentials,
} from "../../sources/git/credentials.js";
import { GitCommandError, sandboxedGit } from "../../sources/git/git-cli.js";
import { parseLsRemote, RefNotFoundError, type ResolvedRef, resolveRef } from "../../sources/git/refs.js";
import { objectTimeout } from "../../util/object-timeout.js";
import { ReconcileFailure } from "../kit/failure.js";
import { addConfig, proxyConfig } from "./proxy.js";

export interface Remote {
  url: string;
  masked: string;
  /** Every git command of this object: its namespace's share of the git slots, its capped timeout. */
  git: { env: Record<string, string>; home: string; timeoutMs: number; tenant: string; timeoutNote?: string };
}

async function secretData(client: KubeClient, obj: GitRepository) {
  if (!obj.spec.secretRef) return undefined;
  const ref = `${obj.metadata.namespace}/${obj.spec.secretRef.name}`;
  try {
    const secret = await client.get<{ data?: Record<string, string> }>(
      pathOf(USED_KINDS.Secret, obj.metadata.namespace, obj.spec.secretRef.name),
    );
    return secret.data ?? {};
  } catch (err) {
    throw new ReconcileFailure(
      "AuthenticationFailed",
      `failed to get secret '${ref}': ${(err as Error).message.replace(/^[^:]+: /, "")}`,
    );
  }
}

/** Parses the URL and prepares the git environment in `work` (a private directory removed by the caller). */
export async function openRemote(client: KubeClient, obj: GitRepository, work: string): Promise<Remote> {
  const { url, username, password } = stripUrlCredentials(obj.spec.url);
  const masked = maskUrlCredentials(obj.spec.url);
  let scheme: string;
  let origin: string;
  try {
    const parsed = new URL(url);
    scheme = parsed.protocol.replace(/:$/, "");
    origin = `${parsed.protocol}//${parsed.host}/`;
  } catch (err) {
    throw new ReconcileFailure("URLInvalid", `failed to parse url '${masked}': ${(err as Error).message}`, {
      stalled: true,
    });
  }
  const proxy = await proxyConfig(client, obj, scheme, origin); // Flux configures the proxy first
  const auth = authFromSecretData(await secretData(client, obj));
  auth.username ??= username;
  auth.password ??= password;
  let env: Record<string, string>;
  try {
    env = gitAuthEnv(scheme, auth, work, origin);
  } catch (err) {
    if (err instanceof GitAuthError)
      throw new ReconcileFailure("AuthenticationFailed", `failed to configure authentication options: ${err.message}`);
    throw err;
  }
  addConfig(env, proxy);
  const timeout = objectTimeout(obj.spec.timeout, "60s");
  const tenant = obj.metadata.namespace ?? "";
  return { url, masked, git: { env, home: work, timeoutMs: timeout.ms, tenant, timeoutNote: timeout.capped } };
}

/** ls-remote, then the ref as Flux resolves it. */
export async function resolveRemote(remote: Remote, obj: GitRepository): Promise<ResolvedRef> {
  let refs;
  try {
    refs = parseLsRemote(await sandboxedGit(["ls-remote", remote.url], remote.git));
  } catch (err) {
    const reason = err instanceof GitCommandError && err.authFailure ? "AuthenticationFailed" : "GitOperationFailed";
    throw new ReconcileFailure(
      reason,
      `failed to checkout and determine revision: unable to list remote for '${remote.masked}': ${(err as Error).message}`,
    );
  }
  try {
    return resolveRef(obj.spec.ref, refs);
  } catch (err) {
    if (err instanceof RefNotFoundError)
      throw new ReconcileFailure(
        "GitOperationFailed",
        `failed to checkout and determine revision: unable to clone '${remote.masked}': ${err.message}`,
      );
    throw err;
  }
}

/** Checks out the resolved commit into `dir`; returns the commit and its subject (Flux: 50 characters). */
export async function checkoutRemote(
  remote: Remote,
  resolved: ResolvedRef,
  dir: string,
  extras: CheckoutExtras,
): Promise<{ commit: string; subject: string }> {
  try {
    const commit = await checkout(resolved, { url: remote.url, dir, ...remote.git, ...extras });
    const subject = (await sandboxedGit(["log", "-1", "--format=%s"], { ...remote.git, cwd: dir })).trim();
    return { commit, subject: [...subject].length > 50 ? `${[...subject].slice(0, 50).join("")}...` : subject };
  } catch (err) {
    if (err instanceof ReconcileFailure) throw err;
    const reason = err instanceof GitCommandError && err.authFailure ? "AuthenticationFailed" : "GitOperationFailed";
    throw new ReconcileFailure(
      reason,
      `failed to checkout and determine revision: ${maskUrlCredentials((err as Error).message)}`,
    );
  }
}
