import { describe, expect, it } from "vitest";
import { emptyAppPlan, exitCodeOf, type FleetPlan } from "../../../fleet/plan/types.js";
import { planMarkdown, planText } from "./plan-text.js";

function fleetPlan(): FleetPlan {
  const t1 = emptyAppPlan("fleet/tenant1", "Kustomization", "fleet", "apps-tenant1", "FleetKustomization fleet/apps");
  t1.change.push({ subject: "ConfigMap/app/info", diff: [{ path: "data.color", before: "blue", after: "green" }] });
  t1.prune.push("ConfigMap/app/old");
  t1.unchanged = 3;
  const mgmt = emptyAppPlan(
    "management",
    "Kustomization",
    "flux-system",
    "infra",
    "reads GitRepository/flux-system/platform",
  );
  mgmt.unchanged = 5;
  return { mode: "online", sources: ["GitRepository/flux-system/platform=/src"], apps: [t1, mgmt], caveats: [] };
}

describe("the plan's output", () => {
  it("text: per cluster (management first), per app, the objects, then the summary table", () => {
    const text = planText(fleetPlan());
    expect(text).toContain(
      [
        "cluster management",
        "  1 app with no change",
        "",
        "cluster fleet/tenant1",
        "  Kustomization/fleet/apps-tenant1 (FleetKustomization fleet/apps)",
        "    ~ ConfigMap/app/info",
        "      data.color",
        "        - blue",
        "        + green",
        "    - ConfigMap/app/old (pruned)",
        "    = 3 unchanged",
      ].join("\n"),
    );
    expect(text).toContain("Summary: 0 to create, 1 to change, 1 to prune, 0 errors, on 1 of 2 clusters\n");
    expect(text).toMatch(/CLUSTER\s+\tAPP\s+\tCREATE\tCHANGE\tPRUNE\tUNCHANGED\tERRORS \n/);
  });

  it("markdown: the summary first, a section per cluster, each app's objects in a diff block", () => {
    const md = planMarkdown(fleetPlan());
    expect(md.indexOf("| Cluster | App |")).toBeLessThan(md.indexOf("### Cluster `management`"));
    expect(md).toContain("| fleet/tenant1 | Kustomization/fleet/apps-tenant1 | 0 | 1 | 1 | 3 | 0 |");
    expect(md).toContain(
      "```diff\n! ConfigMap/app/info\n  data.color\n-   blue\n+   green\n- ConfigMap/app/old (pruned)\n= 3 unchanged\n```",
    );
  });

  it("exits as flux diff does: 0 no change, 1 changes, 2 an apply would fail", () => {
    const p = fleetPlan();
    expect(exitCodeOf(p)).toBe(1);
    expect(exitCodeOf({ ...p, apps: [p.apps[1]!] })).toBe(0);
    p.apps[1]!.errors.push({ subject: "Role/app/x", message: "forbidden" });
    expect(exitCodeOf(p)).toBe(2);
  });
});
