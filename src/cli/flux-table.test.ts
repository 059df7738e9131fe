import { describe, expect, it } from "vitest";
import { fluxTable, truncateHex } from "./flux-table.js";

describe("fluxTable", () => {
  it("pads every cell, joins with TABs, ends data rows with a TAB and pads the header's last cell one wider", () => {
    expect(
      fluxTable(
        ["Name", "Ready"],
        [
          ["a", "True"],
          ["bbb", "False"],
        ],
      ),
    ).toBe("NAME\tREADY \n" + "a   \tTrue \t\n" + "bbb \tFalse\t\n");
  });

  it("spreads a cell with line breaks over several lines, the row's other cells blank", () => {
    expect(fluxTable(["A", "B"], [["x", "one\ntwo"]])).toBe("A\tB   \n" + "x\tone\t\n" + " \ttwo\t\n");
  });

  it("prints rows only without a header, and nothing for no rows", () => {
    expect(fluxTable(undefined, [["x", "y"]])).toBe("x\ty\t\n");
    expect(fluxTable(undefined, [])).toBe("");
  });
});

describe("truncateHex", () => {
  it("shortens SHA-1 to SHA-512 hex strings to 8 characters and leaves shorter ones", () => {
    const sha1 = "696f056df216eea4f9401adbee0ff744d4df390f";
    expect(truncateHex(`Applied revision: main@sha1:${sha1}`)).toBe("Applied revision: main@sha1:696f056d");
    expect(truncateHex(`sha256:${"a".repeat(64)}`)).toBe("sha256:aaaaaaaa");
    expect(truncateHex("deadbeef")).toBe("deadbeef");
  });
});
