// Credentials that change while the process runs: a service-account token file that kubelet rotates,
// and exec credential plugins (only when explicitly allowed). Static certificates and tokens need
// neither and are read once with the kubeconfig.
import { execFile } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { promisify } from "node:util";
import { KubeconfigError } from "./errors.js";

const run = promisify(execFile);

export interface ExecConfig {
  command: string;
  args?: string[];
  env?: { name: string; value: string }[];
  apiVersion?: string;
}

export interface DynamicCredential {
  token?: string;
  certPem?: string;
  keyPem?: string;
}

/** Re-reads a token file when its modification time changes (projected SA tokens rotate hourly). */
export class TokenFile {
  private cached?: { mtimeMs: number; token: string };
  constructor(readonly path: string) {}

  read(): string {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(this.path).mtimeMs;
    } catch (err) {
      throw new KubeconfigError(`cannot read token file ${this.path}: ${(err as Error).message}`, this.path);
    }
    if (!this.cached || this.cached.mtimeMs !== mtimeMs) {
      this.cached = { mtimeMs, token: readFileSync(this.path, "utf8").trim() };
    }
    return this.cached.token;
  }
}

interface ExecCredentialStatus {
  token?: string;
  clientCertificateData?: string;
  clientKeyData?: string;
  expirationTimestamp?: string;
}

/** Runs a client.authentication.k8s.io exec plugin; caches its answer until it expires. */
export class ExecCredential {
  private cached?: { value: DynamicCredential; expires: number };
  constructor(
    readonly config: ExecConfig,
    readonly source: string,
  ) {}

  async get(): Promise<DynamicCredential> {
    if (this.cached && Date.now() < this.cached.expires) return this.cached.value;
    const env = { ...process.env };
    for (const e of this.config.env ?? []) env[e.name] = e.value;
    env.KUBERNETES_EXEC_INFO = JSON.stringify({
      apiVersion: this.config.apiVersion ?? "client.authentication.k8s.io/v1",
      kind: "ExecCredential",
      spec: { interactive: false },
    });
    let stdout: string;
    try {
      ({ stdout } = await run(this.config.command, this.config.args ?? [], { env, timeout: 30_000 }));
    } catch (err) {
      throw new KubeconfigError(
        `kubeconfig ${this.source}: exec plugin ${this.config.command} failed: ${(err as Error).message}`,
        this.source,
      );
    }
    let status: ExecCredentialStatus | undefined;
    try {
      status = (JSON.parse(stdout) as { status?: ExecCredentialStatus }).status;
    } catch {
      // handled below
    }
    if (!status || (!status.token && !status.clientCertificateData)) {
      throw new KubeconfigError(
        `kubeconfig ${this.source}: exec plugin ${this.config.command} returned no credential`,
        this.source,
      );
    }
    const value: DynamicCredential = {
      token: status.token,
      certPem: status.clientCertificateData,
      keyPem: status.clientKeyData,
    };
    const expires = status.expirationTimestamp
      ? Date.parse(status.expirationTimestamp) - 10_000
      : Date.now() + 5 * 60_000;
    this.cached = { value, expires };
    return value;
  }
}
