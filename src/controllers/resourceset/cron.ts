// Cron expressions as robfig/cron v3 parses them for the Flux Operator's schedules (internal/schedule):
// five fields (minute hour day-of-month month day-of-week) or a descriptor (@yearly … @hourly,
// @every <duration>), in a time zone (CRON_TZ, default UTC). Next() walks the wall clock of that zone
// field by field as robfig's SpecSchedule.Next does; day-of-month and day-of-week are OR'd unless one
// of them is `*`/`?`. Messages are robfig's, so a bad schedule reads as the operator writes it.
import { parseDuration } from "../../util/duration.js";

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];
const FIELDS: Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: Object.fromEntries(MONTHS.map((m, i) => [m, i + 1])) },
  { min: 0, max: 6, names: Object.fromEntries(DAYS.map((d, i) => [d, i])) },
];
const DESCRIPTORS: Record<string, string> = {
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
  "@monthly": "0 0 1 * *",
  "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@hourly": "0 * * * *",
};

export interface CronSchedule {
  /** The first activation strictly after `t` (ms since the epoch). */
  next(t: number): number;
}

const goInt = (s: string) => {
  if (!/^[+-]?\d+$/.test(s))
    throw new Error(`failed to parse int from ${s}: strconv.Atoi: parsing "${s}": invalid syntax`);
  return Number(s);
};

function parseField(expr: string, b: Bounds): { bits: Set<number>; star: boolean } {
  const bits = new Set<number>();
  let star = false;
  for (const part of expr.split(",")) {
    const [range, stepText, ...more] = part.split("/");
    if (more.length) throw new Error(`too many slashes: ${part}`);
    const ends = range!.split("-");
    let start: number;
    let end: number;
    let isStar = false;
    if (ends[0] === "*" || ends[0] === "?") {
      [start, end, isStar] = [b.min, b.max, true];
    } else {
      const value = (s: string) => b.names?.[s.toLowerCase()] ?? goInt(s);
      start = value(ends[0]!);
      if (ends.length === 1) end = start;
      else if (ends.length === 2) end = value(ends[1]!);
      else throw new Error(`too many hyphens: ${range}`);
    }
    let step = 1;
    if (stepText !== undefined) {
      step = goInt(stepText);
      if (ends.length === 1 && !isStar) end = b.max; // "N/step" means N-max
      if (step > 1) isStar = false;
    }
    if (start < b.min) throw new Error(`beginning of range (${start}) below minimum (${b.min}): ${part}`);
    if (end > b.max) throw new Error(`end of range (${end}) above maximum (${b.max}): ${part}`);
    if (start > end) throw new Error(`beginning of range (${start}) beyond end of range (${end}): ${part}`);
    if (step === 0) throw new Error(`step of range should be a positive number: ${part}`);
    for (let v = start; v <= end; v += step) bits.add(v);
    star ||= isStar;
  }
  return { bits, star };
}

/** The wall clock of `zone` at instant `t`, as a Date whose UTC fields are that wall clock. */
function wallOf(t: number, fmt: Intl.DateTimeFormat): Date {
  const p = Object.fromEntries(fmt.formatToParts(new Date(t)).map((x) => [x.type, x.value]));
  return new Date(Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour! % 24, +p.minute!, +p.second!));
}
/** The instant whose wall clock in the zone is `wall` (the later offset's reading across a DST gap). */
function instantOf(wall: Date, fmt: Intl.DateTimeFormat): number {
  let t = wall.getTime();
  for (let i = 0; i < 3; i++) t = wall.getTime() - (wallOf(t, fmt).getTime() - t);
  return t;
}

export function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
  } catch {
    throw new Error(`provided bad location ${timeZone}: unknown time zone ${timeZone}`);
  }
}

/** robfig's Parse with the operator's parser options; `timeZone` empty means UTC. */
export function parseCron(spec: string, timeZone = ""): CronSchedule {
  const fmt = zoneFormat(timeZone || "UTC");
  let text = spec.trim();
  if (text.startsWith("@every ")) {
    const delay = parseDuration(text.slice(7).trim());
    const step = Math.max(1000, Math.floor(delay / 1000) * 1000);
    return { next: (t) => Math.floor(t / 1000) * 1000 + step };
  }
  if (text.startsWith("@")) {
    if (!DESCRIPTORS[text]) throw new Error(`unrecognized descriptor: ${text}`);
    text = DESCRIPTORS[text]!;
  }
  const fields = text.split(/\s+/).filter(Boolean);
  if (fields.length !== 5) throw new Error(`expected exactly 5 fields, found ${fields.length}: [${fields.join(" ")}]`);
  const [minute, hour, dom, month, dow] = fields.map((f, i) => parseField(f, FIELDS[i]!));
  const dayMatches = (d: Date) => {
    const a = dom!.bits.has(d.getUTCDate());
    const b = dow!.bits.has(d.getUTCDay());
    return dom!.star || dow!.star ? a && b : a || b;
  };
  return {
    next(t: number): number {
      const w = wallOf(Math.floor(t / 60_000) * 60_000 + 60_000, fmt);
      const limit = w.getUTCFullYear() + 5;
      while (w.getUTCFullYear() <= limit) {
        if (!month!.bits.has(w.getUTCMonth() + 1)) {
          w.setUTCMonth(w.getUTCMonth() + 1, 1);
          w.setUTCHours(0, 0, 0, 0);
        } else if (!dayMatches(w)) {
          w.setUTCDate(w.getUTCDate() + 1);
          w.setUTCHours(0, 0, 0, 0);
        } else if (!hour!.bits.has(w.getUTCHours())) {
          w.setUTCHours(w.getUTCHours() + 1, 0, 0, 0);
        } else if (!minute!.bits.has(w.getUTCMinutes())) {
          w.setUTCMinutes(w.getUTCMinutes() + 1, 0, 0);
        } else {
          const at = instantOf(w, fmt);
          if (at > t) return at;
          w.setUTCMinutes(w.getUTCMinutes() + 1, 0, 0);
        }
      }
      return 0; // robfig's zero time: no activation within five years
    },
  };
}
