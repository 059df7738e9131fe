import { describe, expect, it } from "vitest";
import { parseCron } from "./cron.js";
import { goDurationString, Scheduler } from "./provider-schedule.js";

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
const NOW = at("2025-01-01T12:00:00Z");

describe("cron expressions as robfig/cron parses them (the operator's schedule_test.go cases)", () => {
  it("finds the next activation in the schedule's time zone", () => {
    const next = (spec: string, tz = "") => iso(parseCron(spec, tz).next(NOW));
    expect(next("0 3 * * *")).toBe("2025-01-02T03:00:00Z");
    expect(next("0 5 * * *", "UTC")).toBe("2025-01-02T05:00:00Z");
    expect(next("0 5 * * *", "Europe/Bucharest")).toBe("2025-01-02T03:00:00Z");
    expect(next("0 5 * * *", "America/New_York")).toBe("2025-01-02T10:00:00Z");
    expect(next("0 5 * * *", "America/Sao_Paulo")).toBe("2025-01-02T08:00:00Z");
    expect(next("*/15 9-17 * * mon-fri")).toBe("2025-01-01T12:15:00Z");
    expect(next("0 0 29 2 *")).toBe("2028-02-29T00:00:00Z");
    expect(next("@weekly")).toBe("2025-01-05T00:00:00Z");
    // Day of month and day of week are OR'd when neither is a star: the 15th or a Monday.
    expect(next("0 0 15 * mon")).toBe("2025-01-06T00:00:00Z");
  });

  it("refuses what robfig refuses, with its words", () => {
    expect(() => parseCron("kljlkajs")).toThrow("expected exactly 5 fields, found 1: [kljlkajs]");
    expect(() => parseCron("0 24 * * *")).toThrow("end of range (24) above maximum (23): 24");
    expect(() => parseCron("x * * * *")).toThrow(
      'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax',
    );
    expect(() => parseCron("@sometimes")).toThrow("unrecognized descriptor: @sometimes");
    expect(() => parseCron("0 5 * * *", "Mars/Olympus")).toThrow(
      "provided bad location Mars/Olympus: unknown time zone Mars/Olympus",
    );
  });
});

describe("deployment windows (the operator's internal/schedule)", () => {
  const hourly = (window: string) => Scheduler.of([{ cron: "0 * * * *", window }], 10_000)!;

  it("runs inside a window only when the timeout's deadline still falls in it; a schedule without window always runs", () => {
    expect(Scheduler.of([{ cron: "0 * * * *" }], 10_000)!.shouldReconcile(at("2025-01-01T12:30:00Z"))).toBe(true);
    expect(hourly("1m").shouldReconcile(NOW)).toBe(true);
    expect(hourly("1m").shouldReconcile(at("2025-01-01T12:00:55Z"))).toBe(false);
    const two = Scheduler.of(
      [
        { cron: "0 * * * *", window: "1m" },
        { cron: "0 * * * *", window: "2m" },
      ],
      10_000,
    )!;
    expect(two.shouldReconcile(at("2025-01-01T12:00:55Z"))).toBe(true);
  });

  it("names the earliest next activation with its schedule, and the wait after a run", () => {
    const s = Scheduler.of([{ cron: "0 5 * * *" }, { cron: "0 3 * * *", timeZone: "UTC", window: "1h" }], 120_000)!;
    expect(s.next(NOW)).toEqual({ cron: "0 3 * * *", timeZone: "UTC", window: "1h0m0s", when: "2025-01-02T03:00:00Z" });
    // The 10m interval would land outside the 1h window: wait for the window's next opening instead.
    expect(s.afterRun(NOW, 600_000)).toEqual({
      requeueAfterMs: at("2025-01-02T03:00:00Z") - NOW,
      nextSchedule: s.next(NOW),
    });
    // Inside the window, the interval stands.
    expect(s.afterRun(at("2025-01-02T03:05:00Z"), 600_000)).toEqual({ requeueAfterMs: 600_000 });
  });

  it("finds the previous activation years back (Feb 29)", () => {
    const leap = Scheduler.of([{ cron: "0 0 29 2 *", window: "48h" }], 60_000)!;
    expect(leap.shouldReconcile(at("2024-03-01T12:00:00Z"))).toBe(true);
    expect(leap.shouldReconcile(at("2025-01-01T12:00:00Z"))).toBe(false);
  });

  it("refuses a window shorter than twice the timeout and a cron that does not parse, naming the schedule", () => {
    expect(() => Scheduler.of([{ cron: "0 0 * * *", window: "1m" }], 60_000)).toThrow(
      "failed to validate schedule[0]: a non-zero window (1m0s) must always be at least twice the timeout (1m0s)",
    );
    expect(() => Scheduler.of([{ cron: "0 0 * * *" }, { cron: "kljlkajs", timeZone: "UTC" }], 60_000)).toThrow(
      "failed to validate schedule[1]: failed to parse cron spec 'kljlkajs' with timezone 'UTC': expected exactly 5 fields",
    );
    expect(Scheduler.of([], 60_000)).toBeUndefined();
  });

  it("prints durations as Go does", () => {
    expect([0, 500, 1500, 90_000, 3_600_000, 5_400_000].map(goDurationString)).toEqual([
      "0s",
      "500ms",
      "1.5s",
      "1m30s",
      "1h0m0s",
      "1h30m0s",
    ]);
  });
});
