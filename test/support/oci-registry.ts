// A real OCI registry for tests: the CNCF distribution registry (`registry serve <config>`, built by
// tools/build.sh from github.com/distribution/distribution/v3) on 127.0.0.1 and a free port, storing
// in a scratch directory. Plain HTTP by default; `tls: true` serves HTTPS with a certificate from a CA
// made for this registry (`caPem`); `htpasswd` turns on basic auth for one user (the bcrypt line is
// made by the same binary: `registry htpasswd <user>`, see tools/registry/main.go); `tokenAuth` puts it
// behind a Bearer token service instead (registry-token-server.ts), as ghcr.io or Docker Hub are.
//
//   const reg = await startOciRegistry({ htpasswd: { username: "bot", password: "s3cret" } });
//   reg.host            // 127.0.0.1:PORT
//   reg.url             // oci://127.0.0.1:PORT
//   reg.blobPath(digest) // the stored file of a blob (to tamper with it)
//   await reg.stop();
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, closeSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { toolsDir } from "../../src/binaries/tools-dir.js";
import { freePort, LOOPBACK } from "../../src/local/ports.js";
import { generateKeyPair, issueCertificate } from "../../src/local/pki/certificate.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { startTokenServer, TOKEN_ISSUER, TOKEN_SERVICE, type TokenServer } from "./registry-token-server.js";

export interface OciRegistryOptions {
  tls?: boolean;
  htpasswd?: { username: string; password: string };
  /** Bearer tokens from a token service (registry-token-server.ts) that grants this user everything. */
  tokenAuth?: { username: string; password: string };
}

export interface OciRegistry {
  /** 127.0.0.1:PORT */
  host: string;
  port: number;
  /** oci://127.0.0.1:PORT */
  url: string;
  /** The CA that signed the serving certificate (tls only). */
  caPem?: string;
  dir: string;
  /** Where the registry keeps a blob's bytes (filesystem driver layout). */
  blobPath(digest: string): string;
  /** With tokenAuth: the token service (its realm, and how many tokens it issued). */
  tokens?: TokenServer;
  /** The registry's log so far. */
  logs(): string;
  stop(): Promise<void>;
}

export function registryBinary(): string {
  const bin = join(toolsDir(), "bin", "registry");
  if (!existsSync(bin))
    throw new Error(
      `the distribution registry is not built (${bin} is missing): run \`bash tools/build.sh registry\` (or \`npm run tools\`)`,
    );
  return bin;
}

function htpasswdLine(bin: string, username: string, password: string): string {
  const out = spawnSync(bin, ["htpasswd", username], { input: `${password}\n`, encoding: "utf8" });
  if (out.status !== 0 || !out.stdout.startsWith(`${username}:$2`))
    throw new Error(
      `\`registry htpasswd\` failed (exit ${out.status}): ${out.stderr.trim()}; rebuild it with \`bash tools/build.sh registry\``,
    );
  return out.stdout;
}

function config(
  dir: string,
  port: number,
  opts: OciRegistryOptions,
  tlsFiles?: { cert: string; key: string },
  tokens?: TokenServer,
): string {
  return [
    "version: 0.1",
    "log:",
    "  level: info",
    "  accesslog:",
    "    disabled: true",
    "storage:",
    "  filesystem:",
    `    rootdirectory: ${join(dir, "data")}`,
    "  delete:",
    "    enabled: true",
    "http:",
    `  addr: ${LOOPBACK}:${port}`,
    `  secret: test-${port}`,
    ...(tlsFiles ? ["  tls:", `    certificate: ${tlsFiles.cert}`, `    key: ${tlsFiles.key}`] : []),
    ...(opts.htpasswd
      ? ["auth:", "  htpasswd:", "    realm: flotilla-test", `    path: ${join(dir, "htpasswd")}`]
      : []),
    ...(tokens
      ? [
          "auth:",
          "  token:",
          `    realm: ${tokens.realm}`,
          `    service: ${TOKEN_SERVICE}`,
          `    issuer: ${TOKEN_ISSUER}`,
          `    rootcertbundle: ${join(dir, "token-signer.crt")}`,
        ]
      : []),
    "",
  ].join("\n");
}

function makeTls(dir: string): { cert: string; key: string; caPem: string } {
  const caSubject = { commonName: "flotilla-test-registry-ca" };
  const caKeys = generateKeyPair();
  const ca = issueCertificate({ subject: caSubject, validityDays: 2, isCA: true }, caKeys);
  const serving = issueCertificate(
    { subject: { commonName: "registry" }, validityDays: 2, serverAuth: true, altNames: [LOOPBACK, "localhost"] },
    generateKeyPair(),
    { subject: caSubject, keys: caKeys },
  );
  const cert = join(dir, "tls.crt");
  const key = join(dir, "tls.key");
  writeFileSync(cert, serving.certificatePem);
  writeFileSync(key, serving.privateKeyPem, { mode: 0o600 });
  return { cert, key, caPem: ca.certificatePem };
}

/** Resolves once the registry accepts connections, or rejects with its log. */
async function ready(child: ChildProcess, host: string, tls: boolean, log: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the registry exited (${child.exitCode}) while starting:\n${log()}`);
    // A TCP connect is enough: the registry listens only once its config and storage are good.
    const up = await new Promise<boolean>((resolve) => {
      const s = connect({ host: LOOPBACK, port: Number(host.split(":")[1]) });
      s.once("connect", () => (s.destroy(), resolve(true)));
      s.once("error", () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the registry did not listen on ${host} (${tls ? "https" : "http"}) within 20 s:\n${log()}`);
}

export async function startOciRegistry(opts: OciRegistryOptions = {}): Promise<OciRegistry> {
  const bin = registryBinary();
  const dir = makeWorkDir("oci-registry-");
  mkdirSync(join(dir, "data"));
  if (opts.htpasswd)
    writeFileSync(join(dir, "htpasswd"), htpasswdLine(bin, opts.htpasswd.username, opts.htpasswd.password));
  const tls = opts.tls ? makeTls(dir) : undefined;
  const tokens = opts.tokenAuth ? await startTokenServer(opts.tokenAuth) : undefined;
  if (tokens) writeFileSync(join(dir, "token-signer.crt"), tokens.certPem);
  const logFile = join(dir, "registry.log");
  const log = () => (existsSync(logFile) ? readFileSync(logFile, "utf8") : "");
  // A port can be taken between freePort and the registry's bind: try a few.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const host = `${LOOPBACK}:${port}`;
    writeFileSync(join(dir, "config.yml"), config(dir, port, opts, tls, tokens));
    const out = openSync(logFile, "w");
    const child = spawn(bin, ["serve", join(dir, "config.yml")], {
      stdio: ["ignore", out, out],
      // No OpenTelemetry exporter: the registry would otherwise try to reach a collector.
      env: { PATH: process.env.PATH, HOME: dir, OTEL_TRACES_EXPORTER: "none", OTEL_SDK_DISABLED: "true" },
    });
    closeSync(out); // the child holds its own copy
    try {
      await ready(child, host, !!tls, log);
    } catch (err) {
      child.kill("SIGKILL");
      if (attempt < 3 && /address already in use/.test(log())) continue;
      rmSync(dir, { recursive: true, force: true });
      await tokens?.close();
      throw err;
    }
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    return {
      host,
      port,
      url: `oci://${host}`,
      ...(tls ? { caPem: tls.caPem } : {}),
      ...(tokens ? { tokens } : {}),
      dir,
      blobPath: (digest: string) => {
        const hex = digest.replace(/^sha256:/, "");
        return join(dir, "data", "docker", "registry", "v2", "blobs", "sha256", hex.slice(0, 2), hex, "data");
      },
      logs: log,
      stop: async () => {
        if (child.exitCode === null) {
          child.kill("SIGTERM");
          const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
          await exited;
          clearTimeout(timer);
        }
        rmSync(dir, { recursive: true, force: true });
        await tokens?.close();
      },
    };
  }
}

/** The real flux CLI (tools/build.sh builds it from github.com/fluxcd/flux2/v2/cmd/flux), for interop tests. */
export function fluxBinary(): string {
  const bin = join(toolsDir(), "bin", "flux");
  if (!existsSync(bin))
    throw new Error(
      `the flux CLI is not built (${bin} is missing): run \`bash tools/build.sh flux\` (or \`npm run tools\`)`,
    );
  return bin;
}

export interface FluxResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs flux with a private HOME (no docker config of the machine's) and no kubeconfig (the artifact verbs
 * need none). `extraEnv` adds variables, e.g. SSL_CERT_FILE for a registry's CA.
 */
export function runFlux(args: string[], extraEnv: Record<string, string> = {}): Promise<FluxResult> {
  const home = makeWorkDir("flux-home-");
  return new Promise((resolve, reject) => {
    const child = spawn(fluxBinary(), args, {
      stdio: ["ignore", "pipe", "pipe"],
      env: { PATH: process.env.PATH, HOME: home, KUBECONFIG: join(home, "no-kubeconfig"), ...extraEnv },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      rmSync(home, { recursive: true, force: true });
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
}
