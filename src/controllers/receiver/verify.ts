// Does a webhook request come from whoever holds the Receiver's token? Pure: headers, body and token
// in, the payload out, or a WebhookRejected saying why (Flux answers 400). The rules are Flux's
// (internal/server/receiver_handlers.go validate, with go-github's ValidatePayload/ValidateSignature):
// - generic: nothing beyond the path, which is a digest of the token;
// - generic-hmac: `X-Signature: sha1=|sha256=|sha512=<hex HMAC of the body keyed with the token>`;
// - github: `X-Hub-Signature-256` (else `X-Hub-Signature`) the same way, over the raw body of an
//   application/json or application/x-www-form-urlencoded request (the payload is then the form's
//   `payload` field); an empty token with no signature is not checked, as go-github does. Then
//   `X-GitHub-Event` must be one of spec.events when any are listed (case-insensitive). A `ping` is an
//   event like any other: Flux has no special case for it, so neither has flotilla;
// - gitlab: `X-Gitlab-Token` equal to the token, `X-Gitlab-Event` filtered the same way.
// MACs and tokens are compared in constant time; no message carries a token or a signature's value.
import { createHmac, timingSafeEqual } from "node:crypto";
import { WebhookRejected } from "./errors.js";

/** The types flotilla verifies; every other Flux type is refused by the reconciler (unsupported-fields.ts). */
export const SUPPORTED_RECEIVER_TYPES = ["generic", "generic-hmac", "github", "gitlab"] as const;
export type SupportedReceiverType = (typeof SUPPORTED_RECEIVER_TYPES)[number];

export interface WebhookRequest {
  /** Header names lower-cased, as Node gives them. */
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface Verified {
  /** What the resource filters read as `req` (GitHub's form payload unwrapped). */
  payload: Buffer;
  /** The sender's event, for the log and the Receiver's Event (github, gitlab). */
  event?: string;
}

const header = (r: WebhookRequest, name: string): string => {
  const v = r.headers[name.toLowerCase()];
  return (Array.isArray(v) ? v[0] : v) ?? "";
};

const HASHES: Record<string, string> = { sha1: "sha1", sha256: "sha256", sha512: "sha512" };

/** go-github's ValidateSignature: `<hash>=<hex>` over `body` keyed with `token`. */
export function validateSignature(signature: string, body: Buffer, token: string): void {
  if (signature === "") throw new WebhookRejected("missing signature");
  const at = signature.indexOf("=");
  if (at < 0) throw new WebhookRejected("error parsing signature: expected <hash>=<hex>");
  const prefix = signature.slice(0, at);
  const hex = signature.slice(at + 1);
  const hash = HASHES[prefix];
  if (!hash) throw new WebhookRejected(`unknown hash type prefix: "${prefix.slice(0, 16)}"`);
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(hex)) throw new WebhookRejected("error decoding signature: not hexadecimal");
  const given = Buffer.from(hex, "hex");
  const expected = createHmac(hash, token).update(body).digest();
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new WebhookRejected("payload signature check failed");
}

/** mime.ParseMediaType's media type, lower-cased; an empty or malformed header is an error. */
function mediaType(contentType: string): string {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (!type) throw new WebhookRejected("mime: no media type");
  if (!/^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+$/.test(type))
    throw new WebhookRejected("mime: expected token after slash");
  return type;
}

/** go-github's ValidatePayload: the body's signature, and the payload GitHub meant. */
function githubPayload(r: WebhookRequest, token: string): Buffer {
  const signature = header(r, "X-Hub-Signature-256") || header(r, "X-Hub-Signature");
  const type = mediaType(header(r, "Content-Type"));
  let payload: Buffer;
  if (type === "application/json") payload = r.body;
  else if (type === "application/x-www-form-urlencoded")
    payload = Buffer.from(new URLSearchParams(r.body.toString("utf8")).get("payload") ?? "", "utf8");
  else throw new WebhookRejected(`webhook request has unsupported Content-Type "${type}"`);
  if (token.length > 0 || signature.length > 0) validateSignature(signature, r.body, token);
  return payload;
}

function allowEvent(sender: string, event: string, events: string[] | undefined): void {
  if (!events?.length) return;
  const wanted = event.toLowerCase();
  if (!events.some((e) => e.toLowerCase() === wanted))
    throw new WebhookRejected(`the ${sender} event "${event.slice(0, 64)}" is not authorised`);
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given, "utf8");
  const b = Buffer.from(token, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}

export function verifyWebhook(
  type: SupportedReceiverType,
  r: WebhookRequest,
  token: string,
  events: string[] | undefined,
): Verified {
  switch (type) {
    case "generic":
      return { payload: r.body };
    case "generic-hmac":
      try {
        validateSignature(header(r, "X-Signature"), r.body, token);
      } catch (err) {
        throw new WebhookRejected(`unable to validate HMAC signature: ${(err as Error).message}`);
      }
      return { payload: r.body };
    case "github": {
      let payload: Buffer;
      try {
        payload = githubPayload(r, token);
      } catch (err) {
        throw new WebhookRejected(`the GitHub signature header is invalid, err: ${(err as Error).message}`);
      }
      const event = header(r, "X-GitHub-Event");
      allowEvent("GitHub", event, events);
      return { payload, event };
    }
    case "gitlab": {
      if (!sameToken(header(r, "X-Gitlab-Token"), token))
        throw new WebhookRejected("the X-Gitlab-Token header value does not match the receiver token");
      const event = header(r, "X-Gitlab-Event");
      allowEvent("GitLab", event, events);
      return { payload: r.body, event };
    }
  }
}
