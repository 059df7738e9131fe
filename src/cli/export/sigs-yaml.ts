// YAML exactly as sigs.k8s.io/yaml.Marshal prints a Kubernetes object — what `flux … --export` and
// `kubectl -o yaml` print: JSON turned into go-yaml v2 (go.yaml.in/yaml/v2 v2.4) output. Keys sorted at
// every level by go-yaml's keyList.Less, 2-space indent, sequences not indented under their key, plain
// scalars folded at column 80, YAML 1.1 words (y, no, on, 1.5, ~) quoted, multi-line strings as literal
// blocks. Ported from emitterc.go (analyze_scalar, select_scalar_style, write_*_scalar) so that exports
// are byte-identical; test/parity/sigs-yaml.test.ts holds it against kubectl's own printer.
import { scalarStyle, writeDoubleQuoted, writeLiteral, writePlainOrSingle } from "./yaml-scalars.js";
import { YamlOut } from "./yaml-out.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** go-yaml v2 keyList.Less for string keys: letters by code point, digit runs numerically, non-letters first. */
export function goYamlKeyLess(a: string, b: string): boolean {
  const ar = [...a];
  const br = [...b];
  const isLetter = (c: string) => /\p{L}/u.test(c);
  const isDigit = (c: string | undefined) => c !== undefined && /\p{Nd}/u.test(c);
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetter(ar[i]!);
    const bl = isLetter(br[i]!);
    if (al && bl) return ar[i]!.codePointAt(0)! < br[i]!.codePointAt(0)!;
    if (al || bl) return bl;
    let an = 0;
    let bn = 0;
    if (ar[i] === "0" || br[i] === "0") {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== "0") {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10 + (ar[ai]!.codePointAt(0)! - 48);
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10 + (br[bi]!.codePointAt(0)! - 48);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i]!.codePointAt(0)! < br[i]!.codePointAt(0)!;
  }
  return ar.length < br.length;
}

export const sortedKeys = (o: object) =>
  Object.keys(o).sort((a, b) => (goYamlKeyLess(a, b) ? -1 : goYamlKeyLess(b, a) ? 1 : 0));

/** Go's strconv.FormatFloat(f, 'g', -1, 64), as go-yaml prints a float. */
export function goFloat(n: number): string {
  if (Number.isNaN(n)) return ".NaN";
  if (!Number.isFinite(n)) return n > 0 ? "+.Inf" : "-.Inf";
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  const [mantissa, expText] = n.toExponential().split("e");
  const exp = Number(expText);
  if (exp < -4 || exp >= 21) {
    const sign = exp < 0 ? "-" : "+";
    return `${mantissa}e${sign}${String(Math.abs(exp)).padStart(2, "0")}`;
  }
  return String(n);
}

function emitScalar(out: YamlOut, value: string, indent: number, isKey: boolean): void {
  const style = scalarStyle(value, isKey);
  if (style === "literal") writeLiteral(out, value, indent);
  else if (style === "double") writeDoubleQuoted(out, value, indent, !isKey);
  else writePlainOrSingle(out, value, indent, style === "single", !isKey);
}

function isEmptyCollection(v: Json): v is Json[] | { [key: string]: Json } {
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === "object" && v !== null && Object.keys(v).length === 0;
}

function emitValue(out: YamlOut, v: Json, indent: number): void {
  if (v === null) out.write("null");
  else if (typeof v === "boolean") out.write(String(v));
  else if (typeof v === "number") out.write(goFloat(v));
  else if (typeof v === "string") emitScalar(out, v, indent, false);
  else out.write(Array.isArray(v) ? "[]" : "{}");
}

function emitMapping(out: YamlOut, map: { [key: string]: Json }, indent: number, inline: boolean): void {
  sortedKeys(map).forEach((key, i) => {
    if (!(inline && i === 0)) newLine(out, indent);
    emitScalar(out, key, indent, true);
    out.write(":");
    const v = map[key]!;
    if (typeof v === "object" && v !== null && !isEmptyCollection(v)) {
      if (Array.isArray(v)) emitSequence(out, v, indent, false);
      else emitMapping(out, v, indent + 2, false);
    } else {
      out.write(" ");
      emitValue(out, v, indent + 2);
    }
  });
}

function emitSequence(out: YamlOut, seq: Json[], indent: number, inline: boolean): void {
  seq.forEach((item, i) => {
    if (!(inline && i === 0)) newLine(out, indent);
    out.write("- ");
    if (typeof item === "object" && item !== null && !isEmptyCollection(item)) {
      if (Array.isArray(item)) emitSequence(out, item, indent + 2, true);
      else emitMapping(out, item, indent + 2, true);
    } else emitValue(out, item, indent + 2);
  });
}

/** libyaml's write_indent: a line break unless a block scalar already ended the line. */
function newLine(out: YamlOut, indent: number): void {
  if (out.column > 0) out.write("\n");
  out.write(" ".repeat(indent));
}

/** sigs.k8s.io/yaml.Marshal of a JSON value (ends with a newline). */
export function sigsYaml(value: unknown): string {
  const json = JSON.parse(JSON.stringify(value)) as Json;
  const out = new YamlOut();
  if (typeof json === "object" && json !== null && !isEmptyCollection(json)) {
    if (Array.isArray(json)) emitSequence(out, json, 0, false);
    else emitMapping(out, json, 0, false);
  } else emitValue(out, json, 0);
  return `${out.text}\n`;
}
