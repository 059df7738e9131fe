// Would this string, written plain, be read back as something other than a string by a YAML 1.1
// reader (go-yaml v2)? Then the writer must quote it. This is why kustomize prints `"yes"`,
// `"0123"`, `"1.0"` and `"2026-01-01"` in quotes.

const BOOL_OR_NULL = new Set([
  "y", "Y", "yes", "Yes", "YES", "on", "On", "ON",
  "n", "N", "no", "No", "NO", "off", "Off", "OFF",
  "true", "True", "TRUE", "false", "False", "FALSE",
  "~", "null", "Null", "NULL", "",
  ".nan", ".NaN", ".NAN",
  ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF",
]); // prettier-ignore
// Not "<<": go-yaml v2 looks a string up in its table only when the first character hints at a match,
// and '<' hints at none, so a "<<" value prints plain (as kustomize and kubectl print it).

const YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

/** Go's strconv.ParseInt(s, 0, 64) / ParseUint acceptance (after go-yaml removed underscores). */
function isGoInt(s: string): boolean {
  const body = s.replace(/^[-+]/, "");
  if (body === "") return false;
  let digits: string;
  let valid: RegExp;
  if (/^0[xX]/.test(body)) [digits, valid] = [body.slice(2), /^[0-9a-fA-F]+$/];
  else if (/^0[bB]/.test(body)) [digits, valid] = [body.slice(2), /^[01]+$/];
  else if (/^0[oO]/.test(body)) [digits, valid] = [body.slice(2), /^[0-7]+$/];
  else if (body.length > 1 && body[0] === "0") [digits, valid] = [body.slice(1), /^[0-7]+$/];
  else [digits, valid] = [body, /^[0-9]+$/];
  if (!valid.test(digits)) return false;
  // Out-of-range values fail ParseInt and ParseUint alike and fall through to float/string.
  const base = /^0[xX]/.test(body) ? 16 : /^0[bB]/.test(body) ? 2 : /^0[oO]/.test(body) || body[0] === "0" ? 8 : 10;
  let value = 0n;
  for (const ch of digits) value = value * BigInt(base) + BigInt(parseInt(ch, base));
  return s.startsWith("-") ? value <= 2n ** 63n : value <= 2n ** 64n - 1n;
}

/** go-yaml v2's timestamp layouts: date; date T time with zone; date space time without zone. */
const TIMESTAMPS = [
  /^(\d{4})-(\d{1,2})-(\d{1,2})$/,
  /^(\d{4})-(\d{1,2})-(\d{1,2})[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?(?:Z|[-+]\d{2}:\d{2})$/,
  /^(\d{4})-(\d{1,2})-(\d{1,2}) (\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?$/,
];

function isTimestamp(s: string): boolean {
  for (const re of TIMESTAMPS) {
    const m = re.exec(s);
    if (!m) continue;
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const daysInMonth = new Date(Date.UTC(y, mo, 0)).getUTCDate();
    if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth) return false;
    if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6]) > 59)) return false;
    return true;
  }
  return false;
}

/** True when go-yaml v2 would resolve the plain scalar to a non-string (so it must be quoted). */
export function resolvesToNonString(s: string): boolean {
  if (BOOL_OR_NULL.has(s)) return true;
  const first = s[0]!;
  if ("+-.0123456789".includes(first)) {
    const plain = s.replaceAll("_", "");
    if (isGoInt(plain)) return true;
    if (YAML_FLOAT.test(plain) && Number.isFinite(Number(plain))) return true; // ParseFloat fails on overflow
    if (/^-?0b[01]+$/.test(plain)) return true;
    if (isTimestamp(s)) return true;
  }
  return BASE60_FLOAT.test(s);
}
