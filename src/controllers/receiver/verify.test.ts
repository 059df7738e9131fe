import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { WebhookRejected } from "./errors.js";
import { validateSignature, verifyWebhook, type WebhookRequest } from "./verify.js";
import { webhookPath } from "./webhook-path.js";

const TOKEN = "s3cr3t-token";
const body = Buffer.from('{"ref":"refs/heads/main"}');
const hmac = (alg: string, key = TOKEN, data: Buffer = body) => createHmac(alg, key).update(data).digest("hex");
const req = (headers: Record<string, string>, b: Buffer = body): WebhookRequest => ({
  headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
  body: b,
});
const rejected = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookRejected);
    return (err as Error).message;
  }
  throw new Error("not rejected");
};

describe("webhook path", () => {
  it("is /hook/ and the hex sha256 of token + name + namespace (flux2's own golden: create secret receiver)", () => {
    // cmd/flux/testdata/create_secret/receiver/secret-receiver.yaml: token test-token, receiver-secret in my-namespace.
    expect(webhookPath("test-token", "receiver-secret", "my-namespace")).toBe(
      "/hook/106120121d366c2f67e93200f6c1dbe938235eb588daa5e8c0516d3a77ac1dee",
    );
  });

  it("changes with the token, the name and the namespace", () => {
    const paths = new Set([
      webhookPath("a", "n", "ns"),
      webhookPath("b", "n", "ns"),
      webhookPath("a", "m", "ns"),
      webhookPath("a", "n", "nt"),
    ]);
    expect(paths.size).toBe(4);
  });
});

describe("HMAC signatures (go-github's ValidateSignature)", () => {
  it("accepts GitHub's documented example (X-Hub-Signature-256 of 'Hello, World!')", () => {
    const sig = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";
    expect(() => validateSignature(sig, Buffer.from("Hello, World!"), "It's a Secret to Everybody")).not.toThrow();
  });

  it.each(["sha1", "sha256", "sha512"])("accepts %s= and upper-case hex", (alg) => {
    expect(() => validateSignature(`${alg}=${hmac(alg)}`, body, TOKEN)).not.toThrow();
    expect(() => validateSignature(`${alg}=${hmac(alg).toUpperCase()}`, body, TOKEN)).not.toThrow();
  });

  it.each([
    ["", "missing signature"],
    ["deadbeef", "error parsing signature"],
    ["md5=00", 'unknown hash type prefix: "md5"'],
    ["sha256=zz", "not hexadecimal"],
    ["sha256=abc", "not hexadecimal"],
    [`sha256=${hmac("sha256", "other-token")}`, "payload signature check failed"],
    [`sha256=${hmac("sha256").slice(0, 40)}`, "payload signature check failed"],
    [`sha1=${hmac("sha256")}`, "payload signature check failed"],
  ])("refuses %j: %s", (sig, why) => {
    expect(rejected(() => validateSignature(sig, body, TOKEN))).toContain(why);
  });

  it("never puts the token or the signature in its message", () => {
    const sig = `sha256=${hmac("sha256", "wrong")}`;
    const message = rejected(() => validateSignature(sig, body, TOKEN));
    expect(message).not.toContain(TOKEN);
    expect(message).not.toContain(sig.slice(7));
  });
});

describe("verifyWebhook", () => {
  it("generic: the path is the secret, nothing else is checked", () => {
    expect(verifyWebhook("generic", req({}), TOKEN, ["push"]).payload).toEqual(body);
  });

  it("generic-hmac: X-Signature over the body", () => {
    expect(() =>
      verifyWebhook("generic-hmac", req({ "X-Signature": `sha512=${hmac("sha512")}` }), TOKEN, []),
    ).not.toThrow();
    expect(rejected(() => verifyWebhook("generic-hmac", req({}), TOKEN, []))).toBe(
      "unable to validate HMAC signature: missing signature",
    );
    const tampered = Buffer.from('{"ref":"refs/heads/evil"}');
    expect(
      rejected(() =>
        verifyWebhook("generic-hmac", req({ "X-Signature": `sha256=${hmac("sha256")}` }, tampered), TOKEN, []),
      ),
    ).toContain("payload signature check failed");
  });

  const github = (headers: Record<string, string>, b: Buffer = body) =>
    req({ "Content-Type": "application/json", "X-GitHub-Event": "push", ...headers }, b);

  it("github: X-Hub-Signature-256 first, X-Hub-Signature (sha1) otherwise; the event is returned", () => {
    expect(verifyWebhook("github", github({ "X-Hub-Signature-256": `sha256=${hmac("sha256")}` }), TOKEN, [])).toEqual({
      payload: body,
      event: "push",
    });
    expect(() =>
      verifyWebhook("github", github({ "X-Hub-Signature": `sha1=${hmac("sha1")}` }), TOKEN, []),
    ).not.toThrow();
    // The sha256 header wins even when a valid sha1 one is there too.
    const both = github({ "X-Hub-Signature-256": "sha256=00", "X-Hub-Signature": `sha1=${hmac("sha1")}` });
    expect(rejected(() => verifyWebhook("github", both, TOKEN, []))).toContain(
      "the GitHub signature header is invalid",
    );
  });

  it("github: a bad or missing signature is refused", () => {
    expect(rejected(() => verifyWebhook("github", github({}), TOKEN, []))).toBe(
      "the GitHub signature header is invalid, err: missing signature",
    );
    const wrong = github({ "X-Hub-Signature-256": `sha256=${hmac("sha256", "nope")}` });
    expect(rejected(() => verifyWebhook("github", wrong, TOKEN, []))).toContain("payload signature check failed");
  });

  it("github: the Content-Type must be JSON or a form, whose payload field is the payload", () => {
    const noType = req({ "X-Hub-Signature-256": `sha256=${hmac("sha256")}`, "X-GitHub-Event": "push" });
    expect(rejected(() => verifyWebhook("github", noType, TOKEN, []))).toContain("mime: no media type");
    const xml = github({ "Content-Type": "text/xml", "X-Hub-Signature-256": `sha256=${hmac("sha256")}` });
    expect(rejected(() => verifyWebhook("github", xml, TOKEN, []))).toContain('unsupported Content-Type "text/xml"');
    const form = Buffer.from(`payload=${encodeURIComponent('{"zen":"hi"}')}`);
    const signedForm = github(
      {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Hub-Signature-256": `sha256=${hmac("sha256", TOKEN, form)}`,
      },
      form,
    );
    expect(verifyWebhook("github", signedForm, TOKEN, []).payload.toString()).toBe('{"zen":"hi"}');
  });

  it("github: an empty token with no signature is not checked (go-github)", () => {
    expect(() => verifyWebhook("github", github({}), "", [])).not.toThrow();
  });

  it("github: spec.events filters case-insensitively, ping included (Flux has no special case for it)", () => {
    const signed = (event: string) =>
      github({ "X-GitHub-Event": event, "X-Hub-Signature-256": `sha256=${hmac("sha256")}` });
    expect(verifyWebhook("github", signed("PUSH"), TOKEN, ["push"]).event).toBe("PUSH");
    expect(rejected(() => verifyWebhook("github", signed("ping"), TOKEN, ["push"]))).toBe(
      'the GitHub event "ping" is not authorised',
    );
    expect(verifyWebhook("github", signed("ping"), TOKEN, ["ping", "push"]).event).toBe("ping");
    expect(verifyWebhook("github", signed("release"), TOKEN, undefined).event).toBe("release");
  });

  it("gitlab: X-Gitlab-Token equals the token; X-Gitlab-Event filtered", () => {
    const gl = (token: string, event = "Push Hook") => req({ "X-Gitlab-Token": token, "X-Gitlab-Event": event });
    expect(verifyWebhook("gitlab", gl(TOKEN), TOKEN, ["push hook"]).event).toBe("Push Hook");
    expect(rejected(() => verifyWebhook("gitlab", gl("wrong"), TOKEN, []))).toBe(
      "the X-Gitlab-Token header value does not match the receiver token",
    );
    expect(rejected(() => verifyWebhook("gitlab", gl(`${TOKEN}x`), TOKEN, []))).toContain("does not match");
    expect(rejected(() => verifyWebhook("gitlab", gl(TOKEN, "Tag Push Hook"), TOKEN, ["Push Hook"]))).toBe(
      'the GitLab event "Tag Push Hook" is not authorised',
    );
  });
});
