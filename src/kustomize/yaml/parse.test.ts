import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { toYaml } from "./emit.js";
import { parseYamlDocuments, YamlSyntaxError } from "./parse.js";
import { resolvePlain } from "./plain-scalars.js";
import { MAX_NESTING_DEPTH } from "./limits.js";

/** "Billion laughs": nine levels of nine aliases, 9^9 strings once expanded. */
export function aliasBomb(): string {
  const names = "abcdefghi";
  let text = `a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n`;
  for (let i = 1; i < names.length; i++)
    text += `${names[i]}: &${names[i]} [${Array(9)
      .fill(`*${names[i - 1]}`)
      .join(", ")}]\n`;
  return text;
}

const errorOf = (text: string, source = "f.yaml") => {
  try {
    parseYamlDocuments(text, source);
  } catch (e) {
    return e as YamlSyntaxError;
  }
  throw new Error("parsed");
};

describe("reading YAML as kustomize reads it", () => {
  it("round-trips to exactly what the real kustomize prints (golden file from kustomize)", () => {
    const [doc] = parseYamlDocuments(readFileSync("test/fixtures/yaml-parse/thing.yaml", "utf8"), "thing.yaml");
    expect(toYaml(doc!.value)).toBe(readFileSync("test/fixtures/yaml-parse/expected.yaml", "utf8"));
  });

  it("resolves plain scalars by go-yaml v3's rules", () => {
    expect([
      resolvePlain("yes"),
      resolvePlain("on"),
      resolvePlain("True"),
      resolvePlain("0123"),
      resolvePlain("0x10"),
      resolvePlain("~"),
    ]).toEqual(["yes", "on", true, 83, 16, null]);
    expect(resolvePlain("2026-1-2T3:04:05.500Z")).toBe("2026-01-02T03:04:05.5Z");
  });

  it("names the file, document and position of a syntax error, and drops empty documents", () => {
    expect(parseYamlDocuments("---\n---\na: 1\n", "f.yaml").map((d) => d.index)).toEqual([1]);
    const err = (() => {
      try {
        parseYamlDocuments("a: 1\n---\nb: [1, 2\nc: 3\n", "bad.yaml");
      } catch (e) {
        return e as YamlSyntaxError;
      }
    })();
    expect(err).toBeInstanceOf(YamlSyntaxError);
    expect(err!.message).toMatch(/^bad\.yaml: document 2: invalid YAML at line \d+, column \d+: /);
  });

  it("refuses a billion-laughs alias bomb quickly with go-yaml's message, and keeps ordinary aliases", () => {
    const started = Date.now();
    const err = errorOf(aliasBomb(), "bomb.yaml");
    expect(err.message).toMatch(
      /^bomb\.yaml: document 1: invalid YAML at line \d+, column \d+: document contains excessive aliasing$/,
    );
    expect(Date.now() - started).toBeLessThan(2000);
    const small = parseYamlDocuments("a: &a [1, 2]\nb: *a\nc: {<<: {x: 1}, y: 2}\n", "ok.yaml");
    expect(small[0]!.value).toEqual({ a: [1, 2], b: [1, 2], c: { x: 1, y: 2 } });
  });

  it(`refuses nesting deeper than ${MAX_NESTING_DEPTH} levels in flow, block and alias form, without exhausting the stack`, () => {
    const deep = (n: number) => `a: ${"[".repeat(n)}${"]".repeat(n)}\n`;
    expect(() => parseYamlDocuments(deep(MAX_NESTING_DEPTH - 2), "ok.yaml")).not.toThrow();
    for (const n of [MAX_NESTING_DEPTH, 10_000, 100_000])
      expect(errorOf(deep(n)).message).toMatch(/: document nests collections deeper than 256 levels/);
    let block = "";
    for (let i = 0; i < MAX_NESTING_DEPTH + 10; i++) block += `${" ".repeat(i)}k:\n`;
    expect(errorOf(block).message).toMatch(/deeper than 256 levels/);
    let compact = "";
    for (let i = 0; i < MAX_NESTING_DEPTH + 10; i++) compact += `${"  ".repeat(i)}- k:\n`;
    expect(errorOf(compact).message).toMatch(/deeper than 256 levels/);
    // Padding keeps the share of aliased nodes under go-yaml's ratio, so the depth limit is what fires.
    let anchors = `pad: [${Array.from({ length: 2000 }, (_, i) => i).join(", ")}]\nl0: &l0 [x]\n`;
    for (let i = 1; i < MAX_NESTING_DEPTH + 10; i++) anchors += `l${i}: &l${i} [*l${i - 1}]\n`;
    expect(errorOf(anchors).message).toMatch(/deeper than 256 levels/);
    // Tokenizing 100,000 open brackets is most of this test's CPU: seconds on a busy 2-core machine, so it gets
    // the parity tests' bound rather than vitest's 5 s default (it proves a refusal, not a speed).
  }, 60_000);
});
