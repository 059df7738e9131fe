// The helm wrapper (src/binaries/helm) against the real pinned helm: the version check, a chart
// created, packaged and rendered, and a helm that hangs — stopped by the timeout, by an AbortSignal,
// and held back by the concurrency bound. (In the parity project because it needs the built tools.)
import { existsSync, readdirSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  HelmCancelledError,
  HelmChartNotFoundError,
  helmVersion,
  locateHelm,
  runHelm,
  runHelmSync,
  setHelmConcurrency,
  HelmTimeoutError,
} from "../../src/binaries/helm/index.js";
import { workBase } from "../../src/util/work-dir.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

let work: string;
// A chart repository that accepts connections and never answers: helm waits until it is stopped.
let silent: Server;
let silentUrl: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  work = makeWorkDir("flotilla-helm-wrapper-");
  silent = createServer((s) => sockets.push(s));
  await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
  silentUrl = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => silent.close(r));
  rmSync(work, { recursive: true, force: true });
});

const helmHomes = () =>
  existsSync(join(workBase(), String(process.pid)))
    ? readdirSync(join(workBase(), String(process.pid))).filter((d) => d.startsWith("helm-home-"))
    : [];

const hangingPull = (dest: string, o: Parameters<typeof runHelm>[1]) =>
  runHelm(["pull", "--repo", silentUrl, "web", "-d", dest], o);

describe("helm through the wrapper", () => {
  it("finds the pinned helm and checks its version once", () => {
    const helm = locateHelm();
    expect(helm).toMatch(/\/bin\/helm$/);
    expect(helmVersion(helm)).toMatch(/^v[34]\./);
  });

  it("creates, packages and renders a chart, in private homes removed afterwards", async () => {
    await runHelm(["create", "web"], { cwd: work });
    const { stdout } = await runHelm(["package", join(work, "web"), "-d", work]);
    expect(stdout).toContain("Successfully packaged chart");
    const tgz = readdirSync(work).find((f) => f.endsWith(".tgz"))!;
    expect(tgz).toBe("web-0.1.0.tgz");
    const rendered = await runHelm(["template", "demo", join(work, tgz), "--set", "replicaCount=3"]);
    expect(rendered.stdout).toContain("name: demo-web");
    expect(rendered.stdout).toContain("replicas: 3");
    expect(runHelmSync(["template", "demo", join(work, "web")]).stdout).toContain("kind: Deployment");
    expect(helmHomes()).toEqual([]);
  });

  it("maps a missing chart to HelmChartNotFoundError with helm's words", async () => {
    const err = await runHelm(["template", "demo", join(work, "missing")]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HelmChartNotFoundError);
    expect((err as Error).message).toMatch(/^Error: .*not found/);
  });

  it("kills a helm that outlives its timeout", async () => {
    const started = Date.now();
    const err = await hangingPull(work, { timeoutMs: 500 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HelmTimeoutError);
    expect((err as HelmTimeoutError).result?.code).toBeNull(); // killed by a signal
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(helmHomes()).toEqual([]);
  });

  it("kills a helm whose caller cancels, and never starts one already cancelled", async () => {
    const ctl = new AbortController();
    const running = hangingPull(work, { signal: ctl.signal });
    setTimeout(() => ctl.abort(), 300);
    await expect(running).rejects.toBeInstanceOf(HelmCancelledError);
    await expect(hangingPull(work, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(HelmCancelledError);
  });

  it("runs at most the configured number of helm processes at once", async () => {
    setHelmConcurrency(1);
    try {
      const before = sockets.length;
      const ctl = new AbortController();
      const runs = Promise.allSettled([
        hangingPull(work, { signal: ctl.signal }),
        hangingPull(work, { signal: ctl.signal }),
      ]);
      await new Promise((r) => setTimeout(r, 1500));
      expect(sockets.length - before).toBe(1); // the second helm waits for a slot
      ctl.abort();
      for (const r of await runs) expect(r.status === "rejected" && r.reason).toBeInstanceOf(HelmCancelledError);
    } finally {
      setHelmConcurrency(4);
    }
  });
});
