import { describe, expect, it } from "vitest";
import { goJson } from "./client.js";

describe("goJson (manifest bytes as Go's encoding/json writes them)", () => {
  it("escapes <, > and & and the JS line separators, nothing else", () => {
    expect(goJson({ source: "https://x/?a=1&b=<2>", note: "é\u2028" })).toBe(
      '{"source":"https://x/?a=1\\u0026b=\\u003c2\\u003e","note":"é\\u2028"}',
    );
  });
});
