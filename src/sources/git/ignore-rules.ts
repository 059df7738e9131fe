// Which files of a checkout go into the artifact: Flux's rules. `.git` and friends never; the default
// exclusion list (images, archives, CI files) unless a `.sourceignore` or spec.ignore says otherwise;
// `.sourceignore` files apply to their own directory; the last matching pattern wins.
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ignore, { type Ignore } from "ignore";

const VCS = [".git", ".gitignore", ".gitmodules", ".gitattributes"];
const DEFAULTS = [
  "*.jpg", "*.jpeg", "*.gif", "*.png", "*.wmv", "*.flv", "*.tar.gz", "*.zip",
  ".github/", ".circleci/", ".travis.yml", ".gitlab-ci.yml", "appveyor.yml", ".drone.yml", "cloudbuild.yaml", "codeship-services.yml", "codeship-steps.yml",
  "**/.goreleaser.yml", "**/.sops.yaml", "**/.flux.yaml",
]; // prettier-ignore

const lines = (text: string) =>
  text
    .split("\n")
    .map((l) => l.replace(/\r$/, ""))
    .filter((l) => l.trim() && !l.startsWith("#"));

/** Patterns of every .sourceignore, re-rooted at the repository root. */
function sourceIgnorePatterns(root: string, dir = root): string[] {
  const out: string[] = [];
  const file = join(dir, ".sourceignore");
  const prefix = relative(root, dir);
  // A .sourceignore that is a link is not read: it could lead anywhere on the controller's disk.
  if (lstatSync(file, { throwIfNoEntry: false })?.isFile()) {
    for (const line of lines(readFileSync(file, "utf8"))) {
      const negated = line.startsWith("!");
      const body = negated ? line.slice(1) : line;
      const scoped = !prefix
        ? body
        : body.startsWith("/")
          ? `/${prefix}${body}`
          : body.includes("/") && !body.endsWith("/")
            ? `/${prefix}/${body}`
            : `/${prefix}/**/${body}`;
      out.push(`${negated ? "!" : ""}${scoped}`);
    }
  }
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name !== ".git") out.push(...sourceIgnorePatterns(root, join(dir, entry.name)));
  }
  return out;
}

function artifactFilter(root: string, specIgnore: string | undefined, gitDefaults: boolean): Ignore {
  const custom = [...sourceIgnorePatterns(root), ...(specIgnore ? lines(specIgnore) : [])];
  if (!gitDefaults) return ignore().add(custom);
  return ignore().add([...VCS, ...(custom.length ? custom : DEFAULTS)]);
}

/**
 * Regular files to archive, "/"-separated and relative to the root. `gitDefaults: false` is the
 * OCIRepository's rule in Flux: only .sourceignore files and spec.ignore, no VCS or default exclusions.
 */
export function listArtifactFiles(root: string, specIgnore: string | undefined, gitDefaults = true): string[] {
  const filter = artifactFilter(root, specIgnore, gitDefaults);
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const rel = relative(root, join(dir, entry.name)).split("\\").join("/");
      if (entry.isDirectory()) {
        if (!filter.ignores(`${rel}/`)) walk(join(dir, entry.name));
      } else if (entry.isFile() && !filter.ignores(rel)) files.push(rel);
    }
  };
  walk(root);
  return files.sort();
}
