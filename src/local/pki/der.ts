// Minimal DER (ASN.1 Distinguished Encoding Rules) writer: just the types an X.509 certificate needs.
// Node can sign and parse certificates but not build them; this keeps the local fleet free of
// native or polyfill-hungry certificate libraries.

const TAG = {
  boolean: 0x01,
  integer: 0x02,
  bitString: 0x03,
  octetString: 0x04,
  oid: 0x06,
  utf8String: 0x0c,
  utcTime: 0x17,
  generalizedTime: 0x18,
  sequence: 0x30,
  set: 0x31,
} as const;

function encodeLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), encodeLength(content.length), content]);
}

export const sequence = (...items: Buffer[]): Buffer => tlv(TAG.sequence, Buffer.concat(items));
export const set = (...items: Buffer[]): Buffer => tlv(TAG.set, Buffer.concat(items));
export const octetString = (bytes: Buffer): Buffer => tlv(TAG.octetString, bytes);
export const utf8String = (text: string): Buffer => tlv(TAG.utf8String, Buffer.from(text, "utf8"));
export const boolean = (value: boolean): Buffer => tlv(TAG.boolean, Buffer.from([value ? 0xff : 0x00]));

/** A non-negative INTEGER from big-endian bytes (serial numbers) or a small number. */
export function integer(value: number | Buffer): Buffer {
  let bytes = typeof value === "number" ? bigEndian(value) : value;
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  bytes = bytes.subarray(start);
  // A leading 1 bit would make the number negative in two's complement.
  if ((bytes[0] ?? 0) & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return tlv(TAG.integer, bytes);
}

function bigEndian(value: number): Buffer {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`DER integer out of range: ${value}`);
  const bytes: number[] = [];
  for (let n = value; n > 0; n = Math.floor(n / 256)) bytes.unshift(n & 0xff);
  return Buffer.from(bytes.length ? bytes : [0]);
}

/** BIT STRING holding whole bytes (signatures, keys). */
export const bitStringBytes = (bytes: Buffer): Buffer => tlv(TAG.bitString, Buffer.concat([Buffer.from([0]), bytes]));

/** BIT STRING of named bits (bit 0 is the most significant bit of the first byte), minimal as DER requires. */
export function bitStringFlags(bits: number[]): Buffer {
  if (bits.length === 0) return tlv(TAG.bitString, Buffer.from([0]));
  const highest = Math.max(...bits);
  const bytes = Buffer.alloc(Math.floor(highest / 8) + 1);
  for (const bit of bits) bytes[Math.floor(bit / 8)]! |= 0x80 >> (bit % 8);
  const unused = 7 - (highest % 8);
  return tlv(TAG.bitString, Buffer.concat([Buffer.from([unused]), bytes]));
}

export function oid(dotted: string): Buffer {
  const parts = dotted.split(".").map(Number);
  if (parts.length < 2 || parts.some((p) => !Number.isInteger(p) || p < 0)) throw new Error(`invalid OID ${dotted}`);
  const out: number[] = [parts[0]! * 40 + parts[1]!];
  for (const part of parts.slice(2)) {
    const chunk: number[] = [part & 0x7f];
    for (let n = Math.floor(part / 128); n > 0; n = Math.floor(n / 128)) chunk.unshift(0x80 | (n & 0x7f));
    out.push(...chunk);
  }
  return tlv(TAG.oid, Buffer.from(out));
}

/** RFC 5280: UTCTime through 2049, GeneralizedTime after. */
export function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, "").slice(0, 14); // YYYYMMDDHHMMSS
  return date.getUTCFullYear() < 2050
    ? tlv(TAG.utcTime, Buffer.from(`${iso.slice(2)}Z`, "ascii"))
    : tlv(TAG.generalizedTime, Buffer.from(`${iso}Z`, "ascii"));
}

/** Context-specific tag: explicit wraps a whole element, implicit replaces a primitive's tag. */
export const explicit = (n: number, inner: Buffer): Buffer => tlv(0xa0 | n, inner);
export const implicitPrimitive = (n: number, content: Buffer): Buffer => tlv(0x80 | n, content);
