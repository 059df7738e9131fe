// The style notes beside our JSON values (the corpus pins the behaviour end to end; these name
// the rules: what a read records, what a copy keeps, what a merge does with it).
import { describe, expect, it } from "vitest";
import { strategicMerge } from "../patches/strategic-merge.js";
import type { JsonObject } from "../resource.js";
import { parseYamlDocuments } from "./parse.js";
import { cloneJson, isQuoted, rawText, setNote } from "./scalar-style.js";

const read = (text: string): JsonObject => parseYamlDocuments(text, "test.yaml")[0]!.value as JsonObject;

describe("scalar style notes", () => {
  it("records quoted and block strings, plain strings go-yaml would quote, and source text", () => {
    const v = read('a: "x"\nb: x\nc: |\n  x\nd: yes\ne: "8080"\nf: 0x1F\ng: 1.0\nh: 5\n');
    expect(["a", "b", "c", "d", "e"].map((k) => isQuoted(v, k))).toEqual([true, false, true, false, true]);
    expect(["f", "g", "h"].map((k) => rawText(v, k))).toEqual(["0x1F", "1.0", "5"]);
  });

  it("falls back to go-yaml v3's own choice for values built without notes", () => {
    const v: JsonObject = { a: "x", b: "8080", c: "yes", d: "a\nb", e: 1 };
    expect(["a", "b", "c", "d", "e"].map((k) => isQuoted(v, k))).toEqual([false, true, true, true, false]);
  });

  it("keeps the notes through a copy", () => {
    const v = cloneJson(read('m:\n  a: "x"\n  l: [0x10]\n'));
    expect(isQuoted(v.m as JsonObject, "a")).toBe(true);
    expect(rawText((v.m as JsonObject).l as object, 0)).toBe("0x10");
  });

  it("writes a patch's scalar in the target field's style, across merges", () => {
    const target = read('kind: T\nspec:\n  a: "x"\n  b: x\n  c: 9000\n');
    const once = strategicMerge(target, read('kind: T\nspec:\n  a: 0x1F\n  b: 2\n  c: "9001"\n'))!;
    expect(once.spec).toEqual({ a: "0x1F", b: 2, c: "9001" });
    const twice = strategicMerge(once, read("kind: T\nspec:\n  a: 3\n  b: 4\n  c: 9002\n"))!;
    expect(twice.spec).toEqual({ a: "3", b: 4, c: 9002 });
  });

  it("writes every field holding a shared node, but not one the patch deleted", () => {
    const node = { shared: {} };
    const v = read("metadata:\n  labels: {tier: a}\nspec:\n  selector: {tier: a}\n  template: {tier: a}\n");
    const spec = v.spec as JsonObject;
    for (const m of [(v.metadata as JsonObject).labels, spec.selector, spec.template])
      setNote(m as JsonObject, "tier", node);
    const patched = strategicMerge(v, read("metadata:\n  labels: {tier: b}\nspec:\n  template: {tier: null}\n"));
    expect(patched).toEqual({ metadata: { labels: { tier: "b" } }, spec: { selector: { tier: "b" }, template: {} } });
    const unshared = strategicMerge(read("a: {x: 1}\nb: {x: 1}\n"), read("a: {x: 2}\n"));
    expect(unshared).toEqual({ a: { x: 2 }, b: { x: 1 } });
  });
});
