// The real flux CLI (v2.9.5, built from github.com/fluxcd/flux2/v2) and flotilla's on the same
// artifacts in the real distribution registry: flux pulls what flotilla pushed and flotilla what flux
// pushed (same files, source and revision), both diff clean, `list artifacts` prints the same table and
// `create source oci --export` the same YAML, byte for byte.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { filesOf, flotillaIn, freshDir, writeApp } from "../support/oci-cli.js";
import { type OciRegistry, runFlux, startOciRegistry } from "../support/oci-registry.js";

let plain: OciRegistry;
let scratch: string;
let app: string;
let pushed: Record<string, string>;
const flotilla = flotillaIn(() => scratch);
const fresh = (name: string) => freshDir(scratch, name);

beforeAll(async () => {
  plain = await startOciRegistry();
  scratch = makeWorkDir("oci-cli-interop-");
  ({ dir: app, pushed } = writeApp(scratch));
});

afterAll(async () => {
  await plain?.stop();
});

describe("the real flux CLI reads what flotilla pushed, and the other way round", () => {
  it("flux pull artifact gets flotilla's files, source and revision", async () => {
    const url = `${plain.url}/interop/from-flotilla:v1`;
    expect(
      (
        await flotilla([
          "push",
          "artifact",
          url,
          "-f",
          app,
          "--source=https://git.example/app",
          "--revision=main@sha1:abc",
        ])
      ).code,
    ).toBe(0);
    const out = fresh("flux-pulled");
    const r = await runFlux(["pull", "artifact", url, "-o", out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("✔ source https://git.example/app\n✔ revision main@sha1:abc\n");
    expect(filesOf(out)).toEqual(pushed);
  });

  it("flotilla pull artifact gets flux's files, and flotilla's diff finds flux's push identical to the same directory", async () => {
    const url = `${plain.url}/interop/from-flux:v1`;
    const fluxPush = await runFlux([
      "push",
      "artifact",
      url,
      "--path",
      app,
      "--source=https://git.example/app",
      "--revision=v1@sha1:def",
    ]);
    expect(fluxPush.code, fluxPush.stderr).toBe(0);
    const out = fresh("flotilla-pulled");
    const r = await flotilla(["pull", "artifact", url, "-o", out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("✔ source https://git.example/app\n✔ revision v1@sha1:def\n");
    expect(filesOf(out)).toEqual(pushed);
    // Go's gzip and zlib's differ around the same tar stream: flotilla compares the streams.
    const diff = await flotilla(["diff", "artifact", url, "--path", app]);
    expect([diff.code, diff.stderr]).toEqual([0, "✔ no changes detected\n"]);
    const theirDiff = await runFlux(["diff", "artifact", url, "--path", out]);
    expect([theirDiff.code, theirDiff.stderr]).toEqual([0, "✔ no changes detected\n"]);
  });

  it("flux list artifacts prints the table flotilla prints, byte for byte", async () => {
    const url = `${plain.url}/interop/from-flotilla`;
    const ours = await flotilla(["list", "artifacts", url]);
    const theirs = await runFlux(["list", "artifacts", url]);
    expect(theirs.code, theirs.stderr).toBe(0);
    expect(ours.stdout).toBe(theirs.stdout);
  });

  it("flotilla tag artifact on flux's push keeps its digest; one whose bytes it cannot write back is refused, untagged", async () => {
    const repo = `${plain.url}/interop/tagged`;
    const push = (tag: string, source: string) =>
      runFlux(["push", "artifact", `${repo}:${tag}`, "--path", app, `--source=${source}`, "--revision=r"]);
    expect((await push("v1", "https://git.example/app")).code).toBe(0);
    const tagged = await flotilla(["tag", "artifact", `${repo}:v1`, "--tag", "latest"]);
    expect(tagged.code, tagged.stderr).toBe(0);
    // Go's encoding/json escapes '&', '<' and '>' in strings; flotilla's client would write them plain.
    expect((await push("v2", "https://git.example/app?a=1&b=2")).code).toBe(0);
    const refused = await flotilla(["tag", "artifact", `${repo}:v2`, "--tag", "stable"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("the tag would name another digest");
    const rows = (await runFlux(["list", "artifacts", repo])).stdout.split("\n").slice(1, -1);
    const digestOf = (tag: string) =>
      rows
        .find(
          (r) =>
            r.startsWith(`${plain.host}/interop/tagged:${tag}\t`) ||
            r.startsWith(`${plain.host}/interop/tagged:${tag} `),
        )
        ?.split("\t")[1]
        ?.trim();
    expect(digestOf("v1")).toMatch(/^sha256:[a-f0-9]{64}$/);
    expect(digestOf("latest")).toBe(digestOf("v1"));
    expect(digestOf("stable")).toBeUndefined();
  });

  it.each([
    ["--tag-semver=>=1.0.0", "--insecure", "--secret-ref=regcred", "--interval=10m"],
    ["--tag=6.3.5", "--layer-selector=application/vnd.cncf.helm.chart.content.v1.tar+gzip:copy", "--label=team=a"],
    [
      "--digest=sha256:" + "c".repeat(64),
      "--verify-provider=cosign",
      "--verify-secret-ref=cosign-pub",
      "--ignore-paths=*.md,docs/",
    ],
    [
      "--tag=v1",
      "--verify-provider=cosign",
      "--verify-issuer=^https://token.actions.githubusercontent.com$",
      "--fetch-timeout=90s",
    ],
    [
      "--tag=v1",
      "--cert-ref=ca",
      "--proxy-secret-ref=proxy",
      "--service-account=puller",
      "--provider=generic",
      "-n",
      "apps",
    ],
  ])("create source oci --export %s prints what flux create source oci --export prints", async (...flags) => {
    const args = ["create", "source", "oci", "apps", `--url=${plain.url}/fleet/app`, ...flags, "--export"];
    const theirs = await runFlux(args);
    expect(theirs.code, theirs.stderr).toBe(0);
    const ours = await flotilla(args);
    expect(ours.stderr).toBe(theirs.stderr);
    expect(ours.stdout).toBe(theirs.stdout);
  });
});

describe("the two CLIs say the same", () => {
  it("push and pull print flux's lines (the digests aside)", async () => {
    const url = `${plain.url}/interop/lines:v1`;
    const digestless = (s: string) => s.replace(/sha256:[a-f0-9]{64}/g, "sha256:<digest>");
    const push = ["push", "artifact", url, "--path", app, "--source=s", "--revision=r"];
    const [theirs, ours] = [await runFlux(push), await flotilla(push)];
    expect([ours.code, digestless(ours.stderr)]).toEqual([theirs.code, digestless(theirs.stderr)]);
    const out = fresh("lines");
    const pull = ["pull", "artifact", url, "-o", out];
    const [theirPull, ourPull] = [await runFlux(pull), await flotilla(pull)];
    expect([ourPull.code, ourPull.stderr]).toEqual([theirPull.code, theirPull.stderr]);
  });

  it.each([
    [["push", "artifact"]],
    [["push", "artifact", "oci://127.0.0.1:5000/fleet/app:v1"]],
    [["push", "artifact", "oci://127.0.0.1:5000/fleet/app:v1", "--source=s"]],
    [["push", "artifact", "oci://127.0.0.1:5000/fleet/app:v1", "--source=s", "--revision=r"]],
    [["push", "artifact", "127.0.0.1:5000/fleet/app:v1", "--source=s", "--revision=r", "--path=."]],
    [["push", "artifact", "oci://127.0.0.1:5000/fleet/app:v1", "--source=s", "--revision=r", "--path=.", "-a", "x"]],
    [["pull", "artifact", "oci://127.0.0.1:5000/fleet/app:v1"]],
    [["tag", "artifact", "oci://127.0.0.1:5000/fleet/app:v1"]],
    [["list", "artifacts"]],
    [["diff", "artifact", "oci://127.0.0.1:5000/fleet/app:v1"]],
    [["create", "source", "oci", "apps", "--url=oci://127.0.0.1:5000/fleet/app", "--export"]],
    [
      [
        "create",
        "source",
        "oci",
        "apps",
        "--url=oci://127.0.0.1:5000/fleet/app",
        "--tag=v1",
        "--verify-subject=me",
        "--export",
      ],
    ],
  ])("flotilla %j refuses as flux does", async (args) => {
    const theirs = await runFlux(args);
    const ours = await flotilla(args);
    expect(theirs.code).toBe(1);
    expect([ours.code, ours.stderr]).toEqual([theirs.code, theirs.stderr]);
  });
});
