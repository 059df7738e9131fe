import { describe, expect, it } from "vitest";
import { sizeFlag } from "./flags.js";
import { UsageError } from "./errors.js";

describe("size flags", () => {
  it("take bytes or a Kubernetes quantity", () => {
    expect(sizeFlag("--artifact-max-size", "1Gi")).toBe(1024 ** 3);
    expect(sizeFlag("--artifact-max-size", "512Mi")).toBe(512 * 1024 ** 2);
    expect(sizeFlag("--artifact-max-size", "500M")).toBe(500e6);
    expect(sizeFlag("--artifact-max-size", "4096")).toBe(4096);
  });

  it.each(["", "0", "-1", "1.5Gi", "1GB", "lots"])("refuse %j, naming the flag", (value) => {
    expect(() => sizeFlag("--artifact-max-size", value)).toThrow(UsageError);
    expect(() => sizeFlag("--artifact-max-size", value)).toThrow(/^--artifact-max-size must be a positive size/);
  });
});
