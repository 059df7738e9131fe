import { describe, expect, it } from "vitest";
import type { KubeObject } from "../api/meta/object.js";
import { planEntry } from "./plan-entry.js";
import { Redactor } from "./redact.js";

const job = (image: string, labels?: Record<string, string>): KubeObject => ({
  apiVersion: "batch/v1",
  kind: "Job",
  metadata: { name: "migrate", namespace: "apps", labels },
  spec: { template: { spec: { containers: [{ name: "m", image }] } } },
});

describe("plan entries", () => {
  it("report a forced re-creation as an update of the fields the set changes, ignoring server defaults", () => {
    const live = job("v1");
    (live.spec as Record<string, unknown>).backoffLimit = 6; // defaulted by the server, not in the set
    const entry = planEntry({ desired: job("v2"), live, action: "created", recreate: true }, new Redactor());
    expect(entry).toMatchObject({
      action: "update",
      subject: "Job/apps/migrate",
      reason: "an immutable field changes: deleted and created again (force)",
      diff: [{ path: "spec.template.spec.containers[0].image", before: "v1", after: "v2" }],
    });
  });

  it("say when a create could not be dry-run yet, and when an update only takes fields over", () => {
    expect(planEntry({ desired: job("v1"), action: "created", deferred: true }, new Redactor())).toMatchObject({
      action: "create",
      reason: "not dry-run yet: its namespace or definition is created by the same set",
    });
    const live = { ...job("v1"), metadata: { ...job("v1").metadata, resourceVersion: "3" } };
    const takeover = [{ op: "remove" as const, path: "/metadata/managedFields/0" }];
    expect(
      planEntry({ desired: job("v1"), live, dryRun: live, action: "configured", takeover }, new Redactor()),
    ).toMatchObject({ action: "update", diff: [], reason: "takes over fields set by other field managers" });
  });

  it("redact Secret values that appear outside a Secret's data", () => {
    const secret: KubeObject = {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: "s" },
      data: { p: "aHVudGVyMg==" },
    };
    const redactor = new Redactor().addObjects([secret]);
    const before = job("v1");
    const after = job("v1", { leaked: "hunter2" });
    const entry = planEntry({ desired: after, live: before, dryRun: after, action: "configured" }, redactor);
    expect(entry.diff).toEqual([{ path: "metadata.labels.leaked", after: "***" }]);
  });
});
