// The parse tree of a template, as text/template/parse builds it (only what the engine executes).

export type Node =
  | { type: "text"; pos: number; text: string }
  | { type: "action"; pos: number; line: number; pipe: Pipe }
  | { type: "if" | "with"; pos: number; line: number; pipe: Pipe; list: Node[]; elseList?: Node[] }
  | { type: "range"; pos: number; line: number; pipe: Pipe; list: Node[]; elseList?: Node[] }
  | { type: "template"; pos: number; line: number; name: string; pipe?: Pipe }
  | { type: "break" | "continue"; pos: number; line: number };

export interface Pipe {
  pos: number;
  line: number;
  isAssign: boolean;
  decl: string[];
  cmds: Command[];
}

export interface Command {
  pos: number;
  args: Arg[];
}

export type Arg =
  | { type: "field"; pos: number; fields: string[] }
  | { type: "chain"; pos: number; node: Arg; fields: string[] }
  | { type: "variable"; pos: number; name: string; fields: string[] }
  | { type: "identifier"; pos: number; name: string }
  | { type: "dot"; pos: number }
  | { type: "nil"; pos: number }
  | { type: "bool"; pos: number; value: boolean }
  | { type: "number"; pos: number; text: string; isInt: boolean; value: number }
  | { type: "string"; pos: number; text: string; value: string }
  | { type: "pipe"; pos: number; pipe: Pipe };

/** Node.String() of text/template/parse, which execution errors quote as their context. */
export function argText(a: Arg): string {
  switch (a.type) {
    case "field":
      return a.fields.map((f) => "." + f).join("");
    case "chain": {
      const inner = a.node.type === "pipe" ? `(${argText(a.node)})` : argText(a.node);
      return inner + a.fields.map((f) => "." + f).join("");
    }
    case "variable":
      return [a.name, ...a.fields].join(".");
    case "identifier":
      return a.name;
    case "dot":
      return ".";
    case "nil":
      return "nil";
    case "bool":
      return String(a.value);
    case "number":
    case "string":
      return a.text;
    case "pipe":
      return pipeText(a.pipe);
  }
}

export function pipeText(p: Pipe): string {
  const decl = p.decl.length ? `${p.decl.join(", ")} ${p.isAssign ? "=" : ":="} ` : "";
  return decl + p.cmds.map(commandText).join(" | ");
}

export function commandText(c: Command): string {
  return c.args.map((a) => (a.type === "pipe" ? `(${argText(a)})` : argText(a))).join(" ");
}
