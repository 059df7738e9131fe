// text/template's builtin functions (funcs.go): and, or, not, len, index, print, printf, println,
// and the comparisons. html, js, urlquery and call are refused by name (see engine.ts).
import { FuncError, type GoFunc, fn } from "./functions.js";
import { type GoValue, Num, formatValue, int, isMap, truth, typeName } from "./values.js";
import { sprintf } from "./printf.js";

type Basic = "bool" | "int" | "float" | "string";
function basicKind(v: GoValue): Basic | undefined {
  if (typeof v === "boolean") return "bool";
  if (typeof v === "string") return "string";
  if (v instanceof Num) return v.kind === "float64" ? "float" : "int";
  return undefined;
}

const badType = () => new FuncError("invalid type for comparison");
const incompatible = () => new FuncError("incompatible types for comparison");

function eq(a: GoValue, ...bs: GoValue[]): boolean {
  const ka = basicKind(a);
  for (const b of bs) {
    const kb = basicKind(b);
    if (ka === undefined || kb === undefined) {
      // Non-basic values: Go compares comparable types (nil with nil); maps and slices are not comparable.
      if ((a !== null && ka === undefined) || (b !== null && kb === undefined))
        throw new FuncError("non-comparable type " + typeName(ka === undefined && a !== null ? a : b) + ": ");
      if (a === null && b === null) return true;
      if (a === null || b === null) {
        throw incompatible();
      }
      continue;
    }
    if (ka !== kb) throw incompatible();
    const x = a instanceof Num ? a.v : a;
    const y = b instanceof Num ? b.v : b;
    if (x === y) return true;
  }
  return false;
}

function lt(a: GoValue, b: GoValue): boolean {
  const ka = basicKind(a);
  const kb = basicKind(b);
  if (ka === undefined || kb === undefined || ka === "bool") throw badType();
  if (ka !== kb) throw incompatible();
  const x = a instanceof Num ? a.v : (a as string);
  const y = b instanceof Num ? b.v : (b as string);
  return x < y;
}

function length(v: GoValue): GoValue {
  if (typeof v === "string") return int(new TextEncoder().encode(v).length);
  if (Array.isArray(v)) return int(v.length);
  if (isMap(v)) return int(Object.keys(v).length);
  throw new FuncError(v === null ? "len of nil pointer" : `len of type ${typeName(v)}`);
}

function index(item: GoValue, ...indexes: GoValue[]): GoValue {
  let v = item;
  for (const i of indexes) {
    if (v === null) throw new FuncError("index of untyped nil");
    if (Array.isArray(v) || typeof v === "string") {
      if (!(i instanceof Num) || i.kind === "float64")
        throw new FuncError(`cannot index slice/array with type ${typeName(i)}`);
      if (i.v < 0 || i.v >= v.length) throw new FuncError(`error calling index: index out of range: ${i.v}`);
      v = typeof v === "string" ? int(v.charCodeAt(i.v)) : v[i.v]!;
    } else if (isMap(v)) {
      if (typeof i !== "string") throw new FuncError(`value has type ${typeName(i)}; should be string`);
      v = Object.hasOwn(v, i) ? v[i]! : null;
    } else {
      throw new FuncError(`can't index item of type ${typeName(v)}`);
    }
  }
  return v;
}

/** fmt.Sprint: spaces between operands when neither side is a string. */
function sprint(args: GoValue[]): string {
  let out = "";
  args.forEach((a, i) => {
    if (i > 0 && typeof a !== "string" && typeof args[i - 1] !== "string") out += " ";
    out += formatValue(a);
  });
  return out;
}

export function builtins(): Map<string, GoFunc> {
  const m = new Map<string, GoFunc>();
  m.set("and", { params: ["lazy"], variadic: "lazy", call: () => null, lazy: "and" });
  m.set("or", { params: ["lazy"], variadic: "lazy", call: () => null, lazy: "or" });
  m.set(
    "not",
    fn(["any"], ([a]) => !truth(a!)),
  );
  m.set(
    "len",
    fn(["any"], ([a]) => length(a!)),
  );
  m.set(
    "index",
    fn(["any"], ([a, ...rest]) => index(a!, ...rest), "any"),
  );
  m.set(
    "print",
    fn([], (args) => sprint(args), "any"),
  );
  m.set(
    "println",
    fn([], (args) => args.map(formatValue).join(" ") + "\n", "any"),
  );
  m.set(
    "printf",
    fn(["string"], ([f, ...rest]) => sprintf(f as string, rest), "any"),
  );
  m.set(
    "eq",
    fn(["any"], ([a, ...rest]) => eq(a!, ...rest), "any"),
  );
  m.set(
    "ne",
    fn(["any", "any"], ([a, b]) => !eq(a!, b!)),
  );
  m.set(
    "lt",
    fn(["any", "any"], ([a, b]) => lt(a!, b!)),
  );
  m.set(
    "le",
    fn(["any", "any"], ([a, b]) => lt(a!, b!) || eq(a!, b!)),
  );
  m.set(
    "gt",
    fn(["any", "any"], ([a, b]) => !lt(a!, b!) && !eq(a!, b!)),
  );
  m.set(
    "ge",
    fn(["any", "any"], ([a, b]) => !lt(a!, b!)),
  );
  return m;
}
