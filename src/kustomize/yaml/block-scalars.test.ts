import { describe, expect, it } from "vitest";
import { foldedRoundTrip } from "./block-scalars.js";
import { parseYamlDocuments } from "./parse.js";

const value = (text: string, printedByKyaml = false) =>
  (parseYamlDocuments(text, "test.yaml", { printedByKyaml })[0]!.value as Record<string, unknown>).v;

describe("block scalars as go-yaml v3 reads them and kustomize prints them", () => {
  it("keeps no final line break for a block whose last line ends the input without one", () => {
    expect(value("v: |\n  a\n  b")).toBe("a\nb");
    expect(value("v: |+\n  a")).toBe("a");
    expect(value("v: >\n  a\n  b")).toBe("a b");
    expect(value("v: |\n  a\n  b\n")).toBe("a\nb\n");
    expect(value("v: |\n  a\nw: 1")).toBe("a\n");
  });

  it("adds a line break before a more-indented line of a folded block in a resource, as go-yaml's write and read do", () => {
    expect(foldedRoundTrip("x\n  y")).toBe("x\n\n  y");
    expect(foldedRoundTrip("x\n  y\nz")).toBe("x\n\n  y\nz");
    expect(foldedRoundTrip("a b\nc\n")).toBe("a b\nc\n");
    expect(foldedRoundTrip("  lead\nb\nc")).toBe("  lead\nb c");
    expect(value("v: >-\n  x\n    y\n", true)).toBe("x\n\n  y");
    // Read as written outside resources (a kustomization file, values).
    expect(value("v: >-\n  x\n    y\n")).toBe("x\n  y");
  });

  it("leaves a folded annotation as read, since kustomize rewrites annotations", () => {
    const doc = parseYamlDocuments("metadata:\n  annotations:\n    v: >-\n      x\n        y\n", "t.yaml", {
      printedByKyaml: true,
    })[0]!.value as { metadata: { annotations: { v: string } } };
    expect(doc.metadata.annotations.v).toBe("x\n  y");
  });
});
