// Structured JSON logs, one object per line, with the reconcile's identity on every line
// (controller, kind, namespace, name, reconcileID) so a fleet's logs can be filtered by object.

export type Level = "debug" | "info" | "error";
const ORDER: Record<Level, number> = { debug: 0, info: 1, error: 2 };

export interface Logger {
  with(fields: Record<string, unknown>): Logger;
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export function createLogger(
  options: { level?: Level; write?: (line: string) => void; fields?: Record<string, unknown> } = {},
): Logger {
  const min = ORDER[options.level ?? "info"];
  const write = options.write ?? ((line: string) => process.stderr.write(line));
  const base = options.fields ?? {};
  const emit = (level: Level, msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[level] < min) return;
    write(`${JSON.stringify({ level, ts: new Date().toISOString(), msg, ...base, ...fields })}\n`);
  };
  return {
    with: (fields) => createLogger({ ...options, fields: { ...base, ...fields } }),
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    error: (m, f) => emit("error", m, f),
  };
}
