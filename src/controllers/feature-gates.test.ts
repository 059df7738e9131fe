import { describe, expect, it } from "vitest";
import { parseFeatureGates } from "./feature-gates.js";

describe("--feature-gates", () => {
  it("defaults StrictPostBuildSubstitutions to on, as Flux 2.9, and DriftWatch to on", () => {
    expect(parseFeatureGates(undefined)).toEqual({ StrictPostBuildSubstitutions: true, DriftWatch: true });
  });
  it("turns DriftWatch off alone", () => {
    expect(parseFeatureGates("DriftWatch=false")).toEqual({ StrictPostBuildSubstitutions: true, DriftWatch: false });
  });
  it("turns a gate off", () => {
    expect(parseFeatureGates("StrictPostBuildSubstitutions=false").StrictPostBuildSubstitutions).toBe(false);
  });
  it("names an unknown gate and lists the known ones", () => {
    expect(() => parseFeatureGates("StrictPostBuildSubstitution=true")).toThrow(
      'unknown feature gate "StrictPostBuildSubstitution" (known: StrictPostBuildSubstitutions, DriftWatch)',
    );
  });
  it("refuses a value that is not true or false", () => {
    expect(() => parseFeatureGates("StrictPostBuildSubstitutions=yes")).toThrow(
      "must be StrictPostBuildSubstitutions=true",
    );
  });
});
