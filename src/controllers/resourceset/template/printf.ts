// fmt.Sprintf for the verbs templates use: %v %s %d %q %t %f %e %g %x %X %o %b %c %% with flags
// (- + 0 space), width and precision. A verb and operand that do not fit print as Go does: %!d(string=x).
import { type GoValue, Num, formatFloat, formatValue, goQuote, typeName } from "./values.js";

export function sprintf(format: string, args: GoValue[]): string {
  let out = "";
  let argi = 0;
  const re = /%([-+ 0#]*)(\d+)?(?:\.(\d*))?([a-zA-Z%])/g;
  let last = 0;
  for (let m = re.exec(format); m; m = re.exec(format)) {
    out += format.slice(last, m.index);
    last = re.lastIndex;
    const [, flags = "", width, precText, verb] = m as unknown as [
      string,
      string,
      string | undefined,
      string | undefined,
      string,
    ];
    if (verb === "%") {
      out += "%";
      continue;
    }
    if (argi >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    const arg = args[argi++]!;
    const prec = precText === undefined ? undefined : Number(precText || "0");
    let s = formatOne(verb, arg, flags, prec);
    const w = width ? Number(width) : 0;
    if ([...s].length < w) {
      const pad = w - [...s].length;
      if (flags.includes("-")) s += " ".repeat(pad);
      else if (flags.includes("0") && /[dfegxXob]/.test(verb) && arg instanceof Num) {
        const sign = /^[+-]/.test(s) ? s[0]! : "";
        s = sign + "0".repeat(pad) + s.slice(sign.length);
      } else s = " ".repeat(pad) + s;
    }
    out += s;
  }
  out += format.slice(last);
  if (argi < args.length)
    out +=
      "%!(EXTRA " +
      args
        .slice(argi)
        .map((a) => `${typeName(a)}=${formatValue(a)}`)
        .join(", ") +
      ")";
  return out;
}

function formatOne(verb: string, arg: GoValue, flags: string, prec: number | undefined): string {
  const bad = () => `%!${verb}(${typeName(arg)}=${formatValue(arg)})`;
  const sign = (n: number, s: string) =>
    n >= 0 && flags.includes("+") ? "+" + s : n >= 0 && flags.includes(" ") ? " " + s : s;
  switch (verb) {
    case "v":
      return arg instanceof Num && arg.kind !== "float64" ? sign(arg.v, String(arg.v)) : formatValue(arg);
    case "s":
      if (arg instanceof Num || typeof arg === "boolean") return bad();
      return prec === undefined ? formatValue(arg) : [...formatValue(arg)].slice(0, prec).join("");
    case "q":
      return typeof arg === "string" ? goQuote(arg) : bad();
    case "t":
      return typeof arg === "boolean" ? String(arg) : bad();
    case "d":
      return arg instanceof Num && arg.kind !== "float64" ? sign(arg.v, String(arg.v)) : bad();
    case "x":
    case "X":
    case "o":
    case "b": {
      const base = verb === "o" ? 8 : verb === "b" ? 2 : 16;
      let s: string;
      if (arg instanceof Num && arg.kind !== "float64") s = (arg.v < 0 ? "-" : "") + Math.abs(arg.v).toString(base);
      else if (typeof arg === "string" && base === 16) s = Buffer.from(arg, "utf8").toString("hex");
      else return bad();
      return verb === "X" ? s.toUpperCase() : s;
    }
    case "c":
      return arg instanceof Num && arg.kind !== "float64" ? String.fromCodePoint(arg.v) : bad();
    case "f":
    case "F":
    case "e":
    case "g": {
      if (!(arg instanceof Num) || arg.kind !== "float64") return bad();
      const n = arg.v;
      if (verb === "g") return sign(n, prec === undefined ? formatFloat(n) : String(Number(n.toPrecision(prec || 1))));
      if (verb === "e") {
        const s = n.toExponential(prec ?? 6).replace(/e([+-])(\d)$/, "e$10$2");
        return sign(n, s);
      }
      return sign(n, toFixedEven(n, prec ?? 6));
    }
  }
  return `%!${verb}(${typeName(arg)}=${formatValue(arg)})`;
}

/** strconv's %f: the exact binary value rounded to `prec` decimals, ties to even (toFixed rounds ties up). */
function toFixedEven(n: number, prec: number): string {
  const exact = Math.abs(n).toFixed(Math.min(100, prec + 40));
  const [whole, frac] = exact.split(".") as [string, string];
  const keep = frac.slice(0, prec);
  const rest = frac.slice(prec);
  const digits = whole + keep;
  const half = rest[0] === "5" && /^5?0*$/.test(rest);
  const last = Number(digits[digits.length - 1] ?? "0");
  const up = rest !== "" && (rest[0]! > "5" || (rest[0] === "5" && (!half || last % 2 === 1)));
  let int = BigInt(digits);
  if (up) int += 1n;
  let text = int.toString().padStart(prec + 1, "0");
  text = prec > 0 ? `${text.slice(0, -prec)}.${text.slice(-prec)}` : text;
  return (n < 0 || Object.is(n, -0) ? "-" : "") + text;
}
