// Go's encoding/base32 StdEncoding (RFC 4648, padded), for sprig's b32enc/b32dec: Node has no base32.
// Decoding follows Go's decoder step by step, so a bad input gives Go's very message — b32dec returns
// the error text as its result, as sprig does.
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const PAD = "=";

export function base32Encode(src: Buffer): string {
  let out = "";
  for (let i = 0; i < src.length; i += 5) {
    const chunk = src.subarray(i, i + 5);
    let bits = 0n;
    for (let j = 0; j < 5; j++) bits = (bits << 8n) | BigInt(chunk[j] ?? 0);
    const chars = Math.ceil((chunk.length * 8) / 5);
    for (let j = 0; j < 8; j++) out += j < chars ? ALPHABET[Number((bits >> BigInt(35 - 5 * j)) & 31n)] : PAD;
  }
  return out;
}

/** The decoded bytes, or Go's CorruptInputError text ("illegal base32 data at input byte N"). */
export function base32Decode(text: string): Buffer | string {
  const src = Buffer.from(text.replace(/[\r\n]/g, ""), "utf8");
  const corrupt = (at: number) => `illegal base32 data at input byte ${at}`;
  const out: number[] = [];
  const olen = src.length;
  let pos = 0;
  let end = false;
  while (pos < olen && !end) {
    const dbuf = new Array<number>(8).fill(0);
    let dlen = 8;
    for (let j = 0; j < 8;) {
      if (pos === olen) return corrupt(olen - j); // missing padding
      const c = String.fromCharCode(src[pos++]!);
      const left = olen - pos;
      if (c === PAD && j >= 2 && left < 8) {
        if (left + j < 8 - 1) return corrupt(olen);
        for (let k = 0; k < 8 - 1 - j; k++)
          if (left > k && String.fromCharCode(src[pos + k]!) !== PAD) return corrupt(olen - left + k - 1);
        dlen = j;
        end = true;
        if (dlen === 1 || dlen === 3 || dlen === 6) return corrupt(olen - left - 1);
        break;
      }
      const v = ALPHABET.indexOf(c);
      if (v < 0) return corrupt(olen - left - 1);
      dbuf[j++] = v;
    }
    const bytes = [
      (dbuf[0]! << 3) | (dbuf[1]! >> 2),
      (dbuf[1]! << 6) | (dbuf[2]! << 1) | (dbuf[3]! >> 4),
      (dbuf[3]! << 4) | (dbuf[4]! >> 1),
      (dbuf[4]! << 7) | (dbuf[5]! << 2) | (dbuf[6]! >> 3),
      (dbuf[6]! << 5) | dbuf[7]!,
    ].map((b) => b & 0xff);
    const count = { 8: 5, 7: 4, 5: 3, 4: 2, 2: 1 }[dlen] ?? 0;
    out.push(...bytes.slice(0, count));
  }
  return Buffer.from(out);
}
