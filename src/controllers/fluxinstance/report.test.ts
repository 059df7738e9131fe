import { describe, expect, it } from "vitest";
import { formatSize, kindStats } from "./report.js";

const obj = (o: { suspend?: boolean; ready?: [string, string]; size?: number; disabled?: boolean }) => ({
  apiVersion: "v1",
  kind: "X",
  metadata: { name: "x", ...(o.disabled ? { annotations: { "fluxcd.controlplane.io/reconcile": "disabled" } } : {}) },
  spec: o.suspend ? { suspend: true } : {},
  status: {
    ...(o.ready
      ? { conditions: [{ type: "Ready", status: o.ready[0], reason: o.ready[1], message: "", lastTransitionTime: "" }] }
      : {}),
    ...(o.size ? { artifact: { size: o.size } } : {}),
  },
});

describe("FluxReport statistics (the operator's reporter)", () => {
  it("formats sizes as the operator's formatSize", () => {
    expect([0, 512, 1024, 1536, 5 * 1024 * 1024, 3.25 * 1024 ** 3].map(formatSize)).toEqual([
      "",
      "512 B",
      "1.0 KiB",
      "1.5 KiB",
      "5.0 MiB",
      "3.3 GiB",
    ]);
  });

  it("counts running (all but suspended), failing (Ready=False but not DependencyNotReady) and suspended", () => {
    const items = [
      obj({ ready: ["True", "Succeeded"], size: 1024 }),
      obj({ ready: ["False", "BuildFailed"], size: 1024 }),
      obj({ ready: ["False", "DependencyNotReady"] }),
      obj({ suspend: true, ready: ["False", "BuildFailed"] }),
    ];
    expect(kindStats(items as never, false)).toEqual({ running: 3, failing: 1, suspended: 1, totalSize: "2.0 KiB" });
    // The operator's kinds are suspended by the reconcile: disabled annotation, not spec.suspend.
    expect(kindStats([obj({ disabled: true }), obj({ suspend: true })] as never, true)).toEqual({
      running: 1,
      failing: 0,
      suspended: 1,
    });
  });
});
