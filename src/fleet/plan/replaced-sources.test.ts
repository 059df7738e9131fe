import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { KubeClient } from "../../kube/client.js";
import { PlanInputError } from "./errors.js";
import type { ManagementState } from "./management-state.js";
import { replacedSources } from "./replaced-sources.js";

const dir = mkdtempSync(join(tmpdir(), "replaced-sources-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const state = { gitRepositories: [] } as unknown as ManagementState;

describe("the sources a plan replaces", () => {
  it("takes a --source checkout as the source's artifact, shown as given", async () => {
    const r = await replacedSources({ source: [`GitRepository/flux-system/platform=${dir}`] }, state, dir, undefined);
    expect([...r.overrides]).toEqual([["GitRepository/flux-system/platform", dir]]);
    expect(r.shown).toEqual([`GitRepository/flux-system/platform=${dir}`]);
    expect(r.notes).toEqual([]);
  });

  it("refuses a plan that replaces nothing, saying what to pass", async () => {
    await expect(replacedSources({ source: [] }, state, dir, undefined)).rejects.toThrow(
      new PlanInputError("nothing to plan: pass --source Kind/ns/name=<dir> (repeatable) or --revision <git ref>"),
    );
  });

  it("refuses a --source without a directory unless --revision says which ref to check out", async () => {
    await expect(replacedSources({ source: ["GitRepository/ns/app"] }, state, dir, undefined)).rejects.toThrow(
      "--source GitRepository/ns/app has no directory: add =<dir>, or pass --revision",
    );
  });

  it("refuses --revision without cluster access (offline): the checkout needs the repository's credentials", async () => {
    await expect(replacedSources({ source: [], revision: "main" }, state, dir, undefined)).rejects.toThrow(
      "--revision checks the repository out with its credentials from the cluster",
    );
  });

  it("refuses --revision for a GitRepository the management cluster does not have, before checking anything out", async () => {
    const client = {} as KubeClient; // never asked: the refusal comes from the state read once
    await expect(
      replacedSources({ source: ["GitRepository/ns/missing"], revision: "main" }, state, dir, client),
    ).rejects.toThrow(new PlanInputError("--revision: no GitRepository ns/missing in the management cluster"));
  });
});
