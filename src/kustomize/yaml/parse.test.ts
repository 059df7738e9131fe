import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { toYaml } from "./emit.js";
import { parseYamlDocuments, YamlSyntaxError } from "./parse.js";
import { resolvePlain } from "./plain-scalars.js";

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
});
