import { describe, expect, it } from "vitest";
import { imageReference } from "./install-flags.js";
import { VERSION } from "./version.js";

const defaults = { registry: "ghcr.io/flotilla-dev", version: VERSION };

describe("the controller image install and bootstrap write", () => {
  it("defaults to the image this version builds", () => {
    expect(imageReference(defaults)).toBe(`ghcr.io/flotilla-dev/flotilla:${VERSION}`);
  });

  it("is <registry>/flotilla:<version> with flux's --registry and --version (a leading v dropped)", () => {
    expect(imageReference({ registry: "127.0.0.1:5000/mirror/", version: "v1.2.3" })).toBe(
      "127.0.0.1:5000/mirror/flotilla:1.2.3",
    );
  });

  it("is --image as given, tagged or pinned by digest, over --registry and --version", () => {
    expect(imageReference({ ...defaults, image: "registry.example.com/ops/gitops:2.0" })).toBe(
      "registry.example.com/ops/gitops:2.0",
    );
    const digest = `sha256:${"a".repeat(64)}`;
    expect(imageReference({ ...defaults, image: `localhost:5000/flotilla@${digest}` })).toBe(
      `localhost:5000/flotilla@${digest}`,
    );
  });

  it("refuses an --image without tag or digest, naming the flag and the full form", () => {
    expect(() => imageReference({ ...defaults, image: "localhost:5000/flotilla" })).toThrow(
      `--image "localhost:5000/flotilla" has no tag or digest: give the full reference, e.g. localhost:5000/flotilla:${VERSION}`,
    );
  });

  it("refuses a --registry or --version that cannot form a reference", () => {
    expect(() => imageReference({ registry: "GHCR.io/Team", version: "1" })).toThrow(/^--registry "GHCR.io\/Team"/);
    expect(() => imageReference({ registry: "ghcr.io/x", version: "1.0 beta" })).toThrow(/^--version "1.0 beta"/);
  });
});
