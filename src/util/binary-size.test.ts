import { describe, expect, it } from "vitest";
import { formatBinarySize } from "./binary-size.js";

describe("formatBinarySize", () => {
  it("writes nothing as the caller says (flux '-', the operator '')", () => {
    expect(formatBinarySize(0, "-")).toBe("-");
    expect(formatBinarySize(0, "")).toBe("");
  });
  it("writes bytes below 1 KiB as bytes, then one decimal in binary units", () => {
    expect(formatBinarySize(1023, "-")).toBe("1023 B");
    expect(formatBinarySize(1024, "-")).toBe("1.0 KiB");
    expect(formatBinarySize(1536, "-")).toBe("1.5 KiB");
    expect(formatBinarySize(5 * 1024 * 1024, "-")).toBe("5.0 MiB");
    expect(formatBinarySize(3 * 1024 ** 3, "-")).toBe("3.0 GiB");
  });
});
