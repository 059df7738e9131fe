// One registry's HTTP side: the connection (plain HTTP when insecure, else HTTPS with the given CA and
// client certificate, through a proxy if asked), the distribution auth flow (anonymous first; on 401
// `Basic` → the credentials, `Bearer` → a token from the realm, cached per scope) and the mapping of
// failures to the OCI errors. Like go-containerregistry, a registry on a loopback, localhost or private
// address that does not speak TLS at all is retried over plain HTTP; a certificate problem never is.
import { Agent, type Dispatcher, ProxyAgent, request } from "undici";
import { OciAuthError, OciError, OciNotFoundError, OciUnreachableError } from "./errors.js";
import { parseWwwAuthenticate } from "./www-authenticate.js";

export interface TransportOptions {
  insecure?: boolean;
  auth?: { username: string; password: string };
  ca?: string;
  cert?: string;
  key?: string;
  proxyUrl?: string;
  /** Only for messages: the deadline the caller set. */
  timeoutMs?: number;
}

export interface SendRequest {
  method: "GET" | "HEAD" | "PUT" | "POST" | "PATCH" | "DELETE";
  /** A path below the registry (`/v2/...`) or an absolute URL (upload locations, redirects). */
  path: string;
  scope: string;
  /** Says what was being done, for messages: "reading manifest app:v1". */
  what: string;
  signal: AbortSignal;
  headers?: Record<string, string>;
  body?: Buffer;
}

export type Response = Dispatcher.ResponseData;

const CERTIFICATE_CODES = /CERT|SELF_SIGNED|UNABLE_TO_(VERIFY|GET)|ALTNAME|HOSTNAME/;
// The address classes go-containerregistry (name.Registry.Scheme) treats as possibly plain HTTP.
const LOCAL_REGISTRY =
  /^(localhost|127\.\d+\.\d+\.\d+|\[?::1\]?|10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|172\.(1[6-9]|2\d|3[01])\.\d+\.\d+|.*\.localhost)(:\d+)?$/;

/** The server answered an HTTPS hello with something that is not TLS (a plain-HTTP server). */
const notTls = (err: unknown) =>
  !CERTIFICATE_CODES.test(errorCode(err)) &&
  (errorCode(err) === "EPROTO" ||
    errorCode(err) === "ERR_SSL_WRONG_VERSION_NUMBER" ||
    /wrong version number|packet length too long/i.test(errorText(err)));

const errorCode = (err: unknown): string => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code ?? e?.cause?.code ?? "";
};
const errorText = (err: unknown): string => {
  const e = err as Error & { cause?: Error };
  return e?.cause?.message && e.cause.message !== e.message
    ? `${e.message}: ${e.cause.message}`
    : String(e?.message ?? err);
};

export class RegistryTransport {
  private readonly dispatcher: Dispatcher;
  private scheme: "http" | "https" | undefined;
  private useBasic = false;
  private readonly tokens = new Map<string, string>();

  constructor(
    readonly registry: string,
    private readonly options: TransportOptions,
  ) {
    const tls = { ca: options.ca, cert: options.cert, key: options.key };
    // Short keep-alive: a client made per reconcile and never closed leaves no socket behind for long.
    this.dispatcher = options.proxyUrl
      ? // As Go's transport (and so Flux): plain-HTTP requests forwarded by absolute URI, HTTPS through CONNECT.
        new ProxyAgent({ uri: options.proxyUrl, requestTls: tls, keepAliveTimeout: 4000, proxyTunnel: false })
      : new Agent({ connect: tls, keepAliveTimeout: 4000 });
    if (options.insecure) this.scheme = "http";
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }

  /** Sends with auth; a 401 is answered once by the challenge's scheme. 401/403 after that → OciAuthError. */
  async send(req: SendRequest): Promise<Response> {
    let res = await this.attempt(req);
    if (res.statusCode === 401) {
      const challenge = res.headers["www-authenticate"];
      await res.body.dump();
      await this.answer(typeof challenge === "string" ? challenge : (challenge?.join(", ") ?? ""), req);
      res = await this.attempt(req);
    }
    if (res.statusCode === 401 || res.statusCode === 403) throw await this.failure(res, req.what);
    return res;
  }

  /** A request to another host (a blob storage redirect): no credentials, no auth flow. */
  async sendAnonymous(req: SendRequest): Promise<Response> {
    try {
      return await this.raw(req.method, req.path, { ...req.headers }, req.body, req.signal);
    } catch (err) {
      throw this.unreachable(err, req.signal);
    }
  }

  currentScheme(): "http" | "https" {
    return this.scheme ?? "https";
  }

  /** An error for a response that is not what was asked for; reads (and so frees) its body. */
  async failure(res: Response, what: string): Promise<OciError> {
    const detail = await registryErrors(res);
    const status = `${res.statusCode}${detail ? ` ${detail}` : ""}`;
    if (res.statusCode === 401 || res.statusCode === 403)
      return new OciAuthError(
        `registry ${this.registry} refused ${what} (${status}): ${this.options.auth ? "check the username and password" : "it needs credentials"}`,
      );
    if (res.statusCode === 404)
      return new OciNotFoundError(`${what}: not found on registry ${this.registry} (${status})`);
    return new OciError(`registry ${this.registry} answered ${status} to ${what}`);
  }

  private url(path: string): string {
    return /^https?:\/\//.test(path) ? path : `${this.scheme ?? "https"}://${this.registry}${path}`;
  }

  private async attempt(req: SendRequest): Promise<Response> {
    const headers: Record<string, string> = { ...req.headers };
    const token = this.tokens.get(req.scope);
    if (token) headers.authorization = `Bearer ${token}`;
    else if (this.useBasic && this.options.auth) headers.authorization = basic(this.options.auth);
    let res: Response;
    try {
      res = await this.raw(req.method, this.url(req.path), headers, req.body, req.signal);
    } catch (err) {
      if (this.scheme === undefined && this.speaksNoTls(err)) {
        this.scheme = "http";
        return this.attempt(req);
      }
      throw this.unreachable(err, req.signal);
    }
    // The registry answered over HTTPS: it stays HTTPS for this client.
    if (this.scheme === undefined && !/^https?:\/\//.test(req.path)) this.scheme = "https";
    return res;
  }

  private raw(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: Buffer | undefined,
    signal: AbortSignal,
  ) {
    return request(url, {
      method: method as Dispatcher.HttpMethod,
      headers,
      body,
      signal,
      dispatcher: this.dispatcher,
    });
  }

  /** An HTTPS attempt on a local registry that answered in plain HTTP (not a certificate problem). */
  private speaksNoTls(err: unknown): boolean {
    return LOCAL_REGISTRY.test(this.registry) && notTls(err);
  }

  unreachable(err: unknown, signal: AbortSignal): Error {
    if (err instanceof OciError) return err;
    const reason = (signal as AbortSignal & { reason?: unknown }).reason;
    if (signal.aborted && !(reason instanceof DOMException && reason.name === "TimeoutError")) return reason as Error;
    const code = errorCode(err);
    if (signal.aborted)
      return new OciUnreachableError(
        `registry ${this.registry} did not answer within ${seconds(this.options.timeoutMs ?? 60_000)} (the timeout)`,
      );
    if (CERTIFICATE_CODES.test(code))
      return new OciUnreachableError(
        `registry ${this.registry}: its TLS certificate is not trusted (${code || errorText(err)}); give the CA that signed it`,
      );
    if (notTls(err))
      return new OciUnreachableError(
        `registry ${this.registry} does not speak TLS (${errorText(err)}); if it serves plain HTTP, mark it insecure`,
      );
    return new OciUnreachableError(`registry ${this.registry} is unreachable: ${errorText(err)}`);
  }

  private async answer(header: string, req: SendRequest): Promise<void> {
    const challenges = parseWwwAuthenticate(header);
    const bearer = challenges.find((c) => c.scheme === "bearer");
    if (bearer?.params.realm) {
      this.tokens.set(req.scope, await this.fetchToken(bearer.params, req));
      return;
    }
    if (challenges.some((c) => c.scheme === "basic")) {
      if (!this.options.auth)
        throw new OciAuthError(`registry ${this.registry} needs credentials for ${req.what}, and none were given`);
      this.useBasic = true;
      return;
    }
    throw new OciAuthError(
      `registry ${this.registry} answered 401 to ${req.what} with ${header ? `an unsupported challenge (${challenges.map((c) => c.scheme).join(", ") || "unreadable"})` : "no WWW-Authenticate challenge"}`,
    );
  }

  private async fetchToken(params: Record<string, string>, req: SendRequest): Promise<string> {
    const url = new URL(params.realm!);
    if (params.service) url.searchParams.set("service", params.service);
    // The scope the whole operation needs (a push needs pull,push even where the registry's challenge for
    // its first HEAD names only pull), and the challenge's own if it differs: one token serves the operation.
    url.searchParams.append("scope", req.scope);
    if (params.scope && params.scope !== req.scope) url.searchParams.append("scope", params.scope);
    const headers: Record<string, string> = this.options.auth ? { authorization: basic(this.options.auth) } : {};
    let res: Response;
    try {
      res = await this.raw("GET", url.toString(), headers, undefined, req.signal);
    } catch (err) {
      throw this.unreachable(err, req.signal);
    }
    if (res.statusCode !== 200) {
      const err = await this.failure(res, `a token for ${req.what} (from ${url.origin})`);
      throw res.statusCode === 401 || res.statusCode === 403 ? err : new OciAuthError(err.message);
    }
    const body = (await res.body.json().catch(() => ({}))) as { token?: string; access_token?: string };
    const token = body.token ?? body.access_token;
    if (!token)
      throw new OciAuthError(`the token service of registry ${this.registry} (${url.origin}) answered without a token`);
    return token;
  }
}

const seconds = (ms: number) => `${+(ms / 1000).toFixed(1)} s`;

const basic = (auth: { username: string; password: string }) =>
  `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString("base64")}`;

/** The registry's `{"errors":[{code,message}]}` as "CODE: message; ...", read from at most 16 KiB. */
async function registryErrors(res: Response): Promise<string> {
  let text = "";
  for await (const chunk of res.body) {
    text += Buffer.from(chunk as Uint8Array).toString("utf8");
    if (text.length > 16 * 1024) break;
  }
  try {
    const errors = (JSON.parse(text) as { errors?: { code?: string; message?: string }[] }).errors ?? [];
    return errors.map((e) => [e.code, e.message].filter(Boolean).join(": ")).join("; ");
  } catch {
    return "";
  }
}
