import { describe, expect, it } from "vitest";
import { OciUnreachableError } from "./errors.js";
import { RegistryTransport } from "./transport.js";

const fail = (code: string, message: string) =>
  Object.assign(new Error("fetch failed"), { cause: Object.assign(new Error(message), { code }) });
const live = () => new AbortController().signal;

describe("RegistryTransport.unreachable (what a connection failure says)", () => {
  const transport = new RegistryTransport("registry.example:5000", {});

  it("a server that answers HTTPS with plain HTTP: says so and how to reach it", () => {
    const err = transport.unreachable(fail("EPROTO", "SSL routines::wrong version number"), live());
    expect(err).toBeInstanceOf(OciUnreachableError);
    expect(err.message).toBe(
      "registry registry.example:5000 does not speak TLS (fetch failed: SSL routines::wrong version number); if it serves plain HTTP, mark it insecure",
    );
  });

  it("an untrusted certificate: names the code and asks for the CA", () => {
    expect(
      transport.unreachable(fail("SELF_SIGNED_CERT_IN_CHAIN", "self-signed certificate in certificate chain"), live())
        .message,
    ).toBe(
      "registry registry.example:5000: its TLS certificate is not trusted (SELF_SIGNED_CERT_IN_CHAIN); give the CA that signed it",
    );
  });

  it("the caller's own abort is passed through as is, not turned into an OCI error", () => {
    const controller = new AbortController();
    const reason = new Error("reconcile cancelled");
    controller.abort(reason);
    expect(transport.unreachable(fail("ABORT_ERR", "aborted"), controller.signal)).toBe(reason);
  });
});
