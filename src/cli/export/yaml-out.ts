// The output of the YAML emitter, with the column libyaml tracks (folding decisions depend on it).
/** A writer that knows its column, as the libyaml emitter does (characters, not bytes). */
export class YamlOut {
  text = "";
  column = 0;
  write(s: string): void {
    this.text += s;
    const nl = s.lastIndexOf("\n");
    this.column = nl < 0 ? this.column + [...s].length : [...s.slice(nl + 1)].length;
  }
}
