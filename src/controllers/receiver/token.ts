// The token a Receiver's Secret holds under `token` — read by the reconciler (for the webhook path)
// and by the server (to verify each request), as Flux reads it in both places. Errors name the
// Secret, never its data.
import { USED_KINDS } from "../../api/kinds.js";
import type { Receiver } from "../../api/notification/receiver.js";
import { pathOf } from "../../api/paths.js";
import type { Cluster } from "../../kube/cluster.js";
import { ApiError } from "../../kube/errors.js";
import { ReceiverError } from "./errors.js";

/** The Secret could not be read, or holds no `token`. */
export class TokenUnavailable extends ReceiverError {
  override name = "TokenUnavailable";
  constructor(
    readonly secret: string,
    readonly problem: "unreadable" | "no-token",
    message: string,
  ) {
    super(message);
  }
}

/** `<namespace>/<name>` of the Receiver's Secret. */
export const secretNameOf = (r: Receiver) => `${r.metadata.namespace}/${r.spec.secretRef?.name ?? ""}`;

export async function readToken(cluster: Cluster, r: Receiver): Promise<string> {
  const secret = secretNameOf(r);
  let data: Record<string, string> | undefined;
  try {
    const found = await cluster.client.get<{ data?: Record<string, string> }>(
      pathOf(USED_KINDS.Secret, r.metadata.namespace, r.spec.secretRef?.name ?? ""),
    );
    data = found.data;
  } catch (err) {
    // The API server's own words ('secrets "x" not found'), without the cluster name flotilla prefixes.
    const why = err instanceof ApiError && err.status.message ? err.status.message : (err as Error).message;
    throw new TokenUnavailable(secret, "unreadable", why);
  }
  const token = data?.token;
  if (token === undefined) throw new TokenUnavailable(secret, "no-token", "no 'token' key");
  return Buffer.from(token, "base64").toString("utf8");
}
