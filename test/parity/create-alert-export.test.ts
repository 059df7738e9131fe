// `create alert` and `create alert-provider` against the real flux CLI (v2.9.5, built by tools/build.sh), run
// side by side with the same arguments: stdout, the error line and the exit code byte for byte. No cluster is
// needed: every case is --export or a flag mistake flux refuses before it connects.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { fluxBinary } from "../support/oci-registry.js";

const run = (cmd: string[], args: string) => {
  const r = spawnSync(cmd[0]!, [...cmd.slice(1), ...args.split(" ")], {
    encoding: "utf8",
    env: { ...process.env, KUBECONFIG: "/nonexistent" },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

const CASES = [
  "create alert my-alert --provider-ref slack --event-severity info --event-source Kustomization/flux-system,GitRepository/*,HelmRelease/podinfo.apps --label team=a --export",
  "create alert my-alert --provider-ref slack --event-source Kustomization/a --event-source Kustomization/b -n apps --export",
  "create alert-provider slack --type slack --channel general --address https://hooks.slack.com/services/x --secret-ref webhook-url --username bot --export -n apps",
  "create alert-provider generic --type generic-hmac --address http://127.0.0.1:9999/hook --secret-ref hmac --export",
  "create alert my-alert --export",
  "create alert my-alert --provider-ref p --export",
  "create alert my-alert --provider-ref p --event-source foo --export",
  "create alert-provider my-provider --export",
];

describe("create alert and alert-provider print what the real flux prints", () => {
  it.each(CASES)("%s", (args) => {
    const flux = run([fluxBinary()], args);
    const ours = run([process.execPath, "bin/flotilla.js"], args);
    expect(ours.stdout).toBe(flux.stdout);
    expect(ours.code).toBe(flux.code);
    // flux's error line, "✗ <message>", is the last line of its stderr; ours says the same.
    if (flux.code !== 0) expect(ours.stderr.trim().split("\n").at(-1)).toBe(flux.stderr.trim().split("\n").at(-1));
  });
});
