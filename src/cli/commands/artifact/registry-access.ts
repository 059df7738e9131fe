// How the artifact verbs reach a registry, as the flux CLI does (cmd/flux/*_artifact.go with
// go-containerregistry): the URL must start with oci:// (oci.ParseArtifactURL); credentials from
// --creds `<username>[:<password>]`, else ~/.docker/config.json ($DOCKER_CONFIG); --insecure-registry
// for plain HTTP (without it a loopback or private-network registry that does not speak TLS is still
// reached, go-containerregistry's rule, in the client). Go's SSL_CERT_FILE names the CAs to trust.
// --provider other than generic (cloud logins) is refused by name.
import { type Command, Option } from "commander";
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { RegistryClient, type RegistryOptions } from "../../../sources/oci/client.js";
import { credentialsFromDockerConfig } from "../../../sources/oci/docker-config.js";
import { parseOciUrl, type OciReference } from "../../../sources/oci/reference.js";
import { isFlotillaError } from "../../../util/errors.js";
import { OutcomeError, UsageError } from "../../errors.js";
import { durationFlag } from "../../flags.js";
import { step } from "../../output.js";
import { ociProviderFlag } from "../create/create-source-oci.js";

export interface AccessFlags {
  creds?: string;
  provider: string;
  insecureRegistry?: boolean;
  timeout: string;
}

/** --creds, --provider (and --insecure-registry unless the verb has none, as flux's tag) and --timeout. */
export function withAccessFlags(cmd: Command, insecureHelp?: string): Command {
  cmd
    .option(
      "--creds <credentials>",
      "credentials for OCI registry in the format <username>[:<password>] if --provider is generic",
    )
    .addOption(
      new Option("--provider <provider>", "the OCI provider name").default("generic").argParser(ociProviderFlag),
    )
    .addOption(new Option("--timeout <duration>", "timeout for this operation").default("5m0s"));
  if (insecureHelp) cmd.option("--insecure-registry", insecureHelp);
  return cmd;
}

/** oci.ParseArtifactURL: the URL without oci:// (as flux prints it) and its parts. */
export function artifactUrl(url: string): { url: string; ref: OciReference } {
  if (!url.startsWith("oci://")) throw new UsageError("URL must be in format 'oci://<domain>/<org>/<repo>'");
  return { url: url.slice("oci://".length), ref: parseOciUrl(url) };
}

/** go-containerregistry's ref.Context().Name(): `<registry>/<repository>`. */
export const repositoryName = (ref: OciReference) => `${ref.registry}/${ref.repository}`;

function credentialsOf(f: AccessFlags, registry: string): RegistryOptions["auth"] {
  if (f.provider !== "generic")
    throw new UsageError(
      `--provider ${f.provider} (a cloud registry login) is not supported by flotilla: use --provider generic with --creds or ~/.docker/config.json`,
    );
  if (f.creds !== undefined) {
    if (f.creds === "") throw new UsageError("could not login with credentials: credentials cannot be empty");
    const at = f.creds.indexOf(":");
    // A lone value is a registry token for go-containerregistry; flotilla's client speaks username/password.
    if (at < 0)
      throw new UsageError(
        "--creds without a ':' (a registry token) is not supported by flotilla: pass --creds <username>:<password>",
      );
    step("logging in to registry with credentials");
    return { username: f.creds.slice(0, at), password: f.creds.slice(at + 1) };
  }
  const file = join(process.env.DOCKER_CONFIG || join(homedir(), ".docker"), "config.json");
  let json: string;
  try {
    json = readFileSync(file, "utf8");
  } catch {
    return undefined; // no docker config: anonymous, as go-containerregistry's default keychain
  }
  return credentialsFromDockerConfig(json, registry);
}

/** The client for the URL's registry; the caller closes it. */
function clientOf(f: AccessFlags, ref: OciReference): RegistryClient {
  const auth = credentialsOf(f, ref.registry);
  const timeoutMs = durationFlag("--timeout", f.timeout);
  const caFile = process.env.SSL_CERT_FILE;
  const ca = caFile ? readFileSync(caFile, "utf8") : undefined;
  return new RegistryClient(ref.registry, {
    insecure: !!f.insecureRegistry,
    auth,
    ca,
    ...(timeoutMs > 0 ? { timeoutMs } : {}),
  });
}

/**
 * Runs `use` with a client for the ref's registry and closes the client after, whatever happens. With
 * `failure`, whatever `use` throws is flux's `<failure>: <cause>`; a bad flag (from making the client)
 * is never wrapped, as flux fails on it before reaching the registry.
 */
export async function withRegistry<T>(
  f: AccessFlags,
  ref: OciReference,
  use: (client: RegistryClient) => Promise<T>,
  failure?: string,
): Promise<T> {
  const client = clientOf(f, ref);
  try {
    return await use(client);
  } catch (err) {
    throw failure === undefined ? err : wrapped(failure, err);
  } finally {
    await client.close();
  }
}

/** flux's `<what>: <cause>` for the registry's answer (an OutcomeError); anything else (a bug) passes through. */
export function wrapped(what: string, err: unknown): unknown {
  return isFlotillaError(err) ? new OutcomeError(`${what}: ${(err as Error).message}`) : err;
}
