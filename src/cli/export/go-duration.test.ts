import { describe, expect, it } from "vitest";
import { formatGoDuration, goDurationFlag, parseGoDuration } from "./go-duration.js";

describe("Go durations as Flux's --export prints them", () => {
  it.each([
    ["1m", "1m0s"],
    ["10m", "10m0s"],
    ["1m0s", "1m0s"],
    ["90s", "1m30s"],
    ["1h", "1h0m0s"],
    ["1.5h", "1h30m0s"],
    ["2h45m30.5s", "2h45m30.5s"],
    ["500ms", "500ms"],
    ["1500ms", "1.5s"],
    ["0", "0s"],
    ["0s", "0s"],
    ["1us", "1µs"],
    ["1.25ms", "1.25ms"],
    ["100ns", "100ns"],
    ["-5m", "-5m0s"],
  ])("%s is printed as %s", (input, printed) => {
    expect(formatGoDuration(parseGoDuration(input)!)).toBe(printed);
  });

  it.each(["", "5", "m", "1x", "1m x", ".s", "1..5s"])("refuses %j as Go does", (input) => {
    expect(parseGoDuration(input)).toBeUndefined();
  });

  it("names the flag in pflag's words", () => {
    expect(() => goDurationFlag("--interval", "soon")).toThrow(
      'invalid argument "soon" for "--interval" flag: time: invalid duration "soon"',
    );
  });
});
