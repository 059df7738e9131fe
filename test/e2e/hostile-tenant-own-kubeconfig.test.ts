// A tenant writing its own kubeConfig Secret that points back at the MANAGEMENT cluster, hoping the
// controller lends it more than it has. The rule (src/controllers/kit/target-cluster.ts,
// src/kube/kubeconfig.ts): a remote apply uses exactly the credentials in the Secret — never the
// controller's own — and on top impersonates spec.serviceAccountName (else --default-service-account)
// of the Kustomization's namespace; a kubeconfig from a Secret may not run programs, skip TLS
// verification, or name files on the controller's disk. So a tenant's own service-account token
// gets that account's rights, no credentials get system:anonymous's, and a tokenFile pointing at the
// controller's own token is refused before any request leaves.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endpointFromKubeconfigFile } from "../../src/kube/kubeconfig.js";
import { eventually, plane } from "../support/fleet-context.js";
import {
  clusterAdminBindingYaml,
  type HostileFleet,
  logText,
  mgmt,
  startHostileFleet,
} from "../support/hostile-tenants.js";
import { makeWorkDir } from "../../src/util/work-dir.js";

let f: HostileFleet;
let ns: string;
const management = endpointFromKubeconfigFile(plane("management").kubeconfig);

/** A kubeconfig (JSON is YAML) for `server` with the given user entry. */
const kubeconfig = (server: string, user: Record<string, unknown>) =>
  JSON.stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [
      {
        name: "mgmt",
        cluster: { server, "certificate-authority-data": Buffer.from(management.caPem!).toString("base64") },
      },
    ],
    users: [{ name: "tenant", user }],
    contexts: [{ name: "tenant", context: { cluster: "mgmt", user: "tenant" } }],
    "current-context": "tenant",
  });

const writeKubeconfigSecret = (name: string, text: string) =>
  mgmt.client.create(`/api/v1/namespaces/${ns}/secrets`, { metadata: { name }, stringData: { value: text } });

const rbac = "rbac.authorization.k8s.io";
const clusterAdminBinding = (ns: string) =>
  clusterAdminBindingYaml("ClusterRoleBinding", `${ns}-via-own-kubeconfig`, ns);

beforeAll(async () => {
  f = await startHostileFleet("ownkc");
  ns = f.attacker.ns;
  await f.attacker.commit({
    "allowed/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: via-own-kubeconfig\n",
    "escalate/crb.yaml": clusterAdminBinding(ns),
  });
}, 240_000);

afterAll(async () => {
  await f?.stop();
});

describe("a tenant's own kubeconfig Secret pointing at the management cluster", () => {
  it("with its own service-account token: applies what that account may, and is Forbidden, as that account, beyond it", async () => {
    // The tenant's own credential: a token of its namespace's default account (edit in its namespace).
    const token = await eventually("a token of the tenant's default ServiceAccount", () =>
      mgmt.client.create<{ status: { token: string } }>(`/api/v1/namespaces/${ns}/serviceaccounts/default/token`, {
        apiVersion: "authentication.k8s.io/v1",
        kind: "TokenRequest",
        spec: { expirationSeconds: 3600 },
      }),
    );
    await writeKubeconfigSecret("own-token", kubeconfig(management.server, { token: token.status.token }));
    await f.attacker.createKs("own-token-allowed", {
      path: "./allowed",
      targetNamespace: ns,
      kubeConfig: { secretRef: { name: "own-token" } },
    });
    await f.attacker.waitReady("own-token-allowed");
    expect(await mgmt.client.get(`/api/v1/namespaces/${ns}/configmaps/via-own-kubeconfig`)).toBeDefined();

    await f.attacker.createKs("own-token-escalate", {
      path: "./escalate",
      kubeConfig: { secretRef: { name: "own-token" } },
    });
    const failed = await f.attacker.waitNotReady("own-token-escalate", "ReconciliationFailed");
    expect(failed.message).toContain(`clusterrolebindings.${rbac} "${ns}-via-own-kubeconfig" is forbidden`);
    expect(failed.message).toContain(`User "system:serviceaccount:${ns}:default" cannot`);
    expect(
      await mgmt.client.get(`/apis/${rbac}/v1/clusterrolebindings/${ns}-via-own-kubeconfig`).catch(() => undefined),
    ).toBeUndefined();
    await f.bystanderKeepsReconciling();
  });

  it("with no credentials: the API sees system:anonymous, which may not even impersonate the default account", async () => {
    await writeKubeconfigSecret("anonymous", kubeconfig(management.server, {}));
    await f.attacker.createKs("anonymous", {
      path: "./allowed",
      targetNamespace: ns,
      kubeConfig: { secretRef: { name: "anonymous" } },
    });
    const failed = await f.attacker.waitNotReady("anonymous");
    expect(failed.message).toMatch(/system:anonymous|Unauthorized/);
    expect((await f.attacker.getKs("anonymous")).status?.inventory?.entries ?? []).toEqual([]);
    await f.bystanderKeepsReconciling();
  });

  it("naming the controller's own token file (tokenFile): refused before any request, the token goes nowhere", async () => {
    // Stands in for /var/run/secrets/kubernetes.io/serviceaccount/token inside the controller's pod.
    const controllerToken = `controller-own-token-${randomBytes(12).toString("hex")}`;
    const tokenFile = join(makeWorkDir("hostile-token-"), "token");
    writeFileSync(tokenFile, controllerToken);
    // The tenant's "cluster": a listener recording what reaches it.
    const received: string[] = [];
    const listener = createServer((req, res) => {
      received.push(`${req.method} ${req.url} ${req.headers.authorization ?? ""}`);
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    try {
      const server = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
      await writeKubeconfigSecret("token-file", kubeconfig(server, { tokenFile }));
      await f.attacker.createKs("token-file", {
        path: "./allowed",
        targetNamespace: ns,
        kubeConfig: { secretRef: { name: "token-file" } },
      });
      const failed = await f.attacker.waitNotReady("token-file", "ReconciliationFailed");
      expect(failed.message).toContain(
        `kubeconfig secret ${ns}/token-file: user "tenant" names a file (tokenFile), which is refused`,
      );
      const ks = await f.attacker.getKs("token-file");
      expect(ks.status?.conditions?.find((c) => c.type === "Stalled")?.status).toBe("True");
      // A later reconcile of another tenant proves time passed with the controller at work; still nothing arrived.
      await f.bystanderKeepsReconciling();
      expect(received).toEqual([]);
      expect(JSON.stringify([ks, await f.attacker.events(), logText(f.controller)])).not.toContain(controllerToken);
    } finally {
      listener.close();
    }
  });
});
