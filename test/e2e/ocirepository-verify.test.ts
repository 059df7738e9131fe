// spec.verify with a cosign public key against a real registry: a signature pushed the way `cosign
// sign --key` does makes SourceVerified True; an unsigned artifact, or one signed by another key, is
// refused before it is pulled (SourceVerified False, VerificationError), the previous artifact kept
// and a Kustomization applying it to a tenant plane unchanged; keyless cosign is refused by name.
import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planeCluster, testNamespace } from "../support/fleet-context.js";
import { conditionOf, type OciEnv, readyOf, startOciEnv } from "../support/oci-env.js";
import { configMapYaml, pushCosignSignature, pushFiles } from "../support/oci-push.js";
import { type OciRegistry, startOciRegistry } from "../support/oci-registry.js";

const trusted = generateKeyPairSync("ec", { namedCurve: "P-256" });
const stranger = generateKeyPairSync("ec", { namedCurve: "P-256" });
let reg: OciRegistry;
let env: OciEnv;
let remote: string;
const tenant1 = planeCluster("tenant1");
const to = () => ({ host: reg.host, repository: "signed/app" });

beforeAll(async () => {
  reg = await startOciRegistry();
  env = await startOciEnv({ prefix: "oci-verify" });
  remote = await testNamespace(tenant1.client, "oci-verify");
  await env.secret("cosign-pub", {
    "cosign.pub": trusted.publicKey.export({ type: "spki", format: "pem" }).toString(),
  });
});

afterAll(async () => {
  await env?.stop();
  await reg?.stop();
});

const push = (tag: string, v: string) => pushFiles(to(), tag, { "cm.yaml": configMapYaml("signed", remote, { v }) });

describe("an OCIRepository verifying cosign signatures with a public key", () => {
  it("is SourceVerified for an artifact signed with the key; refuses unsigned and foreign-signed ones, keeping what it had", async () => {
    const good = await push("1.0.0", "1");
    await pushCosignSignature(to(), good, trusted.privateKey);
    await env.createOci("app", {
      url: `${reg.url}/signed/app`,
      ref: { tag: "1.0.0" },
      insecure: true,
      verify: { provider: "cosign", secretRef: { name: "cosign-pub" } },
    });
    const ok = await env.waitOci("app", "True");
    expect(conditionOf(ok, "SourceVerified")).toMatchObject({
      status: "True",
      reason: "Succeeded",
      message: `verified signature of revision 1.0.0@${good}`,
    });
    const secret = await env.copyAdminKubeconfig("tenant1");
    await env.createKs("app", {
      path: "./",
      sourceRef: { kind: "OCIRepository", name: "app" },
      kubeConfig: { secretRef: { name: secret, key: "admin.conf" } },
    });
    await env.waitReady("app");

    await push("1.1.0", "unsigned");
    const foreign = await push("1.2.0", "foreign");
    await pushCosignSignature(to(), foreign, stranger.privateKey);
    for (const tag of ["1.1.0", "1.2.0"]) {
      await env.patchOci("app", { ref: { tag } });
      const refused = await env.waitOci("app", "False", "VerificationError");
      const message =
        "failed to verify the signature using provider 'cosign': " +
        `no matching signatures were found for '${reg.host}/signed/app:${tag}'`;
      expect(readyOf(refused)!.message).toBe(message);
      expect(conditionOf(refused, "SourceVerified")).toMatchObject({ status: "False", reason: "VerificationError" });
      expect(refused.status!.artifact!.revision).toBe(`1.0.0@${good}`);
      // Nothing of the refused artifact reaches the tenant plane.
      await env.reconcileNow("app");
      expect((await env.getKs("app")).status?.lastAppliedRevision).toBe(`1.0.0@${good}`);
      const cm = await tenant1.client.get<{ data: Record<string, string> }>(
        `/api/v1/namespaces/${remote}/configmaps/signed`,
      );
      expect(cm.data).toEqual({ v: "1" });
    }
  });

  it("keyless cosign (no secretRef) is Stalled by name: it needs the public Sigstore", async () => {
    await env.createOci("keyless", { url: `${reg.url}/signed/app`, insecure: true, verify: { provider: "cosign" } });
    const keyless = await env.waitOci("keyless", "False", "UnsupportedField");
    expect(readyOf(keyless)!.message).toMatch(/^spec\.verify without secretRef \(keyless cosign\) is not supported/);
    expect(conditionOf(keyless, "Stalled")?.status).toBe("True");
  });
});
