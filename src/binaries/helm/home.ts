// A private helm home for one use: config (repositories, registry logins), cache, data and plugins
// in a scratch directory that is removed afterwards, so no run sees another's repositories or
// credentials, nor the user's ~/.config/helm. helm's environment is built here and nowhere else:
// PATH, HOME (the scratch directory), the HELM_* homes, and what the caller passes explicitly —
// never the whole process environment (no proxies, tokens or KUBECONFIG unless a caller asks).
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { makeWorkDir } from "../../util/work-dir.js";

export class HelmHome {
  readonly dir: string;

  constructor() {
    this.dir = makeWorkDir("helm-home-");
    for (const d of ["config", "cache", "data", "plugins"]) mkdirSync(join(this.dir, d));
  }

  /** helm's whole environment: the private homes, then `extra` (which wins). */
  env(extra: Record<string, string> = {}): Record<string, string> {
    return {
      PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
      HOME: this.dir,
      HELM_CONFIG_HOME: join(this.dir, "config"),
      HELM_CACHE_HOME: join(this.dir, "cache"),
      HELM_DATA_HOME: join(this.dir, "data"),
      HELM_PLUGINS: join(this.dir, "plugins"),
      ...extra,
    };
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Runs `fn` with a fresh home shared by its helm runs (e.g. `repo add`, then `dependency update`). */
export async function withHelmHome<T>(fn: (home: HelmHome) => Promise<T>): Promise<T> {
  const home = new HelmHome();
  try {
    return await fn(home);
  } finally {
    home.remove();
  }
}

const PROXY_VARS = ["HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy"];

/** The proxy settings of `env`, for a caller that chooses to hand them to helm (e.g. `helm pull`). */
export function proxyEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return Object.fromEntries(PROXY_VARS.filter((k) => env[k]).map((k) => [k, env[k]!]));
}
