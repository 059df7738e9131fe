import { describe, expect, it } from "vitest";
import type { Kustomization } from "../../api/kustomize/kustomization.js";
import { commitStatusEvent, revisionAnnotations } from "./commit-status-event.js";

const ks = (ready: string | undefined, lastAppliedRevision?: string) =>
  ({
    apiVersion: "kustomize.toolkit.fluxcd.io/v1",
    kind: "Kustomization",
    metadata: { name: "app", namespace: "apps" },
    spec: { interval: "10m", sourceRef: { kind: "GitRepository", name: "app" }, prune: true },
    status: {
      lastAppliedRevision,
      conditions: ready ? [{ type: "Ready", status: ready, reason: "x", message: "", lastTransitionTime: "" }] : [],
    },
  }) as unknown as Kustomization;

describe("the commit-status event of a Kustomization (Flux's success event, when it is news)", () => {
  it("marks a newly applied revision with Flux's message and commit_status: update", () => {
    expect(commitStatusEvent(ks("True", "main@sha1:old"), "main@sha1:new", 1500, 600_000)).toEqual({
      reason: "ReconciliationSucceeded",
      message: "Reconciliation finished in 1.5s, next run in 10m0s",
      annotations: { "kustomize.toolkit.fluxcd.io/commit_status": "update" },
    });
  });

  it("is recorded again when Ready comes back after a failure on the same revision, not on a quiet re-apply", () => {
    expect(commitStatusEvent(ks("False", "main@sha1:a"), "main@sha1:a", 10, 60_000)).toBeDefined();
    expect(commitStatusEvent(ks("True", "main@sha1:a"), "main@sha1:a", 10, 60_000)).toBeUndefined();
    expect(commitStatusEvent(ks(undefined), undefined, 10, 60_000)).toBeUndefined();
  });

  it("every event of an attempt that reached a revision carries it, as kustomize-controller's r.event does", () => {
    expect(revisionAnnotations("main@sha1:a")).toEqual({ "kustomize.toolkit.fluxcd.io/revision": "main@sha1:a" });
    expect(revisionAnnotations(undefined)).toBeUndefined();
  });
});
