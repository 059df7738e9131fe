// The artifact verbs' flags and words, without a registry: flux's checks in flux's order and words, what
// flotilla refuses by name (cloud --provider, token --creds, --resolve-symlinks, --debug), flux's -o
// shapes, list's tag order and filters, and --ignore-paths replacing (not adding to) the defaults.
import { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { FLUX_DEFAULT_IGNORE_PATHS } from "../../../sources/oci/flux-artifact.js";
import { main } from "../../main.js";
import { ignorePathsOf, withIgnoreFlags } from "./artifact-content.js";
import { listedTags } from "./list-artifacts.js";
import { annotationsOf, pushInfo } from "./push-artifact.js";

/** Runs flotilla in-process; returns the exit code and what went to stderr. */
async function flotilla(...args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = "";
  const spy = vi.spyOn(process.stderr, "write").mockImplementation((s: string | Uint8Array) => {
    stderr += String(s);
    return true;
  });
  try {
    return { code: await main(["node", "flotilla", ...args]), stderr };
  } finally {
    spy.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

const URL = "oci://127.0.0.1:5000/fleet/apps:v1";

describe("artifact verbs check their arguments as flux does", () => {
  it.each([
    [["push", "artifact"], "artifact URL is required"],
    [["push", "artifact", URL], "--source is required"],
    [["push", "artifact", URL, "--source=s"], "--revision is required"],
    [["push", "artifact", URL, "--source=s", "--revision=r"], 'invalid path ""'],
    [
      ["push", "artifact", "127.0.0.1:5000/fleet/apps:v1", "--source=s", "--revision=r", "-f", "."],
      "URL must be in format 'oci://<domain>/<org>/<repo>'",
    ],
    [
      ["push", "artifact", URL, "--source=s", "--revision=r", "-f", "/no/such/dir"],
      "invalid path '/no/such/dir', must point to an existing directory or file: stat /no/such/dir: no such file or directory",
    ],
    [
      ["push", "artifact", URL, "--source=s", "--revision=r", "-f", ".", "-a", "a=b=c"],
      "invalid annotation a=b=c, must be in the format key=value",
    ],
    [["pull", "artifact"], "artifact URL is required"],
    [["pull", "artifact", URL], "output path cannot be empty"],
    [
      ["pull", "artifact", URL, "-o", "/no/such/dir"],
      'invalid output path "/no/such/dir": stat /no/such/dir: no such file or directory',
    ],
    [["tag", "artifact"], "artifact name is required"],
    [["tag", "artifact", URL], "--tag is required"],
    [["list", "artifacts"], "artifact repository URL is required"],
    [["diff", "artifact"], "artifact URL is required"],
    [["diff", "artifact", URL], 'invalid path ""'],
    [
      ["diff", "artifact", URL, "--path", "/no/such/dir"],
      "invalid path '/no/such/dir', must point to an existing directory or file",
    ],
    [["build", "artifact"], 'invalid path ""'],
    [
      ["build", "artifact", "-p", "/no/such/dir"],
      "invalid path '/no/such/dir', must point to an existing directory or file",
    ],
  ])("flotilla %j", async (args, message) => {
    const r = await flotilla(...args);
    expect(r.stderr).toBe(`✗ ${message}\n`);
    expect(r.code).toBe(1);
  });
});

describe("what flotilla does not implement is refused by name, never ignored", () => {
  it.each([
    [
      ["push", "artifact", URL, "--source=s", "--revision=r", "-f", ".", "--provider", "aws"],
      "--provider aws (a cloud registry login) is not supported by flotilla",
    ],
    [
      ["pull", "artifact", URL, "-o", ".", "--provider", "gcp"],
      "--provider gcp (a cloud registry login) is not supported by flotilla",
    ],
    [
      ["list", "artifacts", URL, "--creds", "just-a-token"],
      "--creds without a ':' (a registry token) is not supported by flotilla",
    ],
    [
      ["push", "artifact", URL, "--source=s", "--revision=r", "-f", ".", "--resolve-symlinks"],
      "--resolve-symlinks is not supported by flotilla",
    ],
    [["build", "artifact", "-p", ".", "--resolve-symlinks"], "--resolve-symlinks is not supported by flotilla"],
    [
      ["push", "artifact", URL, "--source=s", "--revision=r", "-f", ".", "--debug"],
      "--debug is not supported by flotilla",
    ],
    [
      ["tag", "artifact", URL, "--tag", "x", "--provider", "quay"],
      `invalid argument "quay" for "--provider" flag: source OCI provider 'quay' is not supported, must be one of: generic, aws, azure, gcp`,
    ],
    [
      ["push", "artifact", URL, "--source=s", "--revision=r", "-f", ".", "-o", "table"],
      '--output must be json or yaml, got "table"',
    ],
    [
      [
        "push",
        "artifact",
        "oci://127.0.0.1:5000/fleet/apps@sha256:" + "a".repeat(64),
        "--source=s",
        "--revision=r",
        "-f",
        ".",
      ],
      "cannot push to a digest",
    ],
  ])("flotilla %j", async (args, message) => {
    const r = await flotilla(...args);
    expect(r.stderr.startsWith(`✗ ${message}`), r.stderr).toBe(true);
    expect(r.stderr.split("\n").length).toBe(2); // one line
    expect(r.code).toBe(1);
  });

  it("flux's tag artifact has no --insecure-registry, and neither has flotilla's", async () => {
    const r = await flotilla("tag", "artifact", URL, "--tag", "x", "--insecure-registry");
    expect(r.stderr).toContain("unknown option '--insecure-registry'");
    expect(r.code).toBe(1);
  });
});

describe("push artifact -o prints flux's struct", () => {
  const digest = `sha256:${"b".repeat(64)}`;
  it("as indented JSON with a trailing newline, keys in flux's order", () => {
    expect(pushInfo("127.0.0.1:5000/fleet/apps", "v1", digest, "json")).toBe(
      `{\n  "url": "oci://127.0.0.1:5000/fleet/apps@${digest}",\n  "repository": "127.0.0.1:5000/fleet/apps",\n  "tag": "v1",\n  "digest": "${digest}"\n}\n`,
    );
  });
  it("as sigs.k8s.io/yaml, keys sorted", () => {
    expect(pushInfo("127.0.0.1:5000/fleet/apps", "v1", digest, "yaml")).toBe(
      `digest: ${digest}\nrepository: 127.0.0.1:5000/fleet/apps\ntag: v1\nurl: oci://127.0.0.1:5000/fleet/apps@${digest}\n`,
    );
  });
  it("annotations: repeatable key=value, the last value of a key wins", () => {
    expect(annotationsOf(["a=1", "b=x,y", "a=2"])).toEqual({ a: "2", b: "x,y" });
  });
});

describe("list artifacts orders and filters tags as fluxcd/pkg/oci List", () => {
  const tags = ["1.0.0", "2.0.0", "latest", "1.10.0", "sha256-abc.sig", "sha256-abc.att", "v2.1.0-rc.1", "dev"];
  it("in reverse string order, cosign's .sig/.att/.sbom tags left out", () => {
    expect(listedTags(tags)).toEqual(["v2.1.0-rc.1", "latest", "dev", "2.0.0", "1.10.0", "1.0.0"]);
  });
  it("--filter-semver keeps versions in the range (not a prerelease unless asked)", () => {
    expect(listedTags(tags, ">=1.5.0")).toEqual(["2.0.0", "1.10.0"]);
  });
  it("--filter-regex keeps tags the expression matches anywhere", () => {
    expect(listedTags(tags, undefined, "^1\\.")).toEqual(["1.10.0", "1.0.0"]);
    expect(() => listedTags(tags, undefined, "(")).toThrow(/regex '\(' parse error/);
  });
});

describe("--ignore-paths and --add-ignore-paths", () => {
  const parse = (...args: string[]) => {
    const cmd = withIgnoreFlags(new Command("x").exitOverride(), false);
    cmd.parse(args, { from: "user" });
    return ignorePathsOf(cmd.opts());
  };
  it("default to flux's (VCS files and binary extensions)", () => expect(parse()).toEqual(FLUX_DEFAULT_IGNORE_PATHS));
  it("--ignore-paths replaces the defaults; each use and comma adds", () =>
    expect(parse("--ignore-paths", "a/,b", "--ignore-paths", "c")).toEqual(["a/", "b", "c"]));
  it("--add-ignore-paths appends to what is in effect", () =>
    expect(parse("--add-ignore-paths", "*.md")).toEqual([...FLUX_DEFAULT_IGNORE_PATHS, "*.md"]));
});
