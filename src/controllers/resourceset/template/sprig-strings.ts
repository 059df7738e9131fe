// slim-sprig v3.0.0's string, encoding and path functions (strings.go, crypto.go, functions.go's
// os* paths), with Go's semantics: strval is fmt's %v. Numbers are in sprig-numeric.ts.
import { createHash } from "node:crypto";
import { posix } from "node:path";
import { base32Decode, base32Encode } from "./base32.js";
import { FuncError, type GoFunc, fn } from "./functions.js";
import { type GoValue, Num, formatValue, goQuote, int, isMap } from "./values.js";

export const strval = (v: GoValue): string => formatValue(v);
const s = (v: GoValue | undefined) => v as string;
const n = (v: GoValue | undefined) => (v as Num).v;

/** strings.TrimSpace / strings.Trim(s, cutset) on Unicode code points. */
const goTrim = (str: string, cut: string, left = true, right = true) => {
  const chars = [...str];
  const set = new Set([...cut]);
  let a = 0;
  let b = chars.length;
  if (left) while (a < b && set.has(chars[a]!)) a++;
  if (right) while (b > a && set.has(chars[b - 1]!)) b--;
  return chars.slice(a, b).join("");
};
const SPACE =
  "\t\n\v\f\r \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000";

/** Go slices strings by bytes; for the ASCII text templates handle the two agree. */
const byteSlice = (str: string, a: number, b: number) => Buffer.from(str, "utf8").subarray(a, b).toString("utf8");
const byteLen = (str: string) => Buffer.byteLength(str, "utf8");

export function stringFunctions(): Map<string, GoFunc> {
  const m = new Map<string, GoFunc>();
  const set = (name: string, f: GoFunc) => m.set(name, f);
  set(
    "hello",
    fn([], () => "Hello!"),
  );
  set(
    "trim",
    fn(["string"], ([a]) => goTrim(s(a), SPACE)),
  );
  set(
    "upper",
    fn(["string"], ([a]) => s(a).toUpperCase()),
  );
  set(
    "lower",
    fn(["string"], ([a]) => s(a).toLowerCase()),
  );
  set(
    "title",
    fn(["string"], ([a]) =>
      s(a).replace(/(^|[^\p{L}\p{N}_'])(\p{L})/gu, (_, p: string, c: string) => p + c.toUpperCase()),
    ),
  );
  set(
    "substr",
    fn(["int", "int", "string"], ([a, b, c]) => substr(n(a), n(b), s(c))),
  );
  set(
    "repeat",
    fn(["int", "string"], ([c, str]) => {
      if (n(c) < 0) throw new FuncError("strings: negative Repeat count");
      return s(str).repeat(n(c));
    }),
  );
  set(
    "trimall",
    fn(["string", "string"], ([a, b]) => goTrim(s(b), s(a))),
  );
  set(
    "trimAll",
    fn(["string", "string"], ([a, b]) => goTrim(s(b), s(a))),
  );
  set(
    "trimSuffix",
    fn(["string", "string"], ([a, b]) => (s(b).endsWith(s(a)) ? s(b).slice(0, s(b).length - s(a).length) : s(b))),
  );
  set(
    "trimPrefix",
    fn(["string", "string"], ([a, b]) => (s(b).startsWith(s(a)) ? s(b).slice(s(a).length) : s(b))),
  );
  set(
    "contains",
    fn(["string", "string"], ([a, b]) => s(b).includes(s(a))),
  );
  set(
    "hasPrefix",
    fn(["string", "string"], ([a, b]) => s(b).startsWith(s(a))),
  );
  set(
    "hasSuffix",
    fn(["string", "string"], ([a, b]) => s(b).endsWith(s(a))),
  );
  set(
    "quote",
    fn(
      [],
      (args) =>
        args
          .filter((a) => a !== null)
          .map((a) => goQuote(strval(a)))
          .join(" "),
      "any",
    ),
  );
  set(
    "squote",
    fn(
      [],
      (args) =>
        args
          .filter((a) => a !== null)
          .map((a) => `'${formatValue(a)}'`)
          .join(" "),
      "any",
    ),
  );
  set(
    "cat",
    fn(
      [],
      (args) =>
        args
          .filter((a) => a !== null)
          .map(formatValue)
          .join(" "),
      "any",
    ),
  );
  set(
    "indent",
    fn(["int", "string"], ([c, v]) => indent(n(c), s(v))),
  );
  set(
    "nindent",
    fn(["int", "string"], ([c, v]) => "\n" + indent(n(c), s(v))),
  );
  set(
    "replace",
    fn(["string", "string", "string"], ([o, nw, src]) => replaceAll(s(src), s(o), s(nw))),
  );
  set(
    "plural",
    fn(["string", "string", "int"], ([one, many, c]) => (n(c) === 1 ? s(one) : s(many))),
  );
  set(
    "sha1sum",
    fn(["string"], ([a]) => createHash("sha1").update(s(a)).digest("hex")),
  );
  set(
    "sha256sum",
    fn(["string"], ([a]) => createHash("sha256").update(s(a)).digest("hex")),
  );
  set(
    "adler32sum",
    fn(["string"], ([a]) => String(adler32(s(a)))),
  );
  set(
    "toString",
    fn(["any"], ([a]) => strval(a!)),
  );
  set(
    "trunc",
    fn(["int", "string"], ([c, str]) => trunc(n(c), s(str))),
  );
  set(
    "atoi",
    fn(["string"], ([a]) => int(/^[+-]?\d+$/.test(s(a)) ? Number(s(a)) : 0)),
  );
  set(
    "b64enc",
    fn(["string"], ([a]) => Buffer.from(s(a), "utf8").toString("base64")),
  );
  set(
    "b64dec",
    fn(["string"], ([a]) => b64dec(s(a))),
  );
  set(
    "base",
    fn(["string"], ([a]) => (s(a) === "" ? "." : posix.basename(s(a).replace(/\/+$/, "")) || "/")),
  );
  set(
    "dir",
    fn(["string"], ([a]) => posix.dirname(s(a)) || "."),
  );
  set(
    "clean",
    fn(["string"], ([a]) => (s(a) === "" ? "." : posix.normalize(s(a)).replace(/(.)\/$/, "$1"))),
  );
  set(
    "ext",
    fn(["string"], ([a]) => {
      const m2 = /\.[^./]*$/.exec(s(a));
      return m2 ? m2[0] : "";
    }),
  );
  set(
    "isAbs",
    fn(["string"], ([a]) => s(a).startsWith("/")),
  );
  set("osBase", m.get("base")!); // path/filepath on a Unix system: the same as path's
  set("osClean", m.get("clean")!);
  set("osDir", m.get("dir")!);
  set("osExt", m.get("ext")!);
  set("osIsAbs", m.get("isAbs")!);
  set(
    "b32enc",
    fn(["string"], ([a]) => base32Encode(Buffer.from(s(a), "utf8"))),
  );
  set(
    "b32dec",
    fn(["string"], ([a]) => {
      const out = base32Decode(s(a));
      return typeof out === "string" ? out : out.toString("utf8");
    }),
  );
  set(
    "splitn",
    fn(["string", "int", "string"], ([sep, c, str]) => toMap(goSplitN(s(str), s(sep), n(c)))),
  );
  set(
    "splitList",
    fn(["string", "string"], ([sep, str]) => goSplit(s(str), s(sep))),
  );
  set(
    "split",
    fn(["string", "string"], ([sep, str]) => toMap(goSplit(s(str), s(sep)))),
  );
  set(
    "fail",
    fn(["string"], ([msg]) => {
      throw new FuncError(s(msg));
    }),
  );
  void isMap;
  return m;
}

const toMap = (parts: string[]) => Object.fromEntries(parts.map((p, i) => [`_${i}`, p]));
const goSplit = (str: string, sep: string) => (sep === "" ? [...str] : str.split(sep));
/** strings.SplitN: none for 0, all for a negative count, else at most `count` with the rest in the last. */
function goSplitN(str: string, sep: string, count: number): string[] {
  if (count === 0) return [];
  const all = goSplit(str, sep);
  if (count < 0 || all.length <= count) return all;
  return [...all.slice(0, count - 1), all.slice(count - 1).join(sep)];
}
const replaceAll = (src: string, o: string, nw: string) =>
  o === "" ? [...src].reduce((acc, c) => acc + c + nw, nw) : src.split(o).join(nw);
const indent = (c: number, v: string) =>
  " ".repeat(Math.max(c, 0)) + v.split("\n").join("\n" + " ".repeat(Math.max(c, 0)));

function substr(start: number, end: number, str: string): string {
  const len = byteLen(str);
  if (start < 0) return byteSlice(str, 0, end);
  if (end < 0 || end > len) return byteSlice(str, start, len);
  return byteSlice(str, start, end);
}

function trunc(c: number, str: string): string {
  const len = byteLen(str);
  if (c < 0 && len + c > 0) return byteSlice(str, len + c, len);
  if (c >= 0 && len > c) return byteSlice(str, 0, c);
  return str;
}

function b64dec(v: string): string {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(v) || v.length % 4 !== 0) {
    const bad = v.search(/[^A-Za-z0-9+/=]/);
    return `illegal base64 data at input byte ${bad < 0 ? v.length - (v.length % 4) : bad}`;
  }
  return Buffer.from(v, "base64").toString("utf8");
}

function adler32(str: string): number {
  let a = 1;
  let b = 0;
  for (const byte of Buffer.from(str, "utf8")) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}
