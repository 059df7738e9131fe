// The API's label-selector syntax (`env=prod`, `tier in (a,b)`, `!canary`, `a!=b`) matched against a
// Cluster's labels in memory, so the fleet page can show which Clusters a ResourceSet's
// fleet.flotilla.dev/target-clusters annotation selects without a request per page view. The controller
// leaves the parsing to the API server (decision 0048); a selector this parser does not understand
// answers undefined and the page falls back to what the controller last applied.
type Requirement = (labels: Record<string, string>) => boolean;

/** Splits on commas outside parentheses. */
function requirements(selector: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = "";
  for (const ch of selector) {
    if (ch === "(") depth++;
    if (ch === ")") depth--;
    if (ch === "," && depth === 0) {
      out.push(cur);
      cur = "";
    } else cur += ch;
  }
  out.push(cur);
  return out.map((r) => r.trim()).filter((r) => r !== "");
}

const KEY = String.raw`[A-Za-z0-9][-A-Za-z0-9_./]*`;
const VALUE = String.raw`[-A-Za-z0-9_.]*`;
const SET = new RegExp(String.raw`^(${KEY})\s+(in|notin)\s+\(([^)]*)\)$`);
const EQUAL = new RegExp(String.raw`^(${KEY})\s*(==|=|!=)\s*(${VALUE})$`);
const EXISTS = new RegExp(String.raw`^(!?)\s*(${KEY})$`);

function parse(r: string): Requirement | undefined {
  let m = SET.exec(r);
  if (m) {
    const [, key, op, list] = m as unknown as [string, string, string, string];
    const values = list.split(",").map((v) => v.trim());
    return op === "in"
      ? (l) => Object.hasOwn(l, key) && values.includes(l[key]!)
      : (l) => !Object.hasOwn(l, key) || !values.includes(l[key]!);
  }
  m = EQUAL.exec(r);
  if (m) {
    const [, key, op, value] = m as unknown as [string, string, string, string];
    return op === "!=" ? (l) => l[key] !== value : (l) => Object.hasOwn(l, key) && l[key] === value;
  }
  m = EXISTS.exec(r);
  if (m) {
    const [, not, key] = m as unknown as [string, string, string];
    return not ? (l) => !Object.hasOwn(l, key) : (l) => Object.hasOwn(l, key);
  }
  return undefined;
}

/** A matcher for the selector ("" selects everything), or undefined when it does not parse here. */
export function labelMatcher(selector: string): ((labels: Record<string, string>) => boolean) | undefined {
  const parsed = requirements(selector).map(parse);
  if (parsed.some((p) => p === undefined)) return undefined;
  return (labels) => parsed.every((p) => p!(labels));
}
