// Unpacks an OCI image layout archive into a root filesystem as a container runtime does: the manifest for
// linux/amd64 from index.json, then its layers in order, each one's whiteouts applied to the layers below
// it before its own files land (image-spec layer.md: `.wh.<name>` deletes <name>, `.wh..wh..opq` empties
// its directory of what lower layers put there; neither file itself appears in the result). A non-directory
// entry replaces a directory of a lower layer and vice versa. Files are extracted by GNU tar (numeric owners,
// modes as recorded); whiteout paths through a symlink of a lower layer are refused, never followed.
import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join, posix } from "node:path";

export interface ImageConfig {
  config: {
    User?: string;
    Env?: string[];
    Entrypoint?: string[];
    Cmd?: string[];
    WorkingDir?: string;
    Labels?: Record<string, string>;
  };
  rootfs: { diff_ids: string[] };
}

interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  platform?: { architecture: string; os: string };
}

const WHITEOUT = ".wh.";
const OPAQUE = ".wh..wh..opq";

/** The layer's entries as GNU tar lists them (directories end in "/"), without a leading "./". */
function entries(layer: string): string[] {
  const out = execFileSync("tar", ["--list", "--quoting-style=literal", "--file", layer], {
    encoding: "utf8",
    maxBuffer: 256 * 2 ** 20,
  });
  return out
    .split("\n")
    .filter(Boolean)
    .map((e) => e.replace(/^\.\//, ""))
    .filter((e) => e !== "" && e !== "./");
}

/**
 * `rel` under `root`, refusing a path that leaves it or passes through a symlink (of a lower layer); with
 * `itself`, the last component must not be a symlink either.
 */
function inside(root: string, rel: string, itself = false): string {
  const parts = posix
    .normalize(rel)
    .split("/")
    .filter((p) => p && p !== ".");
  if (parts.some((p) => p === "..")) throw new Error(`layer entry '${rel}' leaves the root filesystem`);
  let at = root;
  for (const p of itself ? parts : parts.slice(0, -1)) {
    at = join(at, p);
    const st = lstatSync(at, { throwIfNoEntry: false });
    if (st?.isSymbolicLink()) throw new Error(`layer entry '${rel}' passes through the symlink ${at}`);
  }
  return join(root, ...parts);
}

/** Applies one layer (a tar, gzip or not) on top of `root`. */
export function applyLayer(layer: string, root: string): void {
  const names = entries(layer);
  for (const name of names) {
    const path = name.replace(/\/$/, "");
    const base = posix.basename(path);
    if (base === OPAQUE) {
      const dir = inside(root, posix.dirname(path), true);
      const st = lstatSync(dir, { throwIfNoEntry: false });
      if (st?.isDirectory()) for (const child of readdirSync(dir)) rmSync(join(dir, child), { recursive: true });
    } else if (base.startsWith(WHITEOUT)) {
      rmSync(inside(root, posix.join(posix.dirname(path), base.slice(WHITEOUT.length))), {
        recursive: true,
        force: true,
      });
    } else {
      // A file over a directory, or a directory over a file: the lower one goes.
      const target = inside(root, path);
      const st = lstatSync(target, { throwIfNoEntry: false });
      if (st && st.isDirectory() !== name.endsWith("/")) rmSync(target, { recursive: true, force: true });
    }
  }
  execFileSync("tar", [
    "--extract",
    "--file",
    layer,
    "--directory",
    root,
    "--numeric-owner",
    "--same-owner",
    "--same-permissions",
    `--exclude=${WHITEOUT}*`,
  ]);
}

/** Unpacks `archive` (an OCI image layout tar) into `root`; returns the image's config. */
export function unpackImage(archive: string, root: string, scratch: string): ImageConfig {
  const layout = join(scratch, "layout");
  mkdirSync(layout, { recursive: true });
  mkdirSync(root, { recursive: true });
  execFileSync("tar", ["--extract", "--file", archive, "--directory", layout]);
  const blob = (digest: string) => join(layout, "blobs", ...digest.split(":"));
  const json = <T>(path: string) => JSON.parse(readFileSync(path, "utf8")) as T;
  const index = json<{ manifests: Descriptor[] }>(join(layout, "index.json"));
  const manifest = index.manifests.find((m) => m.platform?.architecture === "amd64" && m.platform.os === "linux");
  if (!manifest) throw new Error(`${archive}: index.json has no linux/amd64 manifest`);
  const m = json<{ config: Descriptor; layers: Descriptor[] }>(blob(manifest.digest));
  const config = json<ImageConfig>(blob(m.config.digest));
  for (const layer of m.layers) applyLayer(blob(layer.digest), root);
  rmSync(layout, { recursive: true, force: true });
  return config;
}
