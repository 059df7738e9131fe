// Tables as the flux CLI prints them (pkg/printers/table_printer.go: olekukonko/tablewriter, no borders,
// "\t" padding, no white space): every cell padded to its column's width, cells joined by a TAB, and
// each data row — not the header — ends with one more TAB, while the header's last cell is padded one
// space wider instead (tablewriter's quirk, in every flux golden). Headers are upper-cased. Scripts that
// parse `flux get` output (awk -F'\t', cut) work on flotilla's unchanged.

/** Display width: tablewriter counts runes (runewidth); code points are close enough for Flux's text. */
const width = (s: string) => [...s].length;

export function fluxTable(header: string[] | undefined, rows: string[][]): string {
  const head = header?.map((h) => h.toUpperCase());
  // A cell with line breaks spans several lines, the other cells of its row blank below (tablewriter).
  const split = (r: string[]) => {
    const cells = r.map((c) => c.split("\n"));
    const height = Math.max(1, ...cells.map((c) => c.length));
    return Array.from({ length: height }, (_, i) => cells.map((c) => c[i] ?? ""));
  };
  const lines = rows.flatMap(split);
  const all = head ? [head, ...lines] : lines;
  if (!all.length) return "";
  const cols = Math.max(...all.map((r) => r.length));
  const widths = Array.from({ length: cols }, (_, i) => Math.max(0, ...all.map((r) => width(r[i] ?? ""))));
  const pad = (r: string[]) => widths.map((w, i) => (r[i] ?? "") + " ".repeat(w - width(r[i] ?? "")));
  const body = lines.map((r) => `${pad(r).join("\t")}\t`);
  return [...(head ? [`${pad(head).join("\t")} `] : []), ...body].map((l) => `${l}\n`).join("");
}

/** Flux's TruncateHex: any 40–128 character hex string (a SHA-1 … SHA-512) shortened to 8 characters. */
export function truncateHex(s: string): string {
  return s.replace(/\b[a-f0-9]{40,128}\b/g, (hex) => hex.slice(0, 8));
}
