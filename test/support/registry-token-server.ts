// A Docker/OCI token service for the test registry (the `Bearer realm=...` flow of ghcr.io or Docker
// Hub): GET /token?service=&scope= with optional basic credentials answers a JWT (ES256) that the
// distribution registry's `auth: token` trusts, because its signing key is the one of `certPem`
// (rootcertbundle) and its `kid` is that key's JWK thumbprint, as distribution v3 computes it. The
// right credentials get every action they ask for; anonymous callers get a token with no access;
// wrong credentials get 401. `issued` counts the tokens given out (to prove a client reuses them).
import { createHash, randomBytes, sign } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { generateKeyPair, issueCertificate, type KeyPair } from "../../src/local/pki/certificate.js";

export const TOKEN_SERVICE = "flotilla-test-registry";
export const TOKEN_ISSUER = "flotilla-test-token-issuer";

export interface TokenServer {
  /** http://127.0.0.1:PORT/token */
  realm: string;
  /** The certificate whose key signs the tokens (the registry's rootcertbundle). */
  certPem: string;
  readonly issued: { withAccess: number; anonymous: number; refused: number };
  close(): Promise<void>;
}

const b64url = (b: Buffer | string) => Buffer.from(b).toString("base64url");

/** distribution's GetJWKThumbprint for a P-256 key: Go's big.Int bytes, so no leading zero bytes. */
function jwkThumbprint(keys: KeyPair): string {
  const jwk = keys.publicKey.export({ format: "jwk" }) as { x: string; y: string };
  const trim = (v: string) => {
    const bytes = Buffer.from(v, "base64url");
    let i = 0;
    while (i < bytes.length - 1 && bytes[i] === 0) i++;
    return b64url(bytes.subarray(i));
  };
  const payload = `{"crv":"P-256","kty":"EC","x":"${trim(jwk.x)}","y":"${trim(jwk.y)}"}`;
  return b64url(createHash("sha256").update(payload).digest());
}

function jwt(keys: KeyPair, kid: string, claims: object): string {
  const input = `${b64url(JSON.stringify({ alg: "ES256", typ: "JWT", kid }))}.${b64url(JSON.stringify(claims))}`;
  const signature = sign("sha256", Buffer.from(input), { key: keys.privateKey, dsaEncoding: "ieee-p1363" });
  return `${input}.${b64url(signature)}`;
}

/** `repository:app:pull,push` → { type, name, actions }; a name may hold colons only before the actions. */
function accessOf(scope: string) {
  const first = scope.indexOf(":");
  const last = scope.lastIndexOf(":");
  if (first < 0 || last <= first) return undefined;
  return { type: scope.slice(0, first), name: scope.slice(first + 1, last), actions: scope.slice(last + 1).split(",") };
}

export async function startTokenServer(user: { username: string; password: string }): Promise<TokenServer> {
  const keys = generateKeyPair();
  const subject = { commonName: "flotilla-test-token-signer" };
  const cert = issueCertificate({ subject, validityDays: 2, isCA: true }, keys);
  const kid = jwkThumbprint(keys);
  const issued = { withAccess: 0, anonymous: 0, refused: 0 };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://token");
    const [scheme, value] = (req.headers.authorization ?? "").split(" ");
    const given = scheme?.toLowerCase() === "basic" ? Buffer.from(value ?? "", "base64").toString() : undefined;
    if (url.pathname !== "/token") return void res.writeHead(404).end();
    if (given !== undefined && given !== `${user.username}:${user.password}`) {
      issued.refused++;
      res.writeHead(401, { "content-type": "application/json" });
      return void res.end(JSON.stringify({ errors: [{ code: "UNAUTHORIZED", message: "authentication required" }] }));
    }
    const now = Math.floor(Date.now() / 1000);
    const access = given ? url.searchParams.getAll("scope").flatMap((s) => accessOf(s) ?? []) : [];
    if (given) issued.withAccess++;
    else issued.anonymous++;
    const token = jwt(keys, kid, {
      iss: TOKEN_ISSUER,
      sub: given ? user.username : "",
      aud: url.searchParams.get("service") ?? TOKEN_SERVICE,
      exp: now + 300,
      nbf: now - 10,
      iat: now,
      jti: randomBytes(8).toString("hex"),
      access,
    });
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ token, access_token: token, expires_in: 300 }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    realm: `http://127.0.0.1:${port}/token`,
    certPem: cert.certificatePem,
    issued,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
