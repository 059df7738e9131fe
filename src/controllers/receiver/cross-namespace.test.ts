import { describe, expect, it } from "vitest";
import type { ReceiverSpec } from "../../api/notification/receiver.js";
import { crossNamespacePolicy } from "./cross-namespace.js";
import { refusal } from "./reconciler.js";

const spec = (resources: ReceiverSpec["resources"]): ReceiverSpec => ({
  type: "generic",
  secretRef: { name: "token" },
  resources,
});

describe("which namespaces a Receiver may name", () => {
  it("its own only by default: an entry naming another is Stalled AccessDenied, naming the entry and the flag", () => {
    const f = refusal(
      spec([
        { kind: "GitRepository", name: "mine" },
        { kind: "GitRepository", name: "theirs", namespace: "tenant-b" },
      ]),
      "tenant-a",
      crossNamespacePolicy({}),
    )!;
    expect(f.stalled).toBe(true);
    expect(f.reason).toBe("AccessDenied");
    expect(f.message).toBe(
      'spec.resources[1] names GitRepository "tenant-b/theirs" in another namespace: a Receiver may only ask objects in its own namespace "tenant-a" to reconcile (the controller allows it only with --receiver-allow-cross-namespace)',
    );
  });

  it("its own namespace written out, or no namespace, is accepted", () => {
    const own = spec([
      { kind: "GitRepository", name: "a", namespace: "tenant-a" },
      { kind: "GitRepository", name: "*", matchLabels: { app: "x" } },
    ]);
    expect(refusal(own, "tenant-a", crossNamespacePolicy({}))).toBeUndefined();
  });

  it("--receiver-allow-cross-namespace allows another namespace; --no-cross-namespace-refs refuses it regardless", () => {
    const other = spec([{ kind: "GitRepository", name: "*", namespace: "tenant-b", matchLabels: { app: "x" } }]);
    expect(refusal(other, "tenant-a", crossNamespacePolicy({ receiverAllowCrossNamespace: true }))).toBeUndefined();
    const locked = refusal(
      other,
      "tenant-a",
      crossNamespacePolicy({ receiverAllowCrossNamespace: true, noCrossNamespaceRefs: true }),
    )!;
    expect(locked.message).toContain("(the controller runs with --no-cross-namespace-refs)");
  });
});
