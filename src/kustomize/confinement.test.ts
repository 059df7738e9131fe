import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildKustomization } from "./index.js";
import { confinedRealpath } from "../util/confined-path.js";
import { LoadRestrictionError } from "./errors.js";
import { makeWorkDir } from "../util/work-dir.js";

// Two "artifacts" side by side, as the controller unpacks them: ours and another tenant's.
let base: string;
let ours: string;
let theirs: string;
const write = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};
const cm = (name: string, data = "x: secret-of-theirs") =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  ${data}\n`;
const kustomization = (lines: string) => `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n${lines}\n`;
const refusal = (dir: string, confineTo?: string) =>
  buildKustomization(dir, { confineTo }).then(
    (out) => out,
    (e: Error) => e,
  );

beforeEach(() => {
  base = realpathSync(makeWorkDir("flotilla-confine-"));
  ours = join(base, "ours");
  theirs = join(base, "theirs");
  write(join(theirs, "app/kustomization.yaml"), kustomization("resources: [cm.yaml]"));
  write(join(theirs, "app/cm.yaml"), cm("theirs"));
  write(join(ours, "common/cm.yaml"), cm("common", "a: '1'"));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("a build confined to its artifact root", () => {
  it("refuses a relative base outside the artifact, naming the entry and the path, reading nothing of it", async () => {
    write(join(ours, "app/kustomization.yaml"), kustomization("resources: [../../theirs/app]"));
    const err = await refusal(join(ours, "app"), ours);
    expect(err).toBeInstanceOf(LoadRestrictionError);
    expect((err as Error).message).toContain('resources entry "../../theirs/app" leads outside the source artifact');
    expect((err as Error).message).toContain(`security; file '${join(theirs, "app")}' is not in or below '${ours}'`);
    expect((err as Error).message).not.toContain("secret-of-theirs");
  });

  it("keeps kustomize's behaviour unconfined (the CLI): a local base anywhere is built", async () => {
    write(join(ours, "app/kustomization.yaml"), kustomization("resources: [../../theirs/app]"));
    expect(await refusal(join(ours, "app"))).toContain("name: theirs");
  });

  it("refuses a symlinked base inside the artifact that points at another artifact", async () => {
    symlinkSync(join(theirs, "app"), join(ours, "evil"));
    write(join(ours, "app/kustomization.yaml"), kustomization("resources: [../evil]"));
    const err = await refusal(join(ours, "app"), ours);
    expect(err).toBeInstanceOf(LoadRestrictionError);
    expect((err as Error).message).toMatch(/resources entry "\.\.\/evil" leads outside the source artifact/);
  });

  it("refuses symlinked files of every kind of entry: resources, patches, generator files, components, crds", async () => {
    symlinkSync(join(theirs, "app/cm.yaml"), join(ours, "app-link.yaml"));
    const cases = [
      ["resources", "resources: [../app-link.yaml]"],
      ["patches", "resources: [../common/cm.yaml]\npatches: [{path: ../app-link.yaml}]"],
      ["files", "configMapGenerator: [{name: g, files: [../app-link.yaml]}]"],
      ["envs", "configMapGenerator: [{name: g, envs: [../app-link.yaml]}]"],
      ["crds", "crds: [../app-link.yaml]"],
      ["components", "components: [../theirs-link]"],
    ];
    symlinkSync(join(theirs, "app"), join(ours, "theirs-link"));
    for (const [field, body] of cases) {
      write(join(ours, "app/kustomization.yaml"), kustomization(body!));
      const err = await refusal(join(ours, "app"), ours);
      expect(err, field).toBeInstanceOf(LoadRestrictionError);
      expect((err as Error).message, field).toContain(`${field} entry`);
    }
  });

  it("refuses a link leading out even when its target does not exist (no oracle for what exists outside)", async () => {
    symlinkSync(join(theirs, "no-such-dir"), join(ours, "dangling"));
    write(join(ours, "app/kustomization.yaml"), kustomization("resources: [../dangling/x.yaml]"));
    expect(await refusal(join(ours, "app"), ours)).toBeInstanceOf(LoadRestrictionError);
    write(join(ours, "app/kustomization.yaml"), kustomization("resources: [../../no-such-artifact]"));
    expect(await refusal(join(ours, "app"), ours)).toBeInstanceOf(LoadRestrictionError);
  });

  it("refuses a kustomization file that is itself a link out of the artifact", async () => {
    mkdirSync(join(ours, "app"), { recursive: true });
    symlinkSync(join(theirs, "app/kustomization.yaml"), join(ours, "app/kustomization.yaml"));
    const err = await refusal(join(ours, "app"), ours);
    expect(err).toBeInstanceOf(LoadRestrictionError);
    expect((err as Error).message).toContain("kustomization file");
  });

  it("allows a symlink that stays inside the artifact, and files outside the kustomization but inside the artifact (Flux)", async () => {
    symlinkSync("common", join(ours, "shared"));
    write(join(ours, "app/kustomization.yaml"), kustomization("resources: [../shared/cm.yaml]"));
    expect(await refusal(join(ours, "app"), ours)).toContain("name: common");
  });

  it("follows a chain of links as the kernel does, refusing one that climbs out through a link's '..'", () => {
    // deep/er/up -> ../.. (the artifact root); up/b -> ../../.. looks inside lexically from deep/er/up
    // but climbs from the root itself.
    mkdirSync(join(ours, "deep/er"), { recursive: true });
    symlinkSync("../..", join(ours, "deep/er/up"));
    symlinkSync("../../..", join(ours, "b"));
    expect(confinedRealpath(join(ours, "deep/er/up/b"), ours)).toHaveProperty("outside");
    expect(confinedRealpath(join(ours, "deep/er/up/common/cm.yaml"), ours)).toEqual({
      real: join(ours, "common/cm.yaml"),
    });
    expect(confinedRealpath(join(ours, "deep/er/up/nothing"), ours)).toEqual({ missing: true });
  });
});
