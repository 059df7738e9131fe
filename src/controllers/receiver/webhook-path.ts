// A Receiver's webhook path as Flux computes it (api/v1 Receiver.GetWebhookPath): `/hook/` and the hex
// SHA-256 of token + name + namespace, concatenated with no separator. Knowing the path is knowing a
// digest of the token: for a `generic` Receiver the path is the only secret.
import { createHash } from "node:crypto";
import { RECEIVER_WEBHOOK_PATH } from "../../api/notification/receiver.js";

export function webhookPath(token: string, name: string, namespace: string): string {
  return (
    RECEIVER_WEBHOOK_PATH +
    createHash("sha256")
      .update(token + name + namespace, "utf8")
      .digest("hex")
  );
}
