// Block scalars as kustomize ends up holding them, where that differs from the YAML spec.
//
// 1. A block that ends the file without a final line break has no final line break to keep: go-yaml
//    v3's scanner (scannerc.go: yaml_parser_scan_block_scalar) reads `|` `x` at end of input as "x",
//    where the `yaml` library gives "x\n".
// 2. A folded block (`>`) keeps its style in kyaml's node, and kustomize prints a resource through
//    kyaml's RNode.MarshalJSON, which writes the node with go-yaml v3 and reads it back. go-yaml's
//    folded writer (emitterc.go: yaml_emitter_write_folded_scalar) decides whether to add the blank
//    line that keeps a line break by looking at the value's first line instead of the next one, so
//    a line break before a more-indented line gains a blank line, which then reads back as one more
//    line break: `>-` "x", "  y" reads as "x\n  y" and prints as "x\n\n  y". foldedRoundTrip does
//    that write and read on the value's lines (indentation and line width aside).

const isBlank = (c: string | undefined): boolean => c === " " || c === "\t";

/** The lines go-yaml v3's folded writer produces for a value (without indentation), and its chomping. */
function writeFolded(value: string): { lines: string[]; chomp: "strip" | "clip" | "keep" } {
  let k = 0;
  while (value[k] === "\n") k++;
  // is_blankz at the first non-break character of the value (the writer's k starts at 0).
  const extraBreaks = !(k >= value.length || isBlank(value[k]));
  let text = "";
  let breaks = true;
  let leadingSpaces = true;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === "\n") {
      if (!breaks && !leadingSpaces && extraBreaks) text += "\n";
      text += "\n";
      breaks = true;
    } else {
      if (breaks) leadingSpaces = isBlank(c);
      text += c;
      breaks = false;
    }
  }
  // yaml_emitter_write_block_scalar_hints: '-' without a final break, '+' with two or only breaks.
  const chomp = !value.endsWith("\n") ? "strip" : value.length === 1 || value.endsWith("\n\n") ? "keep" : "clip";
  const lines = text.split("\n");
  // After a final line break, the last piece is the start of the next node's line, not the block's.
  if (value.endsWith("\n")) lines.pop();
  return { lines, chomp };
}

/** go-yaml v3's reading of a folded block's lines (yaml_parser_scan_block_scalar, folded). */
function readFolded(lines: string[], chomp: "strip" | "clip" | "keep"): string {
  let s = "";
  let leadingBreak = "";
  let trailingBreaks = "";
  let leadingBlank = false;
  let i = 0;
  for (; i < lines.length && lines[i] === ""; i++) trailingBreaks += "\n";
  while (i < lines.length) {
    const line = lines[i]!;
    const trailingBlank = isBlank(line[0]);
    if (!leadingBlank && !trailingBlank && leadingBreak === "\n") {
      if (trailingBreaks === "") s += " ";
    } else s += leadingBreak;
    s += trailingBreaks;
    trailingBreaks = "";
    leadingBlank = trailingBlank;
    s += line;
    leadingBreak = "\n";
    for (i++; i < lines.length && lines[i] === ""; i++) trailingBreaks += "\n";
  }
  if (chomp !== "strip") s += leadingBreak;
  if (chomp === "keep") s += trailingBreaks;
  return s;
}

/** A folded block's value as kustomize prints it: written and read once by go-yaml v3. */
export function foldedRoundTrip(value: string): string {
  if (!value.includes("\n")) return value;
  const { lines, chomp } = writeFolded(value);
  return readFolded(lines, chomp);
}

/**
 * A block scalar's value as go-yaml v3 reads it, from the `yaml` library's: without the final line
 * break the library adds when the block's last line ends the input without one.
 */
export function blockAtEndOfInput(value: string, text: string, end: number, strip: boolean): string {
  if (strip || end !== text.length || text.endsWith("\n") || !value.endsWith("\n")) return value;
  return value.slice(0, -1);
}
