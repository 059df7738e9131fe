// The function table a template sees: text/template's builtins, the slim-sprig functions flotilla
// implements, and the operator's additions (slugify, inputs, toYaml, mustToYaml). Parameters carry
// their Go types because text/template checks an argument against them ("wrong type for value").
import { FlotillaError } from "../../../util/errors.js";
import type { FunctionTable } from "./parse.js";
import type { GoValue } from "./values.js";

export type ParamType = "any" | "string" | "int" | "int64" | "float64" | "bool" | "map" | "lazy";

export interface GoFunc {
  params: ParamType[];
  /** The element type of a trailing `...` parameter. */
  variadic?: ParamType;
  call(args: GoValue[]): GoValue;
  /** and/or: arguments evaluated one by one, short-circuiting. */
  lazy?: "and" | "or";
}

/** A Go function's non-nil error: text/template reports "error calling <name>: <message>". */
export class FuncError extends FlotillaError {
  override name = "FuncError";
}

export const fn = (params: ParamType[], call: (args: GoValue[]) => GoValue, variadic?: ParamType): GoFunc => ({
  params,
  call,
  variadic,
});

export class Functions implements FunctionTable {
  constructor(
    private readonly table: Map<string, GoFunc>,
    private readonly refused: Map<string, string>,
  ) {}
  has(name: string): boolean {
    return this.table.has(name);
  }
  get(name: string): GoFunc | undefined {
    return this.table.get(name);
  }
  refusal(name: string): string | undefined {
    const why = this.refused.get(name);
    return why === undefined
      ? undefined
      : `function "${name}" (slim-sprig) is not supported by flotilla's ResourceSet templates: ${why}`;
  }
}
