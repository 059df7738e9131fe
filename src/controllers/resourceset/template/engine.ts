// The operator's ResourceSet template engine (flux-operator internal/builder/resourceset.go
// newTemplate): Go text/template with `<<` `>>` delimiters, slim-sprig's hermetic functions, slugify,
// inputs, toYaml/mustToYaml and missingkey=error, executed with nil data. held byte for byte against
// the operator's own setup by test/parity/resourceset-template.test.ts (tools/resourceset-template).
import { type Json, toYaml } from "../../../kustomize/yaml/emit.js";
import { builtins } from "./builtins.js";
import { TemplateExecError, execute } from "./exec.js";
import { FuncError, Functions, fn } from "./functions.js";
import { TemplateParseError, parseTemplate } from "./parse.js";
import { dataFunctions } from "./sprig-data.js";
import { numericFunctions } from "./sprig-numeric.js";
import { stringFunctions } from "./sprig-strings.js";
import { type GoValue, fromJson } from "./values.js";

export { TemplateExecError, TemplateParseError };

// slim-sprig functions whose Go semantics flotilla does not reproduce: refused when the template is
// parsed, by name, rather than rendered differently from the operator.
const REFUSED: [string[], string][] = [
  [
    [
      "regexMatch",
      "mustRegexMatch",
      "regexFindAll",
      "mustRegexFindAll",
      "regexFind",
      "mustRegexFind",
      "regexReplaceAll",
      "mustRegexReplaceAll",
      "regexReplaceAllLiteral",
      "mustRegexReplaceAllLiteral",
      "regexSplit",
      "mustRegexSplit",
      "regexQuoteMeta",
    ],
    "Go's RE2 regular expressions are not JavaScript's",
  ],
  [
    ["ago", "duration", "durationRound", "toDate", "mustToDate", "unixEpoch", "must_date_modify", "mustDateModify"],
    "date and duration functions are not implemented",
  ],
  [["typeOf", "typeIs", "typeIsLike"], "Go type names are not modelled; use kindOf or kindIs"],
  [["urlParse", "urlJoin"], "Go's net/url is not reproduced"],
  [["html", "js", "urlquery", "call"], "text/template's escaping and call builtins are not implemented"],
];

let table: Functions | undefined;
let inputsNow: GoValue = null;

function functions(): Functions {
  if (table) return table;
  const m = builtins();
  for (const [k, v] of stringFunctions()) m.set(k, v);
  for (const [k, v] of numericFunctions()) m.set(k, v);
  for (const [k, v] of dataFunctions()) m.set(k, v);
  m.set(
    "slugify",
    fn(["string"], ([s]) => slugify(s as string)),
  );
  m.set(
    "inputs",
    fn([], () => inputsNow),
  );
  const refused = new Map<string, string>();
  for (const [names, why] of REFUSED) for (const n of names) refused.set(n, why);
  for (const n of refused.keys()) m.delete(n);
  table = new Functions(m, refused);
  return table;
}

/**
 * Renders a template with one input set (null: a ResourceSet without inputs). Throws
 * TemplateParseError or TemplateExecError with Go's message, which names the template line.
 */
export function renderTemplate(text: string, inputs: Record<string, unknown> | null): string {
  const funcs = functions();
  const tree = parseTemplate(text, funcs);
  inputsNow = inputs === null ? null : fromJson(inputs);
  try {
    return execute(text, tree, funcs);
  } finally {
    inputsNow = null;
  }
}

/** BuildResource: a `resources` entry becomes YAML (sigs.k8s.io/yaml.JSONToYAML), then the template. */
export function renderResource(resource: unknown, inputs: Record<string, unknown> | null): string {
  return renderTemplate(toYaml(JSON.parse(JSON.stringify(resource)) as Json), inputs);
}

/** gosimple/slug.Make with the operator's settings (63 characters, smart truncate), for ASCII text. */
export function slugify(text: string): string {
  let s = text.trim().replace(/&/g, "and").replace(/@/g, "at");
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(s))
    throw new FuncError(`slugify of non-ASCII text is not supported by flotilla: ${JSON.stringify(text)}`);
  s = s
    .toLowerCase()
    .replace(/[^a-z0-9\-_]/g, "-")
    .replace(/-+/g, "-")
    .replace(/^[-_]+|[-_]+$/g, "");
  if (s.length <= 63) return s;
  for (let i = 63; i >= 0; i--) if (s[i] === "-") return s.slice(0, i);
  return s.slice(0, 63);
}
