import { describe, expect, it } from "vitest";
import type { ReceiverSpec } from "../../api/notification/receiver.js";
import { ReconcileRequestFailed } from "./errors.js";
import { resourceFilters } from "./resource-filter.js";

describe("a Receiver's resource filter within the CEL cost limit", () => {
  it("answers a request whose filter would run for hours with an error naming the expression and the limit", () => {
    // The tenant's filter walks the webhook's body three levels deep: 27 million steps for 300 items.
    const filter = "req.items.all(a, req.items.all(b, req.items.all(c, a + b + c != '')))";
    const spec: ReceiverSpec = {
      type: "generic",
      resources: [{ apiVersion: "v1", kind: "ConfigMap", name: "*", matchLabels: { app: "x" }, filter }],
    };
    const body = Buffer.from(JSON.stringify({ items: Array.from({ length: 300 }, (_, i) => `i${i}`) }));
    const [accept] = resourceFilters(spec, "application/json", body);
    const started = Date.now();
    const run = () => accept!({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: "a", namespace: "t" } });
    expect(run).toThrow(ReconcileRequestFailed);
    expect(run).toThrow(
      `evaluating '${filter}': exceeded the CEL cost limit of 1000000 (controller flag --cel-cost-limit)`,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
