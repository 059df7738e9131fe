// JSON as Go's encoding/json writes it, so a payload flotilla sends is byte-for-byte the one Flux's
// notification-controller sends (a generic-hmac receiver verifies the signature over these bytes):
// objects keep the caller's key order (Go's struct field order), maps are written with sorted keys by
// the caller (sortedMap), and <, >, &, U+2028 and U+2029 are escaped as Go escapes them.

const GO_ESCAPES: Record<string, string> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/** JSON.stringify, then Go's HTML-safe escapes (inside strings only: the characters never occur outside). */
export function goJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => GO_ESCAPES[c]!);
}

/** A Go map[string]string as encoding/json writes it: keys sorted. */
export function sortedMap(m: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(m ?? {}).sort()) out[k] = m![k]!;
  return out;
}
