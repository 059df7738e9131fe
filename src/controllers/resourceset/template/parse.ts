// Go text/template's parser (text/template/parse/parse.go) for the operator's templates: actions,
// pipelines, variables, if/else if/range/with/else, break/continue, define/template/block. A
// function not in the table is refused here, at parse time, as Go does ("function %q not defined");
// a slim-sprig function flotilla does not implement is refused by name.
import { FlotillaError } from "../../../util/errors.js";
import type { Arg, Command, Node, Pipe } from "./ast.js";
import { type Item, LexError, lex } from "./lex.js";
import { describe, numberLiteral, unquoteLiteral } from "./literals.js";

export class TemplateParseError extends FlotillaError {
  override name = "TemplateParseError";
  constructor(
    readonly line: number,
    readonly detail: string,
  ) {
    super(`template: resourceset:${line}: ${detail}`);
  }
}

export interface Tree {
  root: Node[];
  defines: Map<string, Node[]>;
}

/** Says whether a function name exists, and why flotilla refuses one that Go would accept. */
export interface FunctionTable {
  has(name: string): boolean;
  refusal(name: string): string | undefined;
}

type End = "end" | "else" | "eof";

/** Go's parse.go: " in action started at name:line" ("action in action" avoided) when the lines differ. */
const inAction = (e: LexError) =>
  e.actionLine === undefined || e.actionLine === e.line
    ? ""
    : `${e.message.endsWith(" action") ? "" : " in action"} started at resourceset:${e.actionLine}`;

export function parseTemplate(text: string, funcs: FunctionTable): Tree {
  let items: Item[];
  try {
    items = lex(text);
  } catch (e) {
    if (e instanceof LexError) throw new TemplateParseError(e.line, e.message + inAction(e));
    throw e;
  }
  let i = 0;
  let vars: string[] = ["$"];
  let rangeDepth = 0;
  const defines = new Map<string, Node[]>();

  const peek = (): Item => items[i]!;
  const next = (): Item => items[i++]!;
  const nonSpace = (): Item => {
    while (peek().type === "space") i++;
    return next();
  };
  const peekNonSpace = (): Item => {
    while (peek().type === "space") i++;
    return peek();
  };
  const fail = (item: Item, msg: string): never => {
    throw new TemplateParseError(item.line, msg);
  };
  const unexpected = (item: Item, context: string): never =>
    fail(item, item.type === "eof" ? "unexpected EOF" : `unexpected ${describe(item)} in ${context}`);
  const expect = (type: Item["type"], context: string): Item => {
    const item = nonSpace();
    return item.type === type ? item : unexpected(item, context);
  };

  function itemList(context: string): { list: Node[]; end: End } {
    const list: Node[] = [];
    for (;;) {
      const item = peek();
      if (item.type === "eof") {
        if (context === "top") return { list, end: "eof" };
        return fail(item, "unexpected EOF");
      }
      if (item.type === "text") {
        next();
        list.push({ type: "text", pos: item.pos, text: item.val });
        continue;
      }
      next(); // left delimiter
      const word = peekNonSpace();
      if (word.type === "keyword" && (word.val === "end" || word.val === "else")) {
        if (context === "top") fail(word, `unexpected {{${word.val}}}`);
        nonSpace();
        return { list, end: word.val };
      }
      const node = action(item);
      if (node) list.push(node);
    }
  }

  function action(left: Item): Node | undefined {
    const item = peekNonSpace();
    if (item.type === "keyword") {
      nonSpace();
      switch (item.val) {
        case "if":
        case "with":
        case "range":
          return control(item.val, item);
        case "template":
          return templateCall(item);
        case "block": {
          const call = templateCall(item, true);
          return call;
        }
        case "define":
          return define(item);
        case "break":
        case "continue":
          if (rangeDepth === 0) fail(item, `{{${item.val}}} outside {{range}}`);
          expect("right", item.val);
          return { type: item.val, pos: item.pos, line: item.line };
      }
    }
    return { type: "action", pos: left.pos, line: left.line, pipe: pipeline("command", "right") };
  }

  function control(kind: "if" | "with" | "range", item: Item): Node {
    const saved = vars.length;
    if (kind === "range") rangeDepth++;
    const pipe = pipeline(kind, "right");
    const { list, end } = itemList(kind);
    if (kind === "range") rangeDepth--;
    let elseList: Node[] | undefined;
    if (end === "else") {
      const after = peekNonSpace();
      if ((kind === "if" || kind === "with") && after.type === "keyword" && after.val === kind) {
        // `else if` / `else with`: a nested control as the whole else branch, ending at the same {{end}}.
        nonSpace();
        elseList = [control(kind, after)];
      } else {
        expect("right", "else");
        const rest = itemList(kind);
        if (rest.end !== "end") fail(peek(), "expected end; found {{else}}");
        expect("right", "end");
        elseList = rest.list;
      }
    } else {
      expect("right", "end");
    }
    vars = vars.slice(0, saved);
    void list;
    return { type: kind, pos: item.pos, line: item.line, pipe, list, elseList } as Node;
  }

  function templateCall(item: Item, block = false): Node {
    const context = block ? "block clause" : "template clause";
    const nameItem = nonSpace();
    if (nameItem.type !== "string" && nameItem.type !== "raw") unexpected(nameItem, context);
    const name = unquote(nameItem);
    let pipe: Pipe | undefined;
    if (peekNonSpace().type !== "right") pipe = pipeline(context, "right");
    else nonSpace();
    if (block) {
      const savedVars = vars;
      vars = ["$"];
      const body = itemList("define");
      if (body.end !== "end") fail(item, "unexpected {{else}} in block clause");
      expect("right", "end");
      vars = savedVars;
      defines.set(name, body.list);
    }
    return { type: "template", pos: item.pos, line: item.line, name, pipe };
  }

  function define(item: Item): undefined {
    const nameItem = nonSpace();
    if (nameItem.type !== "string" && nameItem.type !== "raw") unexpected(nameItem, "define clause");
    expect("right", "define clause");
    const savedVars = vars;
    vars = ["$"];
    const body = itemList("define");
    if (body.end !== "end") fail(item, "unexpected {{else}} in define clause");
    expect("right", "end");
    vars = savedVars;
    defines.set(unquote(nameItem), body.list);
    return undefined;
  }

  function pipeline(context: string, end: "right" | "rparen"): Pipe {
    const start = peekNonSpace();
    const pipe: Pipe = { pos: start.pos, line: start.line, isAssign: false, decl: [], cmds: [] };
    // Declarations: `$x :=`, `$x =`, `$i, $v :=`.
    if (start.type === "variable") {
      const save = i;
      const v = nonSpace();
      const op = peekNonSpace();
      if (op.type === "declare" || op.type === "assign") {
        nonSpace();
        pipe.isAssign = op.type === "assign";
        pipe.decl.push(v.val);
        if (!pipe.isAssign) vars.push(v.val);
        else if (!vars.includes(v.val)) fail(v, `undefined variable "${v.val}"`);
      } else if (op.type === "comma" && context === "range") {
        nonSpace();
        const v2 = expect("variable", "range");
        const op2 = nonSpace();
        if (op2.type !== "declare" && op2.type !== "assign") unexpected(op2, "range");
        pipe.isAssign = op2.type === "assign";
        pipe.decl.push(v.val, v2.val);
        if (!pipe.isAssign) vars.push(v.val, v2.val);
      } else {
        i = save;
      }
    }
    for (;;) {
      const item = peekNonSpace();
      if (item.type === end) {
        nonSpace();
        if (pipe.cmds.length === 0) fail(item, `missing value for ${context}`);
        return pipe;
      }
      if (item.type === "eof" || item.type === "right" || item.type === "rparen") unexpected(item, context);
      pipe.cmds.push(command(context));
    }
  }

  function command(context: string): Command {
    const cmd: Command = { pos: peekNonSpace().pos, args: [] };
    for (;;) {
      peekNonSpace();
      const arg = operand();
      if (!arg) break;
      cmd.args.push(arg);
      const after = peek();
      if (after.type === "space") continue;
      if (after.type === "right" || after.type === "rparen" || after.type === "pipe") break;
      if (after.type === "eof") break;
      fail(after, `unexpected ${describe(after)} in operand`);
    }
    const stop = peekNonSpace();
    if (stop.type === "pipe") nonSpace();
    if (cmd.args.length === 0) fail(stop, `empty command`);
    void context;
    return cmd;
  }

  function operand(): Arg | undefined {
    const node = term();
    if (!node) return undefined;
    if (peek().type !== "field") return node;
    const fields: string[] = [];
    const pos = peek().pos;
    while (peek().type === "field") fields.push(next().val.slice(1));
    if (node.type === "field") return { type: "field", pos: node.pos, fields: [...node.fields, ...fields] };
    if (node.type === "variable") return { ...node, fields: [...node.fields, ...fields] };
    if (["bool", "string", "number", "nil", "dot"].includes(node.type))
      fail(items[i - 1]!, `unexpected . after term "${node.type === "string" ? node.text : node.type}"`);
    return { type: "chain", pos, node, fields };
  }

  function term(): Arg | undefined {
    const item = peek();
    switch (item.type) {
      case "identifier": {
        next();
        const refused = funcs.refusal(item.val);
        if (refused) fail(item, refused);
        if (!funcs.has(item.val)) fail(item, `function "${item.val}" not defined`);
        return { type: "identifier", pos: item.pos, name: item.val };
      }
      case "dot":
        next();
        return { type: "dot", pos: item.pos };
      case "nil":
        next();
        return { type: "nil", pos: item.pos };
      case "variable": {
        next();
        if (!vars.includes(item.val)) fail(item, `undefined variable "${item.val}"`);
        return { type: "variable", pos: item.pos, name: item.val, fields: [] };
      }
      case "field":
        next();
        return { type: "field", pos: item.pos, fields: [item.val.slice(1)] };
      case "bool":
        next();
        return { type: "bool", pos: item.pos, value: item.val === "true" };
      case "number":
      case "char":
        next();
        return number(item);
      case "string":
      case "raw":
        next();
        return { type: "string", pos: item.pos, text: item.val, value: unquote(item) };
      case "lparen": {
        next();
        return { type: "pipe", pos: item.pos, pipe: pipeline("parenthesized pipeline", "rparen") };
      }
    }
    return undefined;
  }

  const number = (item: Item): Arg => numberLiteral(item, fail);
  const unquote = (item: Item): string => unquoteLiteral(item, fail);

  const { list } = itemList("top");
  return { root: list, defines };
}
