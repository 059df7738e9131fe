import { describe, expect, it } from "vitest";
import { nextLink } from "./responses.js";

describe("nextLink (tag list pagination)", () => {
  const current = "/v2/app/tags/list?n=3";
  it("follows a relative next link, as the distribution registry sends it", () => {
    expect(nextLink('</v2/app/tags/list?last=c&n=3>; rel="next"', current, "127.0.0.1:5000")).toBe(
      "/v2/app/tags/list?last=c&n=3",
    );
  });
  it("follows an absolute link to the same registry and refuses one to another host", () => {
    expect(nextLink('<https://127.0.0.1:5000/v2/app/tags/list?last=c>; rel="next"', current, "127.0.0.1:5000")).toBe(
      "/v2/app/tags/list?last=c",
    );
    expect(() =>
      nextLink('<https://evil.example/v2/app/tags/list?last=c>; rel="next"', current, "127.0.0.1:5000"),
    ).toThrow("registry 127.0.0.1:5000 points the next page of tags at another host (evil.example): refused");
  });
  it("ends without a Link header or without rel=next", () => {
    expect(nextLink(undefined, current, "r")).toBeUndefined();
    expect(nextLink('</v2/app/tags/list?last=c>; rel="prev"', current, "r")).toBeUndefined();
  });
});
