// Writes an OCI image layout archive (image-spec v1.1: oci-layout, index.json, blobs/sha256/…) from layer
// directories, reproducibly: GNU tar with sorted names, every mtime SOURCE_DATE_EPOCH, numeric owners, no
// atime/ctime and pax header names without the process id; gzip (node:zlib) with no name or timestamp.
// usage: node oci-layout.mjs --out <file.oci.tar> --version <v> --revision <sha> --layer <dir>[:keep-owners]…
// A layer keeps its files' numeric owners only with :keep-owners (the Debian base, whose owners dpkg set);
// the others are owned by 0:0. Prints the image manifest's digest.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createWriteStream, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pipeline } from "node:stream/promises";
import { Transform } from "node:stream";
import { createGzip } from "node:zlib";
import { parseArgs } from "node:util";

const SOURCE = "https://github.com/flotilla-dev/flotilla"; // the repository behind ghcr.io/flotilla-dev/flotilla
const PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
const { values: o } = parseArgs({
  options: {
    out: { type: "string" },
    version: { type: "string" },
    revision: { type: "string" },
    layer: { type: "string", multiple: true },
  },
});
const epoch = process.env.SOURCE_DATE_EPOCH;
if (!o.out || !o.version || !o.revision || !o.layer?.length || !/^\d+$/.test(epoch ?? ""))
  throw new Error("oci-layout.mjs needs --out, --version, --revision, --layer and SOURCE_DATE_EPOCH");
const created = new Date(Number(epoch) * 1000).toISOString();

function tarArgs(dir, entries, keepOwners) {
  return [
    "--create",
    "--file=-",
    `--directory=${dir}`,
    "--sort=name",
    "--format=pax",
    "--pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime",
    `--mtime=@${epoch}`,
    "--numeric-owner",
    ...(keepOwners ? [] : ["--owner=0", "--group=0"]),
    "--",
    ...entries,
  ];
}

/** Runs GNU tar on `args`, streaming its output through `through` streams into `file`. */
async function tarTo(file, args, through = []) {
  const tar = spawn("tar", args, { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, LC_ALL: "C" } });
  const exited = new Promise((res, rej) =>
    tar.on("close", (code) => (code === 0 ? res() : rej(new Error(`tar ${args.join(" ")} exited ${code}`)))),
  );
  await Promise.all([pipeline(tar.stdout, ...through, createWriteStream(file)), exited]);
}

function hashing(hash) {
  let size = 0;
  const t = new Transform({
    transform(chunk, _enc, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  return { t, size: () => size };
}

const layout = mkdtempSync(join(dirname(resolve(o.out)), ".oci-layout-"));
const blobs = join(layout, "blobs", "sha256");
mkdirSync(blobs, { recursive: true });
function writeBlob(content) {
  const digest = createHash("sha256").update(content).digest("hex");
  writeFileSync(join(blobs, digest), content);
  return { digest: `sha256:${digest}`, size: Buffer.byteLength(content) };
}

const layers = [];
const diffIds = [];
for (const spec of o.layer) {
  const [dir, flag] = spec.split(":");
  const entries = readdirSync(dir).sort(); // top-level names, in C order: no "./" prefix in the layer
  const raw = createHash("sha256");
  const gz = createHash("sha256");
  const r = hashing(raw);
  const g = hashing(gz);
  const tmp = join(blobs, ".layer");
  await tarTo(tmp, tarArgs(dir, entries, flag === "keep-owners"), [r.t, createGzip({ level: 6 }), g.t]);
  const digest = gz.digest("hex");
  renameSync(tmp, join(blobs, digest));
  diffIds.push(`sha256:${raw.digest("hex")}`);
  layers.push({ mediaType: "application/vnd.oci.image.layer.v1.tar+gzip", digest: `sha256:${digest}`, size: g.size() });
  process.stderr.write(
    `flotilla image: layer ${dir}: ${(r.size() / 2 ** 20).toFixed(1)} MiB, ${(g.size() / 2 ** 20).toFixed(1)} MiB gzipped\n`,
  );
}

const labels = {
  "org.opencontainers.image.source": SOURCE,
  "org.opencontainers.image.version": o.version,
  "org.opencontainers.image.revision": o.revision,
};
const config = writeBlob(
  JSON.stringify({
    created,
    architecture: "amd64",
    os: "linux",
    config: {
      User: "65534:65534",
      Env: [`PATH=${PATH}`, "HOME=/tmp"],
      Entrypoint: ["/usr/local/bin/flotilla"],
      WorkingDir: "/",
      Labels: labels,
    },
    rootfs: { type: "layers", diff_ids: diffIds },
    history: ["base: Debian bookworm (mmdebstrap)", "runtime: node and helm", "app: flotilla"].map((created_by) => ({
      created,
      created_by,
    })),
  }),
);
const manifest = writeBlob(
  JSON.stringify({
    schemaVersion: 2,
    mediaType: "application/vnd.oci.image.manifest.v1+json",
    config: { mediaType: "application/vnd.oci.image.config.v1+json", ...config },
    layers,
    annotations: { "org.opencontainers.image.created": created, ...labels },
  }),
);
writeFileSync(
  join(layout, "index.json"),
  JSON.stringify({
    schemaVersion: 2,
    mediaType: "application/vnd.oci.image.index.v1+json",
    manifests: [
      {
        mediaType: "application/vnd.oci.image.manifest.v1+json",
        ...manifest,
        platform: { architecture: "amd64", os: "linux" },
        annotations: { "org.opencontainers.image.ref.name": o.version },
      },
    ],
  }),
);
writeFileSync(join(layout, "oci-layout"), JSON.stringify({ imageLayoutVersion: "1.0.0" }));

const partial = `${o.out}.partial`;
await tarTo(partial, tarArgs(layout, ["blobs", "index.json", "oci-layout"], false));
renameSync(partial, o.out);
rmSync(layout, { recursive: true, force: true });
process.stdout.write(`${manifest.digest}\n`);
