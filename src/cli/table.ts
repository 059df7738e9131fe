// kubectl-style tables: upper-case headers, columns padded and separated by three spaces.
export function renderTable(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join("   ")
      .trimEnd();
  return [line(headers), ...rows.map(line)].join("\n");
}

export function formatBytes(bytes: number): string {
  if (bytes <= 0) return "-";
  const mib = bytes / (1024 * 1024);
  return mib >= 1024 ? `${(mib / 1024).toFixed(1)}Gi` : `${Math.round(mib)}Mi`;
}
