// `flotilla local up/status/down` as a user drives them, including a run killed half-way.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { downFleet } from "../../src/local/fleet-down.js";
import { liveProcesses, readFleetState } from "../../src/local/fleet-state.js";
import { runCli } from "../support/cli.js";
import { eventually } from "../support/fleet-context.js";
import { makeWorkDir } from "../../src/util/work-dir.js";
import { KubeClient } from "../../src/kube/client.js";
import { endpointFromKubeconfigFile } from "../../src/kube/kubeconfig.js";

const scratch = makeWorkDir("flotilla-lifecycle-");
afterAll(async () => {
  for (const d of ["single", "killed"]) await downFleet(join(scratch, d)).catch(() => {});
  rmSync(scratch, { recursive: true, force: true });
});

describe("flotilla local lifecycle", () => {
  it("up --tenants 0 starts the management plane alone; status lists it; add-tenant adds a registered tenant plane once; restart etcd bounces the datastore; a second up is refused; down stops it", async () => {
    const dir = join(scratch, "single");
    const up = await runCli(["local", "up", "--tenants", "0", "--dir", dir]);
    expect(up.code, up.stderr).toBe(0);
    expect(up.stderr).toMatch(/✔ local fleet ready in [\d.]+s \(1 planes, v1\.36\.\d+\)/);

    const status = await runCli(["local", "status", "--dir", dir]);
    expect(status.code).toBe(0);
    const [header, row] = status.stdout.split("\n");
    expect(header).toMatch(/^PLANE\s+ROLE\s+ENDPOINT\s+VERSION\s+HEALTH\s+MEMORY\s+MESSAGE$/);
    expect(row).toMatch(/^management\s+management\s+https:\/\/127\.0\.0\.1:\d+\s+v1\.36\.\d+\s+Ready\s+\d+Mi$/);

    const json = JSON.parse((await runCli(["local", "status", "--dir", dir, "-o", "json"])).stdout);
    expect(json.planes[0].memory.pss).toBeGreaterThan(0);

    // A tenant plane added to the running fleet, registered as Kamaji registers one; added again, nothing changes.
    const add = await runCli(["local", "add-tenant", "acme", "--dir", dir]);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stderr).toMatch(/✔ tenant acme added in [\d.]+s/);
    const planes = (await runCli(["local", "status", "--dir", dir])).stdout.split("\n").slice(1, 3);
    expect(planes.map((l) => l.split(/\s+/).slice(0, 2))).toEqual([
      ["management", "management"],
      ["acme", "tenant"],
    ]);
    expect(planes[1]).toMatch(/\sReady\s/);
    const mgmt = new KubeClient(endpointFromKubeconfigFile(readFleetState(dir)!.planes[0]!.kubeconfig));
    const tcp = await mgmt.get<{ status: { kubeconfig: { admin: { secretName: string } } } }>(
      "/apis/kamaji.clastix.io/v1alpha1/namespaces/tenants/tenantcontrolplanes/acme",
    );
    expect(tcp.status.kubeconfig.admin.secretName).toBe("acme-admin-kubeconfig");
    await mgmt.get("/api/v1/namespaces/tenants/secrets/acme-admin-kubeconfig");
    const pids = readFleetState(dir)!.planes[1]!.processes.map((p) => p.pid);
    const addAgain = await runCli(["local", "add-tenant", "acme", "--dir", dir]);
    expect(addAgain.code).toBe(0);
    expect(addAgain.stderr).toContain("✔ tenant acme is already running: nothing to do");
    expect(readFleetState(dir)!.planes[1]!.processes.map((p) => p.pid)).toEqual(pids);
    const bad = await runCli(["local", "add-tenant", "Not_A_Name", "--dir", dir]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('tenant name "Not_A_Name" must be a DNS label');

    // The shared etcd bounced under the plane: a new process on the same data, the plane Ready again.
    const etcdPid = readFleetState(dir)!.etcd!.process.pid;
    const restart = await runCli(["local", "restart", "etcd", "--dir", dir]);
    expect(restart.code, restart.stderr).toBe(0);
    expect(restart.stderr).toContain("✔ restarted the shared etcd; every plane's kube-apiserver is ready again");
    expect(readFleetState(dir)!.etcd!.process.pid).not.toBe(etcdPid);
    expect((await runCli(["local", "status", "--dir", dir])).code).toBe(0);

    const again = await runCli(["local", "up", "--tenants", "0", "--dir", dir]);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe(
      `✗ a local fleet is already running in ${dir} (started ${readFleetState(dir)!.startedAt}); use it, or stop it with: flotilla local down --dir ${dir}`,
    );

    const state = readFleetState(dir)!;
    const down = await runCli(["local", "down", "--dir", dir]);
    expect(down.code).toBe(0);
    expect(down.stderr).toContain("✔ stopped 9 processes of planes management, acme");
    expect(liveProcesses(state)).toEqual([]);
    expect(readFleetState(dir)).toBeUndefined();
  });

  it("cleans up after a run killed half-way, stopping the processes it left behind", async () => {
    const dir = join(scratch, "killed");
    const child = spawn(process.execPath, ["bin/flotilla.js", "local", "up", "--tenants", "1", "--dir", dir], {
      stdio: "ignore",
    });
    // Kill -9 once the shared etcd and at least one apiserver are recorded: the CLI gets no chance to clean up.
    const leftover = await eventually("a half-started fleet", async () => {
      const s = readFleetState(dir);
      return s?.etcd && s.planes.some((p) => p.processes.length > 0) ? s : undefined;
    });
    child.kill("SIGKILL");
    await new Promise((r) => child.once("close", r));
    expect(leftover.phase).toBe("starting");
    expect(liveProcesses(readFleetState(dir)!).length).toBeGreaterThan(0);

    const up = await runCli(["local", "up", "--tenants", "0", "--dir", dir]);
    expect(up.code, up.stderr).toBe(0);
    expect(up.stderr).toMatch(
      new RegExp(
        `► cleaned up a stale fleet in ${dir} left by an interrupted run \\(stopped \\d+ leftover processes\\)`,
      ),
    );
    expect(liveProcesses(leftover)).toEqual([]);
    const down = await runCli(["local", "down", "--dir", dir]);
    expect(down.code).toBe(0);
  });
});
