// What helm (v4.3.1 common.ReadValues, run in Go on the same text) reads from a values file.
import { describe, expect, it } from "vitest";
import { readValues } from "./read-values.js";

describe("readValues (helm's ReadValues: go-yaml v2, then JSON)", () => {
  it("reads YAML 1.1 booleans and keeps timestamps as written, like go-yaml v2", () => {
    const text = "a: yes\nb: off\nc: y\nd: 'yes'\ne: 2026-01-01\nf: [on, No, true]\ng: 0x10\nh: 012\ni: 1.50\nj: ~\n";
    expect(readValues(text, "t")).toEqual({
      a: true,
      b: false,
      c: true,
      d: "yes",
      e: "2026-01-01",
      f: [true, false, true],
      g: 16,
      h: 10,
      i: 1.5,
      j: null,
    });
  });

  it("rounds integers beyond float64's precision as helm's JSON round trip does", () => {
    expect(readValues("big: 12345678901234567890\n", "t")).toEqual({ big: 12345678901234567168 });
  });

  it("reads an empty text or document as no values, and refuses a list", () => {
    expect(readValues("", "t")).toEqual({});
    expect(readValues("# nothing\n", "t")).toEqual({});
    expect(() => readValues("- a\n", "t")).toThrow("the values are a list, not a map");
  });
});
