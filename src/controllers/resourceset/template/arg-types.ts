// How text/template matches an argument to a Go function's parameter type: a literal by its node
// (evalArg: "expected integer; found ..."), a computed value by its type (validateType: "wrong type
// for value; expected string; got int64"), and which Go type an untyped number constant becomes.
import type { Arg } from "./ast.js";
import { argText } from "./ast.js";
import type { ParamType } from "./functions.js";
import { type GoValue, Num, float, int, isMap, typeName } from "./values.js";

const goType = (t: ParamType) => (t === "map" ? "map[string]interface {}" : t);
const litName = (t: ParamType) => (t === "int" || t === "int64" ? "integer" : t === "float64" ? "float" : t);
const anyType = (t: ParamType) => t === "any" || t === "lazy";

/** idealConstant: a number with a '.', an exponent or a 'p' is a float64 even when integral. */
export function literal(n: Extract<Arg, { type: "number" }>): GoValue {
  const floatText = !/^[+-]?0[xX]/.test(n.text) && !n.text.startsWith("'") && /[.eEpP]/.test(n.text);
  return n.isInt && !floatText ? int(n.value) : float(n.value);
}

/** A literal argument's value for the parameter, or undefined when the argument is not a literal. */
export function checkLiteral(arg: Arg, type: ParamType, fail: (msg: string) => never): GoValue | undefined {
  const lit = (want: string) => fail(`expected ${want}; found ${argText(arg)}`);
  if (arg.type === "nil" && !anyType(type) && type !== "map") fail(`cannot assign nil to ${goType(type)}`);
  switch (arg.type) {
    case "string":
      return type === "string" || anyType(type) ? arg.value : lit(litName(type));
    case "bool":
      return type === "bool" || anyType(type) ? arg.value : lit(litName(type));
    case "number":
      if (anyType(type)) return literal(arg);
      if (type === "int" || type === "int64") return arg.isInt ? new Num(type, arg.value) : lit("integer");
      if (type === "float64") return float(arg.value);
      return lit(litName(type));
  }
  return undefined;
}

/** validateType: a computed value must be of the parameter's Go type. */
export function validateValue(v: GoValue, type: ParamType, failAt: (msg: string) => never): GoValue {
  if (anyType(type)) return v;
  if (v === null) return type === "map" ? v : failAt(`invalid value; expected ${goType(type)}`);
  const ok =
    (type === "string" && typeof v === "string") ||
    (type === "bool" && typeof v === "boolean") ||
    (type === "map" && isMap(v)) ||
    (v instanceof Num && v.kind === type);
  if (!ok) failAt(`wrong type for value; expected ${goType(type)}; got ${typeName(v)}`);
  return v;
}
