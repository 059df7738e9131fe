// Go text/template's executor (text/template/exec.go) over the parse tree, with missingkey=error and
// nil data, as the operator executes ResourceSet templates. Errors read as Go's:
// `template: resourceset:<line>:<col>: executing "resourceset" at <<context>>: <message>`.
import { FlotillaError } from "../../../util/errors.js";
import { type Arg, type Command, type Node, type Pipe, argText, commandText } from "./ast.js";
import { checkLiteral, literal, validateValue } from "./arg-types.js";
import { FuncError, type Functions, type GoFunc, type ParamType } from "./functions.js";
import type { Tree } from "./parse.js";
import { type GoValue, Num, formatValue, int, isMap, sortedKeys, truth, typeName } from "./values.js";

export class TemplateExecError extends FlotillaError {
  override name = "TemplateExecError";
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

class Control {
  constructor(readonly kind: "break" | "continue") {}
}

const MAX_DEPTH = 100_000;

export function execute(text: string, tree: Tree, funcs: Functions): string {
  let out = "";
  let vars: { name: string; value: GoValue }[] = [{ name: "$", value: null }];
  let depth = 0;
  const utf8 = new TextEncoder();

  // Go's state.at: the node errors are reported at, moved as evaluation goes.
  let at = { pos: 0, ctx: "" };
  const setAt = (pos: number, ctx: string) => {
    at = { pos, ctx };
  };
  const fail = (pos: number, context: string, msg: string): never => {
    setAt(pos, context);
    return failAt(msg);
  };
  const failAt = (msg: string): never => {
    const before = text.slice(0, at.pos);
    const nl = before.lastIndexOf("\n");
    const line = before.split("\n").length;
    const col = utf8.encode(nl < 0 ? before : before.slice(nl + 1)).length;
    throw new TemplateExecError(
      line,
      `template: resourceset:${line}:${col}: executing "resourceset" at <${at.ctx}>: ${msg}`,
    );
  };

  const lookupVar = (name: string): GoValue => {
    for (let i = vars.length - 1; i >= 0; i--) if (vars[i]!.name === name) return vars[i]!.value;
    return null;
  };
  const setVar = (name: string, value: GoValue) => {
    for (let i = vars.length - 1; i >= 0; i--)
      if (vars[i]!.name === name) {
        vars[i]!.value = value;
        return;
      }
  };

  function walkList(dot: GoValue, list: Node[]): void {
    for (const node of list) walk(dot, node);
  }

  function walk(dot: GoValue, node: Node): void {
    switch (node.type) {
      case "text":
        out += node.text;
        return;
      case "action": {
        const v = evalPipeline(dot, node.pipe);
        if (node.pipe.decl.length === 0) out += v === null ? "<no value>" : formatValue(v);
        return;
      }
      case "if":
      case "with": {
        const saved = vars.length;
        const v = evalPipeline(dot, node.pipe);
        if (truth(v)) walkList(node.type === "with" ? v : dot, node.list);
        else if (node.elseList) walkList(dot, node.elseList);
        vars = vars.slice(0, saved);
        return;
      }
      case "range":
        return walkRange(dot, node);
      case "break":
      case "continue":
        throw new Control(node.type);
      case "template": {
        const body = tree.defines.get(node.name);
        if (!body) fail(node.pos, `template ${JSON.stringify(node.name)}`, `template "${node.name}" not defined`);
        if (++depth > MAX_DEPTH) fail(node.pos, "template", `exceeded maximum template depth (${MAX_DEPTH})`);
        const newDot = node.pipe ? evalPipeline(dot, node.pipe) : null;
        const savedVars = vars;
        vars = [{ name: "$", value: newDot }];
        walkList(newDot, body!);
        vars = savedVars;
        depth--;
        return;
      }
    }
  }

  function walkRange(dot: GoValue, node: Extract<Node, { type: "range" }>): void {
    const saved = vars.length;
    const v = evalPipeline(dot, node.pipe);
    // The pipeline's own declarations are the loop's variables, not its value.
    vars = vars.slice(0, saved);
    const one = (key: GoValue, elem: GoValue): boolean => {
      if (node.pipe.decl.length > 0) {
        const target = node.pipe.decl.length === 1 ? [elem] : [key, elem];
        node.pipe.decl.forEach((name, i) =>
          node.pipe.isAssign ? setVar(name, target[i]!) : vars.push({ name, value: target[i]! }),
        );
      }
      const mark = vars.length;
      try {
        walkList(elem, node.list);
      } catch (e) {
        if (!(e instanceof Control)) throw e;
        if (e.kind === "break") return false;
      } finally {
        vars = vars.slice(0, node.pipe.isAssign ? mark : saved);
      }
      return true;
    };
    let count = 0;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++, count++) if (!one(int(i), v[i]!)) break;
    } else if (isMap(v)) {
      for (const k of sortedKeys(v)) {
        count++;
        if (!one(k, v[k]!)) break;
      }
    } else if (v instanceof Num && v.kind !== "float64") {
      if (node.pipe.decl.length > 1)
        fail(node.pos, "range", `can't use ${formatValue(v)} to iterate over more than one variable`);
      for (let i = 0; i < v.v; i++, count++) if (!one(new Num(v.kind, i), new Num(v.kind, i))) break;
    } else if (v !== null) {
      fail(node.pipe.pos, pipeTextOf(node.pipe), `range can't iterate over ${formatValue(v)}`);
    }
    if (count === 0 && node.elseList) walkList(dot, node.elseList);
  }

  const pipeTextOf = (p: Pipe) => p.cmds.map(commandText).join(" | ");

  function evalPipeline(dot: GoValue, pipe: Pipe): GoValue {
    let value: GoValue | undefined = undefined;
    for (const cmd of pipe.cmds) value = evalCommand(dot, cmd, value);
    for (const name of pipe.decl) {
      if (pipe.isAssign) setVar(name, value!);
      else vars.push({ name, value: value! });
    }
    return value!;
  }

  /** `final` is the previous command's value in a pipeline (undefined: none). */
  function evalCommand(dot: GoValue, cmd: Command, final: GoValue | undefined): GoValue {
    const first = cmd.args[0]!;
    const args = cmd.args.slice(1);
    setAt(first.pos, argText(first));
    switch (first.type) {
      case "field":
        return evalFields(dot, first, dot, first.fields, args, final);
      case "chain": {
        const receiver = evalArgValue(dot, first.node);
        return evalFields(dot, first, receiver, first.fields, args, final, true);
      }
      case "identifier":
        return callFunction(dot, first.name, cmd, args, final);
      case "variable": {
        const v = lookupVar(first.name);
        if (first.fields.length === 0) {
          noArgs(first, args, final);
          return v;
        }
        return evalFields(dot, first, v, first.fields, args, final);
      }
      case "pipe":
        noArgs(first, args, final);
        return evalPipeline(dot, first.pipe);
    }
    noArgs(first, args, final);
    switch (first.type) {
      case "bool":
        return first.value;
      case "dot":
        return dot;
      case "nil":
        return fail(first.pos, "nil", "nil is not a command");
      case "number":
        return literal(first);
      case "string":
        return first.value;
    }
  }

  function noArgs(first: Arg, args: Arg[], final: GoValue | undefined): void {
    if (args.length > 0 || final !== undefined)
      fail(first.pos, argText(first), `can't give argument to non-function ${argText(first)}`);
  }

  function evalFields(
    dot: GoValue,
    node: Arg,
    receiver: GoValue,
    fields: string[],
    args: Arg[],
    final: GoValue | undefined,
    chained = false,
  ): GoValue {
    let v = receiver;
    if (!chained) setAt(node.pos, argText(node));
    // Top-level `.x` on nil data vs `.x` through a nil value inside the data.
    let isData = node.type === "field";
    for (let i = 0; i < fields.length; i++) {
      const name = fields[i]!;
      const last = i === fields.length - 1;
      if (v === null) {
        if (isData) failAt(`nil data; no entry for key "${name}"`);
        failAt(`nil pointer evaluating interface {}.${name}`);
      }
      if (isMap(v)) {
        if (last && (args.length > 0 || final !== undefined)) failAt(`${name} is not a method but has arguments`);
        if (!Object.hasOwn(v, name)) failAt(`map has no entry for key "${name}"`);
        v = v[name]!;
      } else {
        failAt(`can't evaluate field ${name} in type ${typeName(v)}`);
      }
      isData = false;
    }
    return v;
  }

  function evalArgValue(dot: GoValue, arg: Arg): GoValue {
    setAt(arg.pos, argText(arg));
    switch (arg.type) {
      case "dot":
        return dot;
      case "nil":
        return null;
      case "field":
        return evalFields(dot, arg, dot, arg.fields, [], undefined);
      case "variable":
        return arg.fields.length
          ? evalFields(dot, arg, lookupVar(arg.name), arg.fields, [], undefined)
          : lookupVar(arg.name);
      case "pipe":
        return evalPipeline(dot, arg.pipe);
      case "identifier":
        return callFunction(dot, arg.name, { pos: arg.pos, args: [arg] }, [], undefined);
      case "chain":
        return evalFields(dot, arg, evalArgValue(dot, arg.node), arg.fields, [], undefined, true);
      case "bool":
        return arg.value;
      case "number":
        return literal(arg);
      case "string":
        return arg.value;
    }
  }

  /** evalArg: a literal checked against the parameter's type, anything else evaluated then validated. */
  function evalArg(dot: GoValue, type: ParamType, arg: Arg): GoValue {
    const checked = checkLiteral(arg, type, (msg) => fail(arg.pos, arg.type === "nil" ? "nil" : argText(arg), msg));
    if (checked !== undefined) return checked;
    setAt(arg.pos, argText(arg));
    return validate(evalArgValue(dot, arg), type);
  }

  const validate = (v: GoValue, type: ParamType): GoValue => validateValue(v, type, failAt);

  function callFunction(dot: GoValue, name: string, cmd: Command, args: Arg[], final: GoValue | undefined): GoValue {
    const f = funcs.get(name)!;
    const head = cmd.args[0]!;
    setAt(head.pos, name);
    const numIn = args.length + (final === undefined ? 0 : 1);
    if (f.variadic !== undefined) {
      if (numIn < f.params.length)
        fail(head.pos, name, `wrong number of args for ${name}: want at least ${f.params.length} got ${args.length}`);
    } else if (numIn !== f.params.length) {
      fail(head.pos, name, `wrong number of args for ${name}: want ${f.params.length} got ${numIn}`);
    }
    const typeAt = (i: number): ParamType => (i < f.params.length ? f.params[i]! : f.variadic!);
    if (f.lazy) return andOr(dot, f, args, final);
    const argv = args.map((a, i) => evalArg(dot, typeAt(i), a));
    if (final !== undefined) argv.push(validate(final, typeAt(args.length)));
    return invoke(f, name, cmd, argv);
  }

  function andOr(dot: GoValue, f: GoFunc, args: Arg[], final: GoValue | undefined): GoValue {
    let v: GoValue = null;
    for (const a of args) {
      v = evalArgValue(dot, a);
      if (truth(v) === (f.lazy === "or")) return v;
    }
    return final !== undefined ? final : v;
  }

  function invoke(f: GoFunc, name: string, cmd: Command, argv: GoValue[]): GoValue {
    try {
      return f.call(argv);
    } catch (e) {
      if (e instanceof FuncError) return fail(cmd.pos, commandText(cmd), `error calling ${name}: ${e.message}`);
      throw e;
    }
  }

  try {
    walkList(null, tree.root);
  } catch (e) {
    if (e instanceof Control) throw new TemplateExecError(0, `{{${e.kind}}} outside {{range}}`);
    if (e instanceof TemplateExecError) (e as { partial?: string }).partial = out;
    throw e;
  }
  return out;
}
