// The refusals of a --source flag: each names the flag and what to write instead.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PlanInputError } from "./errors.js";
import { parseSourceFlag } from "./source-overrides.js";

const dir = mkdtempSync(join(tmpdir(), "source-flag-"));
const file = join(dir, "kustomization.yaml");
writeFileSync(file, "resources: []\n");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a --source flag", () => {
  it("names a source and the directory standing in for its artifact (kept as an absolute path)", () => {
    expect(parseSourceFlag(`OCIRepository/flux-system/manifests=${dir}`)).toEqual({
      kind: "OCIRepository",
      namespace: "flux-system",
      name: "manifests",
      dir,
    });
    expect(parseSourceFlag("GitRepository/flux-system/platform")).toEqual({
      kind: "GitRepository",
      namespace: "flux-system",
      name: "platform",
    });
  });

  it("refuses a reference that is not Kind/namespace/name, with an example", () => {
    for (const flag of ["platform=.", "GitRepository/platform=.", "GitRepository//platform=."])
      expect(() => parseSourceFlag(flag)).toThrow(
        new PlanInputError(
          `--source ${flag}: expected <Kind>/<namespace>/<name>=<dir>, e.g. GitRepository/flux-system/platform=.`,
        ),
      );
  });

  it("refuses a kind whose files a plan cannot replace, naming those it can", () => {
    expect(() => parseSourceFlag(`HelmRepository/flux-system/charts=${dir}`)).toThrow(
      "--source HelmRepository/flux-system/charts=" +
        `${dir}: kind HelmRepository is not a source whose files a plan can replace (GitRepository, OCIRepository, Bucket)`,
    );
  });

  it("refuses an empty directory after '=' and a path that is not a directory", () => {
    expect(() => parseSourceFlag("GitRepository/ns/app=")).toThrow(
      "--source GitRepository/ns/app=: the directory after '=' is empty",
    );
    expect(() => parseSourceFlag(`GitRepository/ns/app=${file}`)).toThrow(
      `--source GitRepository/ns/app=${file}: ${file} is not a directory`,
    );
    expect(() => parseSourceFlag(`GitRepository/ns/app=${join(dir, "missing")}`)).toThrow("is not a directory");
  });
});
