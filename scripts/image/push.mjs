#!/usr/bin/env node
// `npm run image -- --push <registry>[/<repository>]` (or this script alone): copies the OCI image layout archive
// `npm run image` wrote to a registry, as `skopeo copy oci-archive:… docker://…` would — every blob, then the
// manifest's exact bytes under the version tag, so the registry serves the digest the build printed. Plain HTTP
// for a loopback registry (`--insecure`, or a 127.0.0.1/localhost address); credentials from
// FLOTILLA_REGISTRY_USERNAME / FLOTILLA_REGISTRY_PASSWORD, never from the command line.
// usage: node scripts/image/push.mjs <archive.oci.tar> <registry>[/<repository>] [--tag T] [--insecure]
// Prints `<registry>/<repository>:<tag>@<digest>` as its last line.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const { RegistryClient } = await import("../../dist/sources/oci/client.js");

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  return i < 0 ? undefined : args.splice(i, 2)[1];
};
const fail = (msg) => {
  console.error(`flotilla image push: ${msg}`);
  process.exit(1);
};
const tagArg = flag("--tag");
const insecureFlag = args.includes("--insecure") ? (args.splice(args.indexOf("--insecure"), 1), true) : false;
const [archive, target] = args;
if (!archive || !target) fail("usage: push.mjs <archive.oci.tar> <registry>[/<repository>] [--tag T] [--insecure]");

const slash = target.indexOf("/");
const registry = slash < 0 ? target : target.slice(0, slash);
// Where `flotilla install --registry <target>` looks: <target>/flotilla:<version>.
const repository = slash < 0 ? "flotilla" : `${target.slice(slash + 1)}/flotilla`;
const insecure = insecureFlag || /^(127\.0\.0\.1|localhost|\[::1\])(:|$)/.test(registry);
const { FLOTILLA_REGISTRY_USERNAME: username, FLOTILLA_REGISTRY_PASSWORD: password } = process.env;

const dir = mkdtempSync(join(tmpdir(), "flotilla-image-push-"));
try {
  execFileSync("tar", ["-xf", archive, "-C", dir], { stdio: ["ignore", "ignore", "pipe"] });
  const blob = (digest) => readFileSync(join(dir, "blobs", ...digest.split(":")));
  const index = JSON.parse(readFileSync(join(dir, "index.json"), "utf8"));
  const entry = index.manifests?.[0];
  if (!entry?.digest) throw new Error(`${archive}: index.json names no manifest`);
  const raw = blob(entry.digest);
  const manifest = JSON.parse(raw.toString("utf8"));
  const tag = tagArg ?? entry.annotations?.["org.opencontainers.image.ref.name"];
  if (!tag) throw new Error(`${archive}: the manifest has no org.opencontainers.image.ref.name: give --tag`);
  const client = new RegistryClient(registry, {
    insecure,
    ...(username && password ? { auth: { username, password } } : {}),
    timeoutMs: 600_000,
  });
  try {
    for (const d of [manifest.config, ...manifest.layers]) await client.pushBlob(repository, blob(d.digest));
    const digest = await client.putManifestRaw(repository, tag, raw, entry.mediaType ?? manifest.mediaType);
    if (digest !== entry.digest) throw new Error(`the registry stored ${digest}, the archive holds ${entry.digest}`);
    console.log(`${registry}/${repository}:${tag}@${digest}`);
  } finally {
    await client.close();
  }
} catch (e) {
  rmSync(dir, { recursive: true, force: true });
  fail(e.message ?? String(e));
}
rmSync(dir, { recursive: true, force: true });
