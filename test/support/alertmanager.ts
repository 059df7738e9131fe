// The real Prometheus Alertmanager (built by tools/build.sh from github.com/prometheus/alertmanager
// v0.35.0) on 127.0.0.1 and a free port, clustering off, one receiver that sends nowhere: tests post
// alerts through flotilla's alertmanager provider and read them back from its API (/api/v2/alerts).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll } from "vitest";
import { toolsDir } from "../../src/binaries/tools-dir.js";
import { freePort } from "../../src/local/ports.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { eventually } from "./fleet-context.js";

export interface Alertmanager {
  url: string;
  alerts(): Promise<Array<{ labels: Record<string, string>; annotations: Record<string, string>; startsAt: string }>>;
  close(): Promise<void>;
}

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
});

export async function startAlertmanager(): Promise<Alertmanager> {
  const bin = join(toolsDir(), "bin", "alertmanager");
  if (!existsSync(bin))
    throw new Error(
      `Alertmanager is not built: ${bin} is missing. Run 'bash tools/build.sh alertmanager' (or npm run tools).`,
    );
  const dir = makeWorkDir("flotilla-alertmanager-");
  writeFileSync(join(dir, "alertmanager.yml"), "route:\n  receiver: nowhere\nreceivers:\n  - name: nowhere\n");
  const port = await freePort();
  const child = spawn(
    bin,
    [
      `--config.file=${join(dir, "alertmanager.yml")}`,
      `--storage.path=${join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--cluster.listen-address=",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  children.push(child);
  let log = "";
  child.stderr!.on("data", (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  await eventually(
    `Alertmanager answering on ${url} (log: ${log.slice(-300)})`,
    () =>
      fetch(`${url}/-/ready`).then(
        (r) => r.ok,
        () => false,
      ),
    30_000,
  );
  return {
    url,
    alerts: async () =>
      (await (await fetch(`${url}/api/v2/alerts`)).json()) as Awaited<ReturnType<Alertmanager["alerts"]>>,
    close: async () => {
      const exited = new Promise<void>((r) => child.once("exit", () => r()));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
