// Each row: base values (JSON), targetPath, value, then what Go produced — helm v4.3.1 pkg/strvals driven by
// fluxcd/pkg chartutil.ReplacePathValue (typed) and ReplacePathLiteralValue (literal) — and whether the typed
// form failed. Derived by running that Go code on the same inputs.
import { describe, expect, it } from "vitest";
import { replacePathLiteralValue, replacePathValue } from "./strvals.js";

type Row = [string, string, string, unknown, unknown, boolean];
const ROWS: Row[] = [
  ["{}", "a.b", "1", { a: { b: 1 } }, { a: { b: "1" } }, false],
  ["{}", "a.b", "true", { a: { b: true } }, { a: { b: "true" } }, false],
  ["{}", "a.b", '"quoted 1"', { a: { b: "quoted 1" } }, { a: { b: '"quoted 1"' } }, false],
  ["{}", "a.b", "'single'", { a: { b: "single" } }, { a: { b: "'single'" } }, false],
  ["{}", "a.b", "0123", { a: { b: "0123" } }, { a: { b: "0123" } }, false],
  ["{}", "a.b", "-5", { a: { b: -5 } }, { a: { b: "-5" } }, false],
  ["{}", "a.b", "1.5", { a: { b: "1.5" } }, { a: { b: "1.5" } }, false],
  ["{}", "a.b", "null", { a: { b: null } }, { a: { b: "null" } }, false],
  ["{}", "a.b", "{x,y,3}", { a: { b: ["x", "y", 3] } }, { a: { b: "{x,y,3}" } }, false],
  ["{}", "a.b[1].c", "v", { a: { b: [null, { c: "v" }] } }, { a: { b: [null, { c: "v" }] } }, false],
  ["{}", "a.b[0]", "x", { a: { b: ["x"] } }, { a: { b: ["x"] } }, false],
  ["{}", "a\\.b.c", "v", { "a.b": { c: "v" } }, { "a.b": { c: "v" } }, false],
  ["{}", "a.b", "x,c=d", { a: { b: "x" }, c: "d" }, { a: { b: "x,c=d" } }, false],
  ["{}", "a", "", { a: "" }, { a: "" }, false],
  ['{"a":{"b":1,"keep":2}}', "a.b", "3", { a: { b: 3, keep: 2 } }, { a: { b: "3", keep: 2 } }, false],
  ['{"a":"str"}', "a.b", "3", { a: "str" }, { a: "str" }, true],
  ["{}", "a.b", "line1\\nline2", { a: { b: "line1nline2" } }, { a: { b: "line1\\nline2" } }, false],
  ["{}", "list[0][1]", "z", { list: [[null, "z"]] }, { list: [[null, "z"]] }, false],
  [
    '{"a":[{"x":1},{"y":2}]}',
    "a[1].z",
    "3",
    { a: [{ x: 1 }, { y: 2, z: 3 }] },
    { a: [{ x: 1 }, { y: 2, z: "3" }] },
    false,
  ],
  ["{}", "a.b", "9223372036854775808", { a: { b: "9223372036854775808" } }, { a: { b: "9223372036854775808" } }, false],
  ["{}", "a", "TRUE", { a: true }, { a: "TRUE" }, false],
];

describe("targetPath in helm --set syntax (strvals)", () => {
  it.each(ROWS)("%s with %s=%s types the value as --set does", (base, path, value, typed, _literal, fails) => {
    const values = JSON.parse(base) as Record<string, unknown>;
    if (fails) expect(() => replacePathValue(values, path, value)).toThrow(/unable to parse key/);
    else replacePathValue(values, path, value);
    expect(values).toEqual(typed);
  });

  it.each(ROWS)("%s with %s=%s as a literal keeps the value verbatim", (base, path, value, _typed, literal, fails) => {
    const values = JSON.parse(base) as Record<string, unknown>;
    if (fails) expect(() => replacePathLiteralValue(values, path, value)).toThrow(/unable to parse key/);
    else replacePathLiteralValue(values, path, value);
    expect(values).toEqual(literal);
  });

  it("refuses an index past helm's maximum and a key without value", () => {
    expect(() => replacePathValue({}, "a[65537]", "x")).toThrow(
      "index of 65537 is greater than maximum supported index of 65536",
    );
    expect(() => replacePathValue({}, "a.", "x")).toThrow();
  });
});
