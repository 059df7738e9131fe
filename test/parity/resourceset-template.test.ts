// flotilla's ResourceSet template engine against the Flux Operator's own template setup, byte for byte.
// tools/resourceset-template (built by tools/build.sh from Go modules: Go's text/template, slim-sprig,
// gosimple/slug, sigs.k8s.io/yaml at the versions flux-operator v0.59.0 requires) renders every case;
// flotilla must print the same bytes, fail where Go fails, and for the marked cases fail with Go's
// very message (it names the template line and column). The corpus is ours (resourceset-template-
// corpus.ts) plus the operator's own: the ResourceSets of its builder test data and its ResourceSet
// docs, read from the pinned module as Go downloads it.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { toolsDir } from "../../src/binaries/tools-dir.js";
import { renderResource, renderTemplate } from "../../src/controllers/resourceset/template/engine.js";
import { CORPUS, type TemplateCase } from "./resourceset-template-corpus.js";
import { SPRIG_CORPUS } from "./resourceset-template-corpus-sprig.js";

const oracle = join(toolsDir(), "bin", "resourceset-template");
const OPERATOR = "github.com/controlplaneio-fluxcd/flux-operator@v0.59.0";

function requireOracle(): void {
  if (!existsSync(oracle))
    throw new Error(`${oracle} is missing: run \`bash tools/build.sh resourceset-template\` (or \`npm run tools\`)`);
}

interface RsetResources {
  resources?: Record<string, unknown>[];
  resourcesTemplate?: string;
}
interface RsetSpec extends RsetResources {
  inputs?: Record<string, unknown>[];
  steps?: (RsetResources & { name: string })[];
}

interface Request {
  name: string;
  template: string;
  resource?: Record<string, unknown>;
  inputs: Record<string, unknown> | null;
  sameError?: boolean;
}
interface Answer {
  name: string;
  output: string;
  error?: string;
}

const requests = (cases: TemplateCase[]): Request[] =>
  cases.flatMap((c) =>
    c.inputs.map((inputs, i) => ({
      name: `${c.name} [input ${i}]`,
      template: c.template ?? "",
      resource: c.resource,
      inputs,
      sameError: c.sameError,
    })),
  );

/** The operator's ResourceSets (test data and docs), each resource and template once per input set. */
function operatorCases(): TemplateCase[] {
  // The module zip: its go.mod asks for Go 1.27, so `go mod download` reports an error but still
  // downloads and verifies the zip, whose path it prints.
  const got = spawnSync("go", ["mod", "download", "-json", OPERATOR], {
    encoding: "utf8",
    env: { ...process.env, GOFLAGS: "", GOTOOLCHAIN: "local" },
  });
  if (got.error) throw new Error(`go is needed to download ${OPERATOR}: ${got.error.message}`);
  const info = JSON.parse(got.stdout.replace(/^[^{]*/, "") || "{}") as { Zip?: string; Error?: string };
  if (!info.Zip || !existsSync(info.Zip))
    throw new Error(`go mod download ${OPERATOR} gave no module zip: ${info.Error ?? got.stderr}`);
  const files = JSON.parse(
    execFileSync(
      oracle,
      ["extract", info.Zip, "internal/builder/testdata/resourceset/", "docs/api/v1/resourceset.md"],
      {
        encoding: "utf8",
        maxBuffer: 64 << 20,
      },
    ),
  ) as Record<string, string>;
  const cases: TemplateCase[] = [];
  for (const [path, text] of Object.entries(files)) {
    const yamlTexts = path.endsWith(".md")
      ? [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!)
      : path.endsWith(".golden.yaml")
        ? []
        : [text];
    yamlTexts.forEach((y, block) => {
      for (const doc of parseAllDocuments(y)) {
        const rset = doc.toJS() as { kind?: string; metadata?: { name?: string; namespace?: string }; spec?: RsetSpec };
        // Whole ResourceSets, and the docs' `spec:` fragments of one.
        if ((rset?.kind !== "ResourceSet" && rset?.kind !== undefined) || !rset?.spec) continue;
        const provider = {
          apiVersion: "fluxcd.controlplane.io/v1",
          kind: "ResourceSet",
          name: rset.metadata?.name ?? "",
          namespace: rset.metadata?.namespace ?? "",
        };
        const inputs = rset.spec.inputs?.length ? rset.spec.inputs.map((i) => ({ ...i, provider })) : [null];
        const name = `${path}${path.endsWith(".md") ? ` block ${block}` : ""} ${rset.metadata?.name ?? ""}`;
        const steps = [{ name: "", ...rset.spec }, ...(rset.spec.steps ?? [])];
        for (const step of steps) {
          const where = step.name ? `${name} step ${step.name}` : name;
          (step.resources ?? []).forEach((resource, r) =>
            cases.push({ name: `${where} resources[${r}]`, resource, inputs }),
          );
          if (step.resourcesTemplate)
            cases.push({ name: `${where} resourcesTemplate`, template: step.resourcesTemplate, inputs });
        }
      }
    });
  }
  return cases;
}

function compare(reqs: Request[]): { matched: number; mismatches: string[] } {
  requireOracle();
  const go = JSON.parse(
    execFileSync(oracle, { input: JSON.stringify(reqs), encoding: "utf8", maxBuffer: 64 << 20 }),
  ) as Answer[];
  const mismatches: string[] = [];
  reqs.forEach((r, i) => {
    let out = "";
    let err: string | undefined;
    try {
      out = r.resource ? renderResource(r.resource, r.inputs) : renderTemplate(r.template, r.inputs);
    } catch (e) {
      err = (e as Error).message;
    }
    const g = go[i]!;
    const same = g.error
      ? err !== undefined && (!r.sameError || err === g.error)
      : err === undefined && out === g.output;
    if (!same)
      mismatches.push(
        `${r.name}\n  go:       ${JSON.stringify(g.error ?? g.output)}\n  flotilla: ${JSON.stringify(err ?? out)}`,
      );
  });
  return { matched: reqs.length - mismatches.length, mismatches };
}

describe("ResourceSet templates render as the Flux Operator renders them", () => {
  it("the parity corpus (docs, d2 fleet shapes, text/template and slim-sprig corners) matches Go byte for byte", () => {
    const reqs = requests([...CORPUS, ...SPRIG_CORPUS]);
    const { matched, mismatches } = compare(reqs);
    expect(mismatches.join("\n")).toBe("");
    expect(matched).toBe(reqs.length);
  });

  it("the operator's own test data and documented ResourceSets match Go byte for byte", () => {
    const cases = operatorCases();
    expect(cases.length).toBeGreaterThan(30);
    const reqs = requests(cases);
    const { matched, mismatches } = compare(reqs);
    expect(mismatches.join("\n")).toBe("");
    expect(matched).toBe(reqs.length);
  });

  it("refuses a slim-sprig function flotilla does not implement by name, when the template is parsed", () => {
    expect(() => renderTemplate(`a\n<< regexMatch "a.*" inputs.x >>`, { x: "abc" })).toThrow(
      "template: resourceset:2: function \"regexMatch\" (slim-sprig) is not supported by flotilla's ResourceSet templates: Go's RE2 regular expressions are not JavaScript's",
    );
  });
});
