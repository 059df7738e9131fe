// Fetching exactly one commit into a directory: shallow by ref when we know it, by commit otherwise
// (falling back to a full fetch when the server refuses to serve an unadvertised commit). Optionally
// only some directories (sparse checkout) and the submodules, fetched through the same transports
// and credentials as the repository itself (git-cli.ts refuses file:// and ext:: for them).
import { FlotillaError } from "../../util/errors.js";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sandboxedGit, type SandboxedGitOptions } from "./git-cli.js";
import type { ResolvedRef } from "./refs.js";

export interface CheckoutExtras {
  /** Initialise and fetch every submodule, recursively (spec.recurseSubmodules). */
  recurseSubmodules?: boolean;
  /** Only these directories (spec.sparseCheckout), leading "./" ignored. */
  sparseCheckout?: string[];
}

export interface CheckoutOptions extends CheckoutExtras, Omit<SandboxedGitOptions, "cwd"> {
  url: string;
  dir: string;
  env: Record<string, string>;
}

export class SparseCheckoutError extends FlotillaError {
  override name = "SparseCheckoutError";
}

/** Non-cone sparse patterns: each directory anchored at the root, with everything below it. */
function sparsePatterns(dirs: string[]): string[] {
  return dirs.map((d) => `/${d.replace(/^(\.\/)+/, "").replace(/^\/+|\/+$/g, "")}/`);
}

export async function checkout(ref: ResolvedRef, o: CheckoutOptions): Promise<string> {
  const git = { env: o.env, home: o.home, timeoutMs: o.timeoutMs, tenant: o.tenant, timeoutNote: o.timeoutNote };
  const run = (args: string[]) => sandboxedGit(args, { ...git, cwd: o.dir });
  await sandboxedGit(["init", "-q", o.dir], git);
  // Relative submodule URLs resolve against origin; it holds no credentials (they travel as headers).
  await run(["remote", "add", "origin", o.url]);
  if (o.sparseCheckout?.length) {
    await run(["config", "core.sparseCheckout", "true"]);
    mkdirSync(join(o.dir, ".git", "info"), { recursive: true });
    writeFileSync(join(o.dir, ".git", "info", "sparse-checkout"), `${sparsePatterns(o.sparseCheckout).join("\n")}\n`);
  }
  if (ref.fetchRef && ref.cheapCheck) {
    await run(["fetch", "-q", "--depth", "1", "--no-tags", o.url, ref.fetchRef]);
  } else {
    try {
      await run(["fetch", "-q", "--depth", "1", "--no-tags", o.url, ref.commit]);
    } catch {
      await run(["fetch", "-q", "--no-tags", o.url, ref.fetchRef ?? "+refs/heads/*:refs/remotes/origin/*"]);
    }
  }
  const target = ref.fetchRef && ref.cheapCheck ? "FETCH_HEAD" : ref.commit;
  await run(["-c", "advice.detachedHead=false", "checkout", "-q", "--detach", target]);
  if (o.recurseSubmodules) {
    try {
      await run(["submodule", "update", "--init", "--recursive", "--depth", "1"]);
    } catch {
      // A submodule commit that is not a branch tip may need a deeper fetch.
      await run(["submodule", "update", "--init", "--recursive"]);
    }
  }
  return (await run(["rev-parse", "HEAD"])).trim();
}
