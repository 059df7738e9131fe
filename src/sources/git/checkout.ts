// Fetching exactly one commit into a directory: shallow by ref when we know it, by commit otherwise
// (falling back to a full fetch when the server refuses to serve an unadvertised commit).
import { runGit } from "./git-cli.js";
import type { ResolvedRef } from "./refs.js";

export interface CheckoutOptions {
  url: string;
  dir: string;
  env: Record<string, string>;
  home: string;
  timeoutMs: number;
}

export async function checkout(ref: ResolvedRef, o: CheckoutOptions): Promise<string> {
  const run = (args: string[]) => runGit(args, { cwd: o.dir, env: o.env, home: o.home, timeoutMs: o.timeoutMs });
  await runGit(["init", "-q", o.dir], { env: o.env, home: o.home, timeoutMs: o.timeoutMs });
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
  return (await run(["rev-parse", "HEAD"])).trim();
}
