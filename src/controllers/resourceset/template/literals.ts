// The literals of a template action as text/template/parse reads them: numbers (decimal, hex, octal,
// binary, floats, `_` separators, character constants) and Go-quoted or raw strings; and how the
// parser names a token in its errors.
import type { Arg } from "./ast.js";
import type { Item } from "./lex.js";

type Fail = (item: Item, msg: string) => never;

/** A Go string literal: JSON's escapes plus Go's \a \v \x.. \U........ and \'. */
function unquoteGo(s: string, item: Item, fail: Fail): string {
  try {
    const json = s
      .replace(/\\a/g, "\\u0007")
      .replace(/\\v/g, "\\u000b")
      .replace(/\\'/g, "'")
      .replace(/\\x([0-9a-fA-F]{2})/g, "\\u00$1")
      .replace(/\\U([0-9a-fA-F]{8})/g, (_, h: string) =>
        JSON.stringify(String.fromCodePoint(parseInt(h, 16))).slice(1, -1),
      );
    return JSON.parse(json) as string;
  } catch {
    return fail(item, "invalid syntax");
  }
}

export const unquoteLiteral = (item: Item, fail: Fail): string =>
  item.type === "raw" ? item.val.slice(1, -1) : unquoteGo(item.val, item, fail);

export function numberLiteral(item: Item, fail: Fail): Arg {
  if (item.type === "char") {
    const s = unquoteGo(`"${item.val.slice(1, -1).replace(/"/g, '\\"')}"`, item, fail);
    return { type: "number", pos: item.pos, text: item.val, isInt: true, value: s.codePointAt(0)! };
  }
  const clean = item.val.replace(/_/g, "");
  let value: number;
  let isInt = true;
  if (/^[+-]?0[xXoObB]/.test(clean)) value = Number(clean.replace(/^([+-]?)0[oO]/, "$10o"));
  else if (/^[+-]?0[0-7]+$/.test(clean)) value = parseInt(clean, 8);
  else {
    value = Number(clean);
    isInt = /^[+-]?[0-9]+$/.test(clean) || (Number.isInteger(value) && Math.abs(value) < 2 ** 53);
  }
  if (Number.isNaN(value)) fail(item, `illegal number syntax: "${item.val}"`);
  return { type: "number", pos: item.pos, text: item.val, isInt, value };
}

/** How the parser quotes a token in "unexpected ..." errors. */
export function describe(item: Item): string {
  switch (item.type) {
    case "right":
      return `">>"`;
    case "rparen":
      return `")"`;
    case "keyword":
      return `<${item.val}>`;
    default:
      return `"${item.val}"`;
  }
}
