import { describe, expect, it } from "vitest";
import { parseWwwAuthenticate } from "./www-authenticate.js";

describe("parseWwwAuthenticate", () => {
  it("reads a Bearer challenge whose scope holds a comma inside quotes", () => {
    expect(
      parseWwwAuthenticate(
        'Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:org/app:pull,push"',
      ),
    ).toEqual([
      {
        scheme: "bearer",
        params: {
          realm: "https://auth.docker.io/token",
          service: "registry.docker.io",
          scope: "repository:org/app:pull,push",
        },
      },
    ]);
  });

  it("reads the distribution registry's Basic challenge", () => {
    expect(parseWwwAuthenticate('Basic realm="Registry Realm"')).toEqual([
      { scheme: "basic", params: { realm: "Registry Realm" } },
    ]);
  });

  it("splits several challenges in one header, with unquoted values and escaped quotes", () => {
    expect(parseWwwAuthenticate('Basic realm="a \\"b\\"", Bearer realm=https://t.example/token, service=reg')).toEqual([
      { scheme: "basic", params: { realm: 'a "b"' } },
      { scheme: "bearer", params: { realm: "https://t.example/token", service: "reg" } },
    ]);
  });

  it("gives nothing for an empty header", () => {
    expect(parseWwwAuthenticate("")).toEqual([]);
  });
});
