// Secret values must never reach errors, logs or change sets. API error messages can echo a value
// (e.g. an Invalid value in a Secret), so every message that leaves the resource manager is passed
// through the redactor of the objects it handled.
import type { KubeObject } from "../api/meta/object.js";

const MIN_LENGTH = 4; // shorter values would blank out ordinary words

export class Redactor {
  private readonly values = new Set<string>();

  addObjects(objects: KubeObject[]): this {
    for (const o of objects) if (o.kind === "Secret") this.addSecret(o);
    return this;
  }

  private addSecret(secret: KubeObject): void {
    for (const [field, decode] of [
      ["data", true],
      ["stringData", false],
    ] as const) {
      const map = secret[field];
      if (!map || typeof map !== "object") continue;
      for (const raw of Object.values(map as Record<string, unknown>)) {
        if (typeof raw !== "string") continue;
        this.add(raw);
        if (decode) this.add(Buffer.from(raw, "base64").toString("utf8"));
        else this.add(Buffer.from(raw).toString("base64"));
      }
    }
  }

  /** Values known to be secret from elsewhere (e.g. read from a Secret for substitution). */
  addValues(values: Iterable<string>): this {
    for (const v of values) {
      this.add(v);
      this.add(Buffer.from(v).toString("base64"));
    }
    return this;
  }

  private add(value: string): void {
    const v = value.trim();
    if (v.length >= MIN_LENGTH) this.values.add(v);
  }

  redact(message: string): string {
    let out = message;
    // Longest first, so a value containing another is replaced whole.
    for (const v of [...this.values].sort((a, b) => b.length - a.length)) out = out.split(v).join("***");
    return out;
  }
}
