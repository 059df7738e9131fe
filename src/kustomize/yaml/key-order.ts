// go-yaml v2 sorts map keys with its own "natural" order (sorter.go): letters compare by code point,
// a non-letter sorts before a letter, and runs of digits compare by numeric value — so `a2` < `a10`.
// kustomize output inherits it, so we must too.

const isLetter = (c: string) => /\p{L}/u.test(c);
const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";

export function keyLess(a: string, b: string): boolean {
  const ar = [...a];
  const br = [...b];
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetter(ar[i]!);
    const bl = isLetter(br[i]!);
    if (al && bl) return ar[i]! < br[i]!;
    if (al || bl) return bl;
    let an = 0n;
    let bn = 0n;
    if (ar[i] === "0" || br[i] === "0") {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== "0") {
          an = 1n;
          bn = 1n;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10n + BigInt(ar[ai]!.charCodeAt(0) - 48);
    let bi = i;
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10n + BigInt(br[bi]!.charCodeAt(0) - 48);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i]! < br[i]!;
  }
  return ar.length < br.length;
}

export function sortKeys(keys: string[]): string[] {
  return [...keys].sort((a, b) => (keyLess(a, b) ? -1 : keyLess(b, a) ? 1 : 0));
}
