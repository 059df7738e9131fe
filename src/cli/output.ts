// Progress and result lines in the style of the flux CLI: ► for steps, ◎ for waiting, ✔ for success, ✗ for failure.
// Progress goes to stderr so stdout stays clean for tables and machine-readable output.
export const step = (message: string) => process.stderr.write(`► ${message}\n`);
export const success = (message: string) => process.stderr.write(`✔ ${message}\n`);
export const failure = (message: string) => process.stderr.write(`✗ ${message}\n`);
export const waiting = (message: string) => process.stderr.write(`◎ ${message}\n`);
