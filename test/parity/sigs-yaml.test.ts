// flotilla's export YAML against the real thing: kubectl's -o yaml printer is sigs.k8s.io/yaml.Marshal,
// the same function `flux … --export` prints with. Each object goes through the pinned kubectl
// (`label --local`, which needs no server) and through sigsYaml; the bytes must match.
import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { toolsDir } from "../../src/binaries/tools-dir.js";
import { sigsYaml } from "../../src/cli/export/sigs-yaml.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { rmSync } from "node:fs";

const kubectl = join(toolsDir(), "bin", "kubectl");
const work = makeWorkDir("flotilla-sigs-yaml-");
afterAll(() => rmSync(work, { recursive: true, force: true }));

function kubectlYaml(obj: Record<string, unknown>): string {
  if (!existsSync(kubectl)) throw new Error(`kubectl is not built at ${kubectl}: run 'npm run tools'`);
  const file = join(work, "obj.json");
  writeFileSync(file, JSON.stringify(obj));
  return execFileSync(kubectl, ["label", "--local", "-f", file, "oracle=yes", "--overwrite", "-o", "yaml"], {
    encoding: "utf8",
  });
}

const object = (kind: string, body: Record<string, unknown>) => ({
  apiVersion: kind === "ConfigMap" ? "v1" : "source.toolkit.fluxcd.io/v1",
  kind,
  metadata: { name: "x", namespace: "flux-system", labels: { oracle: "yes" } },
  ...body,
});

const TRICKY_STRINGS = [
  "",
  " ",
  "plain",
  "y",
  "Y",
  "yes",
  "no",
  "on",
  "off",
  "true",
  "False",
  "null",
  "~",
  "1",
  "-1",
  "+1",
  "08",
  "0x1F",
  "0o17",
  "017",
  "1_000",
  "1.5",
  ".5",
  "1.",
  "1e3",
  "1e",
  "2024-01-02",
  "2024-1-2T03:04:05Z",
  "12:30",
  "1:30:00",
  "v1.2",
  "-",
  "- x",
  "-x",
  "*",
  "&a",
  "!tag",
  "|",
  ">",
  "'q'",
  '"dq"',
  "%",
  "@",
  "`",
  "#c",
  "a #c",
  "a#c",
  "a: b",
  "a:b",
  "http://x:80/p",
  "? x",
  "?x",
  ": x",
  "[a]",
  "a,b",
  "{a}",
  " lead",
  "trail ",
  "tab\there",
  "é ü 中文",
  "emoji 😀",
  "nbsp\u00a0x",
  "ctl\u0001x",
  "---",
  "--- x",
  "...",
  "<<",
  ".inf",
  ".NaN",
  "=",
  "a\\b",
  "line1\nline2",
  "line1\nline2\n",
  "line1\n\n",
  "\nlead",
  " lead\nline",
  "line \nx",
  "x\n y",
  "a\r\nb",
  "tab\n\tx",
  "x".repeat(100),
  `${"word ".repeat(30)}end`,
  `${"'q' ".repeat(25)}end`,
  `"${"a ".repeat(50)}"`,
  `tab\t${"w ".repeat(50)}`,
  `${"w  ".repeat(40)}end`,
];

describe("sigsYaml prints as sigs.k8s.io/yaml (kubectl -o yaml) does", () => {
  it("string values: quoting, YAML 1.1 words, literal blocks, folding at column 80", () => {
    const data = Object.fromEntries(TRICKY_STRINGS.map((s, i) => [`k${i}`, s]));
    const obj = object("ConfigMap", { data });
    expect(sigsYaml(obj)).toBe(kubectlYaml(obj));
  });

  it("string keys: go-yaml's key order (digit runs numerically, non-letters first) and key quoting", () => {
    const keys = [
      "b",
      "B",
      "a10",
      "a2",
      "a02",
      "a1",
      "_x",
      "x_",
      "1",
      "10",
      "9",
      "y",
      "n",
      "true",
      "a.b",
      "a-b",
      "Z",
      "é",
      "a b",
      "",
      "-x",
      "k8s.io/x",
      "app.kubernetes.io/name",
      "0",
      "00",
      "a0",
      "a00b",
    ];
    const obj = object("ConfigMap", { data: Object.fromEntries(keys.map((k) => [k, "v"])) });
    expect(sigsYaml(obj)).toBe(kubectlYaml(obj));
  });

  it("nesting: maps in lists, lists in lists, empty collections, numbers, booleans, nulls", () => {
    const spec = {
      interval: "1m0s",
      n: 3,
      f: 1.5,
      big: 12345678901,
      tiny: 0.0001,
      small: 0.00001,
      neg: -2.25,
      e: 1e21,
      t: true,
      b: false,
      z: null,
      em: {},
      el: [],
      list: [{ b: 1, a: [1, "two", { c: [] }] }, "x", [["deep"], []], {}, { k: { j: "v" } }],
      ignore: "# exclude\n/*\n!/deploy\n",
      nested: { deeper: { list: [`${"long value ".repeat(10)}end`, "a\nb"] } },
    };
    const obj = object("GitRepository", { spec });
    expect(sigsYaml(obj)).toBe(kubectlYaml(obj));
  });
});
