// helm's --set parser (helm.sh/helm/v4 pkg/strvals, ParseInto / ParseIntoString), which Flux runs on
// `<targetPath>=<value>` for a valuesFrom entry with a targetPath: `a.b[0].c` paths, `\` escapes,
// `{x,y}` lists, `,` separating assignments, values typed as --set types them (true/false/null,
// int64 without a leading 0) unless parsed as strings. Errors carry helm's wording.
type Values = Record<string, unknown>;

const MAX_INDEX = 65536;
const MAX_NESTED_NAME_LEVEL = 30;

export class StrvalsError extends Error {}

const EOF = Symbol("EOF");
const NOT_LIST = Symbol("not a list");

class Scanner {
  private pos = 0;
  constructor(private readonly runes: string[]) {}
  read(): string | undefined {
    return this.runes[this.pos++];
  }
  unread(): void {
    this.pos--;
  }
  /** Runes up to one of `stop` (consumed), `\` escaping the next; `last` undefined at the end. */
  until(stop: string): { v: string; last?: string } {
    let v = "";
    for (;;) {
      const r = this.read();
      if (r === undefined) return { v };
      if (stop.includes(r)) return { v, last: r };
      if (r === "\\") {
        const next = this.read();
        if (next === undefined) return { v };
        v += next;
      } else v += r;
    }
  }
}

/** strvals.typedVal */
function typedVal(val: string, asString: boolean): unknown {
  if (asString) return val;
  const lower = val.toLowerCase();
  if (lower === "true") return true;
  if (lower === "false") return false;
  if (lower === "null") return null;
  if (val === "0") return 0;
  if (val !== "" && val[0] !== "0" && /^[-+]?[0-9]+$/.test(val)) {
    const n = BigInt(val);
    if (n >= -(2n ** 63n) && n < 2n ** 63n) return Number(n);
  }
  return val;
}

const set = (data: Values, key: string, val: unknown) => {
  if (key !== "") data[key] = val;
};

function setIndex(list: unknown[], index: number, val: unknown): unknown[] {
  if (index < 0) throw new StrvalsError(`negative ${index} index not allowed`);
  if (index > MAX_INDEX)
    throw new StrvalsError(`index of ${index} is greater than maximum supported index of ${MAX_INDEX}`);
  while (list.length <= index) list.push(null);
  list[index] = val;
  return list;
}

const isMap = (v: unknown): v is Values => typeof v === "object" && v !== null && !Array.isArray(v);

class Parser {
  constructor(
    private readonly sc: Scanner,
    private readonly asString: boolean,
  ) {}

  parse(data: Values): void {
    for (;;) if (this.key(data, 0) === EOF) return;
  }

  private keyIndex(): number {
    const { v, last } = this.sc.until("]");
    if (last === undefined) throw new StrvalsError("error parsing index: EOF");
    if (!/^[-+]?[0-9]+$/.test(v))
      throw new StrvalsError(`error parsing index: strconv.Atoi: parsing "${v}": invalid syntax`);
    return Number(v);
  }

  /** One assignment into `data`; EOF where helm's returns io.EOF (the input ended before a value). */
  private key(data: Values, level: number): typeof EOF | undefined {
    const { v: k, last } = this.sc.until("=[,.");
    if (last === undefined) {
      if (k.length === 0) return EOF;
      throw new StrvalsError(`key "${k}" has no value`);
    }
    if (last === "[") {
      const i = this.keyIndex();
      const existing = data[k];
      if (existing !== undefined && !Array.isArray(existing))
        throw new StrvalsError(`unable to parse key: "${k}" is not a list`);
      const list = this.listItem(existing ?? [], i, level);
      set(data, k, list.list);
      return list.eof;
    }
    if (last === "=") {
      const vl = this.valList();
      if (Array.isArray(vl)) {
        set(data, k, vl);
        return undefined;
      }
      if (vl === EOF) {
        set(data, k, "");
        return EOF;
      }
      set(data, k, typedVal(this.sc.until(",").v, this.asString));
      return undefined;
    }
    if (last === ",") {
      set(data, k, "");
      throw new StrvalsError(`key "${k}" has no value (cannot end with ,)`);
    }
    // last === "."
    if (level + 1 > MAX_NESTED_NAME_LEVEL)
      throw new StrvalsError(
        `value name nested level is greater than maximum supported nested level of ${MAX_NESTED_NAME_LEVEL}`,
      );
    const existing = data[k];
    if (existing !== undefined && !isMap(existing)) throw new StrvalsError(`unable to parse key: "${k}" is not a map`);
    const inner: Values = existing ?? {};
    const e = this.key(inner, level + 1);
    if (e === undefined && Object.keys(inner).length === 0) throw new StrvalsError(`key map "${k}" has no value`);
    if (Object.keys(inner).length !== 0) set(data, k, inner);
    return e;
  }

  private listItem(list: unknown[], i: number, level: number): { list: unknown[]; eof?: typeof EOF } {
    if (i < 0) throw new StrvalsError(`negative ${i} index not allowed`);
    const { v: k, last } = this.sc.until("[.=");
    if (k.length > 0) throw new StrvalsError(`unexpected data at end of array index: "${k}"`);
    if (last === undefined) return { list, eof: EOF };
    if (last === "=") {
      const vl = this.valList();
      if (Array.isArray(vl)) return { list: setIndex(list, i, vl) };
      if (vl === EOF) return { list: setIndex(list, i, "") };
      return { list: setIndex(list, i, typedVal(this.sc.until(",").v, this.asString)) };
    }
    if (last === "[") {
      const next = this.keyIndex();
      const existing = list[i];
      if (existing !== undefined && existing !== null && !Array.isArray(existing))
        throw new StrvalsError(`unable to parse key: index ${i} is not a list`);
      const inner = this.listItem((existing as unknown[] | null) ?? [], next, level);
      return { list: setIndex(list, i, inner.list), eof: inner.eof };
    }
    // last === "." — as helm: an item that is not a map becomes one; the index is set only on success.
    let inner: Values = {};
    if (list.length > i) {
      if (isMap(list[i])) inner = list[i] as Values;
      else list[i] = inner;
    }
    const e = this.key(inner, level);
    if (e !== undefined) return { list, eof: e };
    return { list: setIndex(list, i, inner) };
  }

  /** `{a,b}`: a list; NOT_LIST when the value does not start with `{`. */
  private valList(): unknown[] | typeof EOF | typeof NOT_LIST {
    const r = this.sc.read();
    if (r === undefined) return EOF;
    if (r !== "{") {
      this.sc.unread();
      return NOT_LIST;
    }
    const list: unknown[] = [];
    for (;;) {
      const { v, last } = this.sc.until(",}");
      if (last === undefined) throw new StrvalsError("list must terminate with '}'");
      list.push(typedVal(v, this.asString));
      if (last === "}") {
        const after = this.sc.read();
        if (after !== undefined && after !== ",") this.sc.unread();
        return list;
      }
    }
  }
}

/** strvals.ParseInto (asString false) / ParseIntoString (asString true): assignments into `dest`. */
export function parseInto(s: string, dest: Values, asString = false): void {
  new Parser(new Scanner([...s]), asString).parse(dest);
}

/**
 * fluxcd/pkg chartutil.ReplacePathValue: a value wholly in single or double quotes is set as a
 * string (quotes trimmed), anything else typed as --set types it.
 */
export function replacePathValue(values: Values, path: string, value: string): void {
  const quoted = (q: string) => value.startsWith(q) && value.endsWith(q);
  if (quoted("'") || quoted('"')) {
    const trimmed = value.replace(/^['"]+/, "").replace(/['"]+$/, "");
    return parseInto(`${path}=${trimmed}`, values, true);
  }
  parseInto(`${path}=${value}`, values);
}

/** chartutil.ReplacePathLiteralValue: the value verbatim (helm --set-literal), the path still escape-aware. */
export function replacePathLiteralValue(values: Values, path: string, value: string): void {
  const escaped = value.replace(/[\\,[\]{}]/g, (c) => `\\${c}`);
  parseInto(`${path}=${escaped}`, values, true);
}
