// X.509 v3 certificates for the local fleet's control planes: a CA per plane, the apiserver's
// serving certificate and client certificates (admin, controller-manager, ...). ECDSA P-256
// keeps key generation instant, which matters when a fleet of planes starts.
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
} from "node:crypto";
import { isIP } from "node:net";
import * as der from "./der.js";

const OID = {
  ecdsaWithSha256: "1.2.840.10045.4.3.2",
  commonName: "2.5.4.3",
  organization: "2.5.4.10",
  subjectKeyIdentifier: "2.5.29.14",
  keyUsage: "2.5.29.15",
  subjectAltName: "2.5.29.17",
  basicConstraints: "2.5.29.19",
  authorityKeyIdentifier: "2.5.29.35",
  extKeyUsage: "2.5.29.37",
  serverAuth: "1.3.6.1.5.5.7.3.1",
  clientAuth: "1.3.6.1.5.5.7.3.2",
} as const;

const KEY_USAGE = { digitalSignature: 0, keyEncipherment: 2, keyCertSign: 5, cRLSign: 6 } as const;

export interface Subject {
  commonName: string;
  organizations?: string[];
}

export interface CertificateRequest {
  subject: Subject;
  /** Days from now until expiry. */
  validityDays: number;
  isCA?: boolean;
  serverAuth?: boolean;
  clientAuth?: boolean;
  /** DNS names and IP addresses for the subjectAltName extension. */
  altNames?: string[];
}

export interface KeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export interface IssuedCertificate extends KeyPair {
  certificatePem: string;
  privateKeyPem: string;
}

export function generateKeyPair(): KeyPair {
  return generateKeyPairSync("ec", { namedCurve: "prime256v1" });
}

export function privateKeyToPem(key: KeyObject): string {
  return key.export({ type: "pkcs8", format: "pem" }).toString();
}

/** A key pair from a PEM private key (e.g. a plane's CA key on disk, to issue a rotated client certificate). */
export function keyPairFromPem(privateKeyPem: string): KeyPair {
  const privateKey = createPrivateKey(privateKeyPem);
  return { privateKey, publicKey: createPublicKey(privateKey) };
}

function name(subject: Subject): Buffer {
  const rdn = (type: string, value: string) => der.set(der.sequence(der.oid(type), der.utf8String(value)));
  return der.sequence(
    ...(subject.organizations ?? []).map((o) => rdn(OID.organization, o)),
    rdn(OID.commonName, subject.commonName),
  );
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return der.sequence(der.oid(id), ...(critical ? [der.boolean(true)] : []), der.octetString(value));
}

/** RFC 5280 method 1: SHA-1 of the subjectPublicKey bits. */
function keyIdentifier(publicKey: KeyObject): Buffer {
  const spki = publicKey.export({ type: "spki", format: "der" });
  // For P-256 the SPKI is fixed-layout: the BIT STRING with the point is the last 66 bytes (0x00 + 65).
  return createHash("sha1")
    .update(spki.subarray(spki.length - 65))
    .digest();
}

function altName(value: string): Buffer {
  if (isIP(value) === 4) return der.implicitPrimitive(7, Buffer.from(value.split(".").map(Number)));
  if (isIP(value) === 6) throw new Error(`IPv6 subjectAltName not supported: ${value}`);
  return der.implicitPrimitive(2, Buffer.from(value, "ascii"));
}

function extensions(req: CertificateRequest, subjectKey: KeyObject, issuerKey: KeyObject): Buffer {
  const usage: number[] = req.isCA
    ? [KEY_USAGE.digitalSignature, KEY_USAGE.keyCertSign, KEY_USAGE.cRLSign]
    : [KEY_USAGE.digitalSignature, KEY_USAGE.keyEncipherment];
  const list = [
    extension(OID.keyUsage, true, der.bitStringFlags(usage)),
    extension(OID.basicConstraints, true, req.isCA ? der.sequence(der.boolean(true)) : der.sequence()),
    extension(OID.subjectKeyIdentifier, false, der.octetString(keyIdentifier(subjectKey))),
    extension(OID.authorityKeyIdentifier, false, der.sequence(der.implicitPrimitive(0, keyIdentifier(issuerKey)))),
  ];
  const ext = [...(req.serverAuth ? [OID.serverAuth] : []), ...(req.clientAuth ? [OID.clientAuth] : [])];
  if (ext.length) list.push(extension(OID.extKeyUsage, false, der.sequence(...ext.map(der.oid))));
  if (req.altNames?.length) list.push(extension(OID.subjectAltName, false, der.sequence(...req.altNames.map(altName))));
  return der.explicit(3, der.sequence(...list));
}

/**
 * Issues a certificate for `subjectKeys`, signed by `issuer` (or self-signed when issuer is omitted,
 * which is how a CA is made).
 */
export function issueCertificate(
  req: CertificateRequest,
  subjectKeys: KeyPair,
  issuer?: { subject: Subject; keys: KeyPair },
): IssuedCertificate {
  const signer = issuer ?? { subject: req.subject, keys: subjectKeys };
  const notBefore = new Date(Date.now() - 60 * 60 * 1000); // tolerate clock skew between processes
  const notAfter = new Date(Date.now() + req.validityDays * 24 * 60 * 60 * 1000);
  const algorithm = der.sequence(der.oid(OID.ecdsaWithSha256));
  const serial = randomBytes(16);
  serial[0]! &= 0x7f; // positive, at most 20 octets
  const tbs = der.sequence(
    der.explicit(0, der.integer(2)), // v3
    der.integer(serial),
    algorithm,
    name(signer.subject),
    der.sequence(der.time(notBefore), der.time(notAfter)),
    name(req.subject),
    subjectKeys.publicKey.export({ type: "spki", format: "der" }),
    extensions(req, subjectKeys.publicKey, signer.keys.publicKey),
  );
  const signature = sign("sha256", tbs, signer.keys.privateKey);
  const certificate = der.sequence(tbs, algorithm, der.bitStringBytes(signature));
  const body = certificate.toString("base64").replace(/.{64}/g, "$&\n");
  return {
    ...subjectKeys,
    certificatePem: `-----BEGIN CERTIFICATE-----\n${body}${body.endsWith("\n") ? "" : "\n"}-----END CERTIFICATE-----\n`,
    privateKeyPem: privateKeyToPem(subjectKeys.privateKey),
  };
}
