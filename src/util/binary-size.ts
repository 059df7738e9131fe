// Sizes as flux and the Flux Operator print them (their formatSize): bytes below 1 KiB, then one decimal and a
// binary unit. The two differ only in what nothing is written as, which the caller says.
export function formatBinarySize(b: number, zero: string): string {
  if (b === 0) return zero;
  if (b < 1024) return `${b} B`;
  let div = 1024;
  let exp = 0;
  for (let n = Math.floor(b / 1024); n >= 1024; n = Math.floor(n / 1024)) {
    div *= 1024;
    exp++;
  }
  return `${(b / div).toFixed(1)} ${"KMGTPE"[exp]}iB`;
}
