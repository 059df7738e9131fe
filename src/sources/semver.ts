// Semantic versions and constraints as Helm and Flux read them (Masterminds/semver v3): `>=1.0.0`,
// `1.x`, `^2`, `~1.2`, `1.2 - 1.4`, `||` alternatives, comma or space for "and". A prerelease
// version satisfies a comparator only when that comparator names a prerelease itself.

export interface Version {
  major: number;
  minor: number;
  patch: number;
  prerelease: string[];
  original: string;
}

const VERSION =
  /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/** A full major.minor.patch version (optional leading v), or undefined. */
function parseVersion(text: string): Version | undefined {
  const m = VERSION.exec(text.trim());
  if (!m) return undefined;
  return {
    major: Number(m[1]),
    minor: Number(m[2]),
    patch: Number(m[3]),
    prerelease: m[4] ? m[4].split(".") : [],
    original: text,
  };
}

function comparePre(a: string[], b: string[]): number {
  if (!a.length || !b.length) return a.length ? -1 : b.length ? 1 : 0;
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const xn = /^\d+$/.test(x);
    const yn = /^\d+$/.test(y);
    if (xn && yn && Number(x) !== Number(y)) return Number(x) - Number(y);
    if (xn !== yn) return xn ? -1 : 1;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

function compareVersions(a: Version, b: Version): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch || comparePre(a.prerelease, b.prerelease);
}

interface Bound {
  v: Version;
  inclusive: boolean;
}
interface Comparator {
  lower?: Bound;
  upper?: Bound;
  not?: { lower: Version; upper?: Version };
  hasPre: boolean;
}

const v = (major: number, minor: number, patch: number, prerelease: string[] = []): Version => ({
  major,
  minor,
  patch,
  prerelease,
  original: "",
});

/** Parses a possibly partial version with x/X/* wildcards: how many parts are fixed. */
function partial(text: string): { parts: number[]; fixed: number; pre: string[] } {
  const m = /^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(text);
  if (!m) throw new Error(`improper constraint: ${text}`);
  const raw = [m[1], m[2], m[3]];
  let fixed = 0;
  const parts = [0, 0, 0];
  for (let i = 0; i < 3; i++) {
    const p = raw[i];
    if (p === undefined || /^[xX*]$/.test(p)) break;
    parts[i] = Number(p);
    fixed++;
  }
  return { parts, fixed, pre: m[4] ? m[4].split(".") : [] };
}

/** The first version after the range a partial version covers (1.2.x → 1.3.0). */
function bump(parts: number[], fixed: number): Version | undefined {
  if (fixed === 0) return undefined;
  if (fixed === 1) return v(parts[0]! + 1, 0, 0);
  if (fixed === 2) return v(parts[0]!, parts[1]! + 1, 0);
  return v(parts[0]!, parts[1]!, parts[2]! + 1);
}

function comparator(op: string, text: string): Comparator {
  const { parts, fixed, pre } = partial(text);
  const base = v(parts[0]!, parts[1]!, parts[2]!, pre);
  const hasPre = pre.length > 0;
  const next = bump(parts, fixed);
  switch (op) {
    case "":
    case "=":
      if (fixed === 3) return { lower: { v: base, inclusive: true }, upper: { v: base, inclusive: true }, hasPre };
      return { lower: { v: base, inclusive: true }, upper: next && { v: next, inclusive: false }, hasPre };
    case "!=":
      return { not: { lower: base, upper: fixed === 3 ? undefined : next }, hasPre };
    case ">":
      return fixed === 3
        ? { lower: { v: base, inclusive: false }, hasPre }
        : next
          ? { lower: { v: next, inclusive: true }, hasPre }
          : { hasPre, upper: { v: v(0, 0, 0), inclusive: false } };
    case ">=":
    case "=>":
      return { lower: { v: base, inclusive: true }, hasPre };
    case "<":
      return { upper: { v: base, inclusive: false }, hasPre };
    case "<=":
    case "=<":
      return fixed === 3
        ? { upper: { v: base, inclusive: true }, hasPre }
        : { upper: next && { v: next, inclusive: false }, hasPre };
    case "~":
    case "~>": {
      const upper = fixed <= 1 ? v(parts[0]! + 1, 0, 0) : v(parts[0]!, parts[1]! + 1, 0);
      return {
        lower: { v: base, inclusive: true },
        upper: fixed === 0 ? undefined : { v: upper, inclusive: false },
        hasPre,
      };
    }
    case "^": {
      let upper: Version | undefined;
      if (fixed === 0) upper = undefined;
      else if (parts[0]! > 0 || fixed === 1) upper = v(parts[0]! + 1, 0, 0);
      else if (parts[1]! > 0 || fixed === 2) upper = v(0, parts[1]! + 1, 0);
      else upper = v(0, 0, parts[2]! + 1);
      return { lower: { v: base, inclusive: true }, upper: upper && { v: upper, inclusive: false }, hasPre };
    }
    default:
      throw new Error(`improper constraint operator: ${op}`);
  }
}

function satisfies(version: Version, c: Comparator): boolean {
  if (version.prerelease.length && !c.hasPre) return false;
  if (c.not) {
    const inRange =
      compareVersions(version, c.not.lower) >= 0 &&
      (c.not.upper ? compareVersions(version, c.not.upper) < 0 : compareVersions(version, c.not.lower) === 0);
    return !inRange;
  }
  if (c.lower) {
    const d = compareVersions(version, c.lower.v);
    if (d < 0 || (d === 0 && !c.lower.inclusive)) return false;
  }
  if (c.upper) {
    const d = compareVersions(version, c.upper.v);
    if (d > 0 || (d === 0 && !c.upper.inclusive)) return false;
  }
  return true;
}

export type Constraint = Comparator[][];

function parseConstraint(text: string): Constraint {
  return text.split("||").map((group) => {
    const g = group.trim().replace(/(\S+)\s+-\s+(\S+)/g, ">=$1 <=$2");
    const tokens = g.split(/[\s,]+/).filter(Boolean);
    const out: Comparator[] = [];
    for (let i = 0; i < tokens.length; i++) {
      let tok = tokens[i]!;
      // An operator written apart from its version: ">= 1.2".
      if (/^(=|!=|>|<|>=|=>|<=|=<|~|~>|\^)$/.test(tok) && tokens[i + 1]) tok += tokens[++i];
      const m = /^(!=|>=|=>|<=|=<|~>|>|<|=|~|\^)?(.*)$/.exec(tok)!;
      out.push(comparator(m[1] ?? "", m[2]!));
    }
    return out.length ? out : [comparator("", "*")];
  });
}

function satisfiesConstraint(version: Version, constraint: Constraint): boolean {
  return constraint.some((group) => group.every((c) => satisfies(version, c)));
}

/** The highest of `candidates` (strings) satisfying the constraint, or undefined. */
export function maxSatisfying(candidates: string[], constraintText: string): string | undefined {
  const constraint = parseConstraint(constraintText);
  let best: Version | undefined;
  for (const c of candidates) {
    const version = parseVersion(c);
    if (version && satisfiesConstraint(version, constraint) && (!best || compareVersions(version, best) > 0))
      best = version;
  }
  return best?.original;
}

/** Replaces the version's build metadata (Masterminds' SetMetadata): 1.2.3+old → 1.2.3+<meta>. */
export function withMetadata(version: string, metadata: string): string {
  if (!/^[0-9A-Za-z.-]+$/.test(metadata)) throw new Error(`invalid build metadata '${metadata}'`);
  return `${version.replace(/\+.*$/, "")}+${metadata}`;
}

/** Every one of `candidates` satisfying the constraint, newest first (stable for equal versions). */
export function allSatisfying(candidates: string[], constraintText: string): string[] {
  const constraint = parseConstraint(constraintText);
  const found: Version[] = [];
  for (const c of candidates) {
    const version = parseVersion(c);
    if (version && satisfiesConstraint(version, constraint)) found.push(version);
  }
  return found.sort((a, b) => compareVersions(b, a)).map((x) => x.original);
}
