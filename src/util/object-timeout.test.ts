import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_MAX_OBJECT_TIMEOUT_MS, objectTimeout, setMaxObjectTimeout } from "./object-timeout.js";

describe("per-object timeout under --max-object-timeout", () => {
  afterEach(() => setMaxObjectTimeout(DEFAULT_MAX_OBJECT_TIMEOUT_MS));

  it("keeps a timeout within the cap, and the fallback when none is given, as written", () => {
    expect(objectTimeout("2m", "60s")).toEqual({ ms: 120_000, text: "2m" });
    expect(objectTimeout(undefined, "5m0s")).toEqual({ ms: 300_000, text: "5m0s" });
  });

  it("caps a longer one and says so, naming the field and the flag", () => {
    setMaxObjectTimeout(60_000);
    expect(objectTimeout("10h", "60s")).toEqual({
      ms: 60_000,
      text: "1m0s",
      capped: "spec.timeout 10h capped to 1m0s by --max-object-timeout",
    });
    expect(objectTimeout("5m", "5m", "the 'install' action's timeout").capped).toBe(
      "the 'install' action's timeout 5m capped to 1m0s by --max-object-timeout",
    );
  });

  it("caps at 10 minutes by default", () => {
    expect(objectTimeout("10m", "60s").capped).toBeUndefined();
    expect(objectTimeout("11m", "60s").ms).toBe(600_000);
  });
});
