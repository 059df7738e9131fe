// Asking the person at the terminal, as flux does before it deletes or waits on a deploy key: a [y/N]
// question on stderr; the end of input (a script piping nothing) is a "no", never a hang.
import { createInterface } from "node:readline/promises";

export async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    // End of input (a script piping nothing) is a "no", never a hang.
    const answer = await Promise.race([
      rl.question(`${question}? [y/N] `),
      new Promise<string>((r) => rl.once("close", () => r(""))),
    ]);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
