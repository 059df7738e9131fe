// flotilla's artifact verbs as a user runs them (the built CLI, real processes) against the real CNCF
// distribution registry on loopback: push, list, tag, pull and diff round trip; --creds against an
// htpasswd registry (and ~/.docker/config.json); plain HTTP and TLS with --insecure-registry and
// SSL_CERT_FILE; and the registry's refusals as one line with exit 1. The real flux CLI on the same
// artifacts: oci-cli-flux-interop.test.ts.
import { readFileSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { filesOf, flotillaIn, freshDir, writeApp } from "../support/oci-cli.js";
import { type OciRegistry, startOciRegistry } from "../support/oci-registry.js";

const DIGEST = /sha256:[a-f0-9]{64}/;
const USER = { username: "ci-bot", password: "s3cret-Pa55" };
let plain: OciRegistry;
let locked: OciRegistry;
let tls: OciRegistry;
let scratch: string;
let app: string;

let pushed: Record<string, string>;
const flotilla = flotillaIn(() => scratch);
const fresh = (name: string) => freshDir(scratch, name);

beforeAll(async () => {
  [plain, locked, tls] = await Promise.all([
    startOciRegistry(),
    startOciRegistry({ htpasswd: USER }),
    startOciRegistry({ tls: true }),
  ]);
  scratch = makeWorkDir("oci-cli-artifact-");
  ({ dir: app, pushed } = writeApp(scratch));
}, 60_000);

afterAll(async () => {
  await Promise.all([plain?.stop(), locked?.stop(), tls?.stop()]);
});

describe("push, list, tag, pull and diff round trip", () => {
  it("pushes with flux's lines, lists with flux's table, tags, pulls the same files and diffs clean", async () => {
    const url = `${plain.url}/fleet/app`;
    const push = await flotilla([
      "push", "artifact", `${url}:v1.0.0`, "--path", app, "--source", "https://git.example/app",
      "--revision", "main@sha1:0123456789abcdef0123456789abcdef01234567", "-a", "org.opencontainers.image.licenses=Apache-2.0",
    ]); // prettier-ignore
    expect(push.code, push.stderr).toBe(0);
    const digest = DIGEST.exec(push.stderr)![0];
    expect(push.stderr).toBe(
      `► pushing artifact to ${plain.host}/fleet/app:v1.0.0\n✔ artifact successfully pushed to ${plain.host}/fleet/app@${digest}\n`,
    );

    const json = await flotilla([
      "push",
      "artifact",
      `${url}:v1.1.0`,
      "-f",
      app,
      "--source=s",
      "--revision=v1.1.0",
      "-o",
      "json",
    ]);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stderr).toBe("");
    const info = JSON.parse(json.stdout) as Record<string, string>;
    expect(Object.keys(info)).toEqual(["url", "repository", "tag", "digest"]);
    expect(info).toMatchObject({ repository: `${plain.host}/fleet/app`, tag: "v1.1.0" });
    expect(info.url).toBe(`oci://${plain.host}/fleet/app@${info.digest}`);

    const tag = await flotilla(["tag", "artifact", `${url}:v1.0.0`, "--tag", "latest,stable"]);
    expect([tag.code, tag.stderr]).toEqual([
      0,
      `► tagging artifact\n✔ artifact tagged as ${plain.host}/fleet/app:latest\n✔ artifact tagged as ${plain.host}/fleet/app:stable\n`,
    ]);

    const list = await flotilla(["list", "artifacts", url]);
    expect(list.code, list.stderr).toBe(0);
    const rows = list.stdout.split("\n").map((l) => l.split("\t").map((c) => c.trim()));
    expect(rows[0]).toEqual(["ARTIFACT", "DIGEST", "SOURCE", "REVISION"]);
    expect(rows.slice(1, -1)).toEqual([
      [`${plain.host}/fleet/app:v1.1.0`, info.digest, "s", "v1.1.0", ""],
      [`${plain.host}/fleet/app:v1.0.0`, digest, "https://git.example/app", "main@sha1:0123456789abcdef0123456789abcdef01234567", ""],
      [`${plain.host}/fleet/app:stable`, digest, "https://git.example/app", "main@sha1:0123456789abcdef0123456789abcdef01234567", ""],
      [`${plain.host}/fleet/app:latest`, digest, "https://git.example/app", "main@sha1:0123456789abcdef0123456789abcdef01234567", ""],
    ]); // prettier-ignore
    const semver = await flotilla(["list", "artifacts", url, "--filter-semver", ">=1.1.0"]);
    expect(
      semver.stdout
        .split("\n")
        .slice(1, -1)
        .map((l) => l.split("\t")[0]!.trim()),
    ).toEqual([`${plain.host}/fleet/app:v1.1.0`]);

    const out = fresh("pulled");
    const pull = await flotilla(["pull", "artifact", `${url}:stable`, "--output", out]);
    expect([pull.code, pull.stderr]).toEqual([
      0,
      `► pulling artifact from ${plain.host}/fleet/app:stable\n✔ source https://git.example/app\n` +
        `✔ revision main@sha1:0123456789abcdef0123456789abcdef01234567\n✔ digest ${plain.host}/fleet/app@${digest}\n` +
        `✔ artifact content extracted to ${out}\n`,
    ]);
    expect(filesOf(out)).toEqual(pushed);

    const same = await flotilla(["diff", "artifact", `${url}:v1.0.0`, "--path", app]);
    expect([same.code, same.stderr]).toEqual([0, "✔ no changes detected\n"]);
    writeFileSync(join(out, "kustomization.yaml"), "resources: []\n");
    const changed = await flotilla(["diff", "artifact", `${url}:v1.0.0`, "--path", out]);
    expect([changed.code, changed.stderr]).toEqual([1, "✗ the remote artifact contents differs from the local one\n"]);
  });

  it("build artifact writes the very layer push uploaded (diff compares exactly that)", async () => {
    const tgz = join(scratch, "built.tgz");
    const build = await flotilla(["build", "artifact", "-p", app, "-o", tgz]);
    expect([build.code, build.stderr]).toEqual([0, `► building artifact from ${app}\n✔ artifact created at ${tgz}\n`]);
    const manifest = (await (
      await fetch(`http://${plain.host}/v2/fleet/app/manifests/v1.0.0`, {
        headers: { accept: "application/vnd.oci.image.manifest.v1+json" },
      })
    ).json()) as { layers: { digest: string; size: number }[] };
    const bytes = readFileSync(tgz);
    expect(`sha256:${createHash("sha256").update(bytes).digest("hex")}`).toBe(manifest.layers[0]!.digest);
  });
});

describe("registry access and its errors", () => {
  const push = (reg: OciRegistry, extra: string[], env: Record<string, string> = {}) =>
    flotilla(["push", "artifact", `${reg.url}/fleet/app:v1`, "-f", app, "--source=s", "--revision=r", ...extra], env);

  it("--creds logs in to an htpasswd registry; none or wrong ones are one line naming the registry, no password", async () => {
    const ok = await push(locked, ["--creds", `${USER.username}:${USER.password}`]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr.split("\n")[0]).toBe("► logging in to registry with credentials");
    const none = await push(locked, []);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(
      new RegExp(`^► pushing artifact to .*\\n✗ pushing artifact failed: .*${locked.host}.*\\n$`),
    );
    expect(none.stderr).toContain("needs credentials");
    const wrong = await flotilla([
      "list",
      "artifacts",
      `${locked.url}/fleet/app`,
      "--creds",
      `${USER.username}:not-the-Pa55`,
    ]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(locked.host);
    expect(wrong.stderr).toMatch(
      /^► logging in to registry with credentials\n✗ listing tags failed: .*username and password.*\n$/,
    );
    expect(wrong.stderr).not.toContain("not-the-Pa55");
  });

  it("reads credentials from the docker config when --creds is not given, as flux does", async () => {
    const dockerDir = fresh("docker");
    const auth = Buffer.from(`${USER.username}:${USER.password}`).toString("base64");
    writeFileSync(join(dockerDir, "config.json"), JSON.stringify({ auths: { [locked.host]: { auth } } }));
    const r = await flotilla(["list", "artifacts", `${locked.url}/fleet/app`], { DOCKER_CONFIG: dockerDir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${locked.host}/fleet/app:v1`);
  });

  it("plain HTTP on loopback works with or without --insecure-registry; TLS needs the CA (SSL_CERT_FILE)", async () => {
    expect((await push(plain, ["--insecure-registry"])).code).toBe(0);
    expect((await push(plain, [])).code).toBe(0);
    const caFile = join(scratch, "registry-ca.pem");
    writeFileSync(caFile, tls.caPem!);
    const trusted = await push(tls, [], { SSL_CERT_FILE: caFile });
    expect(trusted.code, trusted.stderr).toBe(0);
    const untrusted = await push(tls, []);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toContain(tls.host);
    expect(untrusted.stderr.trim().split("\n")).toHaveLength(2);
    const http = await push(tls, ["--insecure-registry"], { SSL_CERT_FILE: caFile });
    expect(http.code).toBe(1);
    expect(http.stderr).toContain(tls.host);
  });

  it("a tag that does not exist lists the tags that do; an unreachable registry is named", async () => {
    await push(plain, []);
    const missing = await flotilla(["pull", "artifact", `${plain.url}/fleet/app:v9.9.9`, "-o", fresh("missing")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /✗ pulling artifact failed: tag 'v9\.9\.9' not found in .*fleet\/app; tags that exist, newest first: .*v1\.1\.0/,
    );
    const down = await flotilla(["list", "artifacts", "oci://127.0.0.1:9/fleet/app", "--timeout", "10s"]);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^✗ listing tags failed: .*127\.0\.0\.1:9.*unreachable/);
  });
});
