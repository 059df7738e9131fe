// SOPS decryption end to end on real planes: a Git repository holding a Secret manifest encrypted by
// the real sops (age, encrypted_regex) and an encrypted secretGenerator env file, reconciled onto the
// management plane and onto tenant1 through its kubeconfig Secret; postBuild substituteFrom of the
// decrypted Secret; bad input (wrong key, missing key Secret, tampered file, cloud KMS credentials)
// fails naming the file or Secret and leaves the applied Secret as it was; plaintext never reaches
// status or events; another namespace's key Secret never decrypts these files.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { USED_KINDS } from "../../src/api/kinds.js";
import { pathOf } from "../../src/api/paths.js";
import { planeCluster } from "../support/fleet-context.js";
import { type KustomizeHarness, startKustomizeHarness } from "../support/kustomize-harness.js";
import { type AgeIdentity, newAgeIdentity, sopsEncrypt } from "../support/sops.js";

let h: KustomizeHarness;
let age: AgeIdentity;
let other: AgeIdentity;
const PLAINTEXTS = ["hunter2-db-password", "env-api-token-42", "eu-sops-1"];

const secretYaml = (name: string, password: string) =>
  `apiVersion: v1\nkind: Secret\nmetadata:\n  name: ${name}\ntype: Opaque\nstringData:\n  password: ${password}\n  region: eu-sops-1\n`;
const encrypt = (plain: string, file: string, extra: string[] = []) =>
  sopsEncrypt(plain, file, ["--age", age.recipient, ...extra]).toString("utf8");
const kustomization = (resources: string[], env: string) =>
  `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n${resources.map((r) => `  - ${r}\n`).join("")}` +
  `secretGenerator:\n  - name: app-env\n    envs:\n      - ${env}\n    options:\n      disableNameSuffixHash: true\n`;
const keySecret = (ns: string, name: string, data: Record<string, string>) =>
  h.mgmt.client.create(pathOf(USED_KINDS.Secret, ns), {
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name, namespace: ns },
    stringData: data,
  });
const secretValue = async (ns: string, name: string, key: string, cluster = h.mgmt) => {
  const s = await cluster.client.get<{ data: Record<string, string> }>(pathOf(USED_KINDS.Secret, ns, name));
  return Buffer.from(s.data[key]!, "base64").toString("utf8");
};
const regex = ["--encrypted-regex", "^(data|stringData)$"];

beforeAll(async () => {
  age = newAgeIdentity();
  other = newAgeIdentity();
  h = await startKustomizeHarness({ prefix: "sops" });
  await keySecret(h.ns, "sops-age", { "age.agekey": age.file });
  await h.commit(
    {
      "app/kustomization.yaml": kustomization(["db.enc.yaml"], "app.enc.env"),
      "app/db.enc.yaml": encrypt(secretYaml("db", "hunter2-db-password"), "db.yaml", regex),
      "app/app.enc.env": encrypt("API_TOKEN=env-api-token-42\nMODE=prod\n", "app.env"),
      "vars/settings.yaml":
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  region: ${region}\n",
      "tamper/kustomization.yaml": kustomization(["db.enc.yaml"], "app.enc.env"),
      "tamper/db.enc.yaml": encrypt(secretYaml("tamper-db", "first-password"), "db.yaml", regex),
      "tamper/app.enc.env": encrypt("API_TOKEN=first-token\n", "app.env"),
    },
    "encrypted secrets",
  );
}, 120_000);

afterAll(async () => {
  await h?.stop();
});

/** Neither the Kustomization's status nor any event in the namespace carries a plaintext. */
async function expectNoPlaintext(name: string) {
  const status = JSON.stringify((await h.getKs(name)).status);
  const events = JSON.stringify(await h.mgmt.client.get(`/api/v1/namespaces/${h.ns}/events`));
  for (const p of [...PLAINTEXTS, "first-password", "first-token"]) {
    expect(status).not.toContain(p);
    expect(events).not.toContain(p);
  }
}

describe("SOPS decryption (spec.decryption)", () => {
  it("decrypts an encrypted Secret manifest and an encrypted secretGenerator env file onto the management plane", async () => {
    await h.createKs("app", {
      path: "./app",
      targetNamespace: h.ns,
      decryption: { provider: "sops", secretRef: { name: "sops-age" } },
    });
    await h.waitReady("app");
    expect(await secretValue(h.ns, "db", "password")).toBe("hunter2-db-password");
    expect(await secretValue(h.ns, "app-env", "API_TOKEN")).toBe("env-api-token-42");
    expect(await secretValue(h.ns, "app-env", "MODE")).toBe("prod");
    await expectNoPlaintext("app");
  });

  it("substitutes postBuild variables from the decrypted Secret (Flux's cluster-secrets pattern)", async () => {
    await h.createKs("vars", {
      path: "./vars",
      targetNamespace: h.ns,
      dependsOn: [{ name: "app" }],
      postBuild: { substituteFrom: [{ kind: "Secret", name: "db" }] },
    });
    await h.waitReady("vars");
    const cm = await h.mgmt.client.get<{ data: Record<string, string> }>(
      pathOf(USED_KINDS.ConfigMap, h.ns, "settings"),
    );
    expect(cm.data.region).toBe("eu-sops-1");
  });

  it("decrypts onto a tenant plane through its kubeconfig Secret", async () => {
    const secret = await h.copyAdminKubeconfig("tenant1");
    await h.createKs("remote", {
      path: "./app",
      targetNamespace: "default",
      namePrefix: `${h.ns}-`,
      kubeConfig: { secretRef: { name: secret, key: "admin.conf" } },
      decryption: { provider: "sops", secretRef: { name: "sops-age" } },
    });
    await h.waitReady("remote");
    const tenant1 = planeCluster("tenant1");
    expect(await secretValue("default", `${h.ns}-db`, "password", tenant1)).toBe("hunter2-db-password");
    expect(await secretValue("default", `${h.ns}-app-env`, "API_TOKEN", tenant1)).toBe("env-api-token-42");
    await tenant1.client.delete(pathOf(USED_KINDS.Secret, "default", `${h.ns}-db`));
    await tenant1.client.delete(pathOf(USED_KINDS.Secret, "default", `${h.ns}-app-env`));
  });

  it("a wrong key fails naming the file and what to do, applying nothing", async () => {
    await keySecret(h.ns, "wrong-age", { "age.agekey": other.file });
    await h.createKs("wrong", {
      path: "./app",
      targetNamespace: h.ns,
      namePrefix: "wrong-",
      decryption: { provider: "sops", secretRef: { name: "wrong-age" } },
    });
    const failed = await h.waitNotReady("wrong", "BuildFailed");
    expect(failed.message).toMatch(
      /^failed to decrypt app\/app\.enc\.env: .*check that spec\.decryption\.secretRef holds/,
    );
    expect(
      await h.mgmt.get({ apiVersion: "v1", kind: "Secret", metadata: { name: "wrong-db", namespace: h.ns } }),
    ).toBeUndefined();
    await expectNoPlaintext("wrong");
  });

  it("a missing key Secret fails naming it and how to create it", async () => {
    await h.createKs("nokey", {
      path: "./app",
      targetNamespace: h.ns,
      decryption: { provider: "sops", secretRef: { name: "not-there" } },
    });
    const failed = await h.waitNotReady("nokey", "BuildFailed");
    expect(failed.message).toBe(
      `decryption Secret '${h.ns}/not-there' not found: create it with the age key ` +
        `(\`kubectl create secret generic not-there -n ${h.ns} --from-file=age.agekey=<key file>\`) or an OpenPGP key (*.asc)`,
    );
  });

  it("cloud key service credentials in the decryption Secret are refused by name, Stalled", async () => {
    await keySecret(h.ns, "kms-creds", { "sops.aws-kms": "aws_access_key_id: x\n" });
    await h.createKs("kms", { path: "./app", decryption: { provider: "sops", secretRef: { name: "kms-creds" } } });
    const failed = await h.waitNotReady("kms", "BuildFailed");
    expect(failed.message).toContain("entry 'sops.aws-kms' holds AWS KMS credentials, which flotilla does not support");
    const stalled = (await h.getKs("kms")).status?.conditions?.find((c) => c.type === "Stalled");
    expect(stalled?.status).toBe("True");
  });

  it("a tampered file fails naming it, and the Secret applied before stays as it was", async () => {
    await h.createKs("tamper", {
      path: "./tamper",
      targetNamespace: h.ns,
      decryption: { provider: "sops", secretRef: { name: "sops-age" } },
    });
    await h.waitReady("tamper");
    const flip = (t: string) =>
      t.replace(/(API_TOKEN=ENC\[AES256_GCM,data:)(.)/, (_, p: string, c: string) => p + (c === "A" ? "B" : "A"));
    await h.commit(
      {
        "tamper/db.enc.yaml": encrypt(secretYaml("tamper-db", "second-password"), "db.yaml", regex),
        "tamper/app.enc.env": flip(encrypt("API_TOKEN=second-token\n", "app.env")),
      },
      "tampered env file",
    );
    await h.reconcileNow("tamper");
    const failed = await h.waitNotReady("tamper", "BuildFailed");
    expect(failed.message).toMatch(/^failed to decrypt tamper\/app\.enc\.env: /);
    expect(await secretValue(h.ns, "tamper-db", "password")).toBe("first-password");
    expect(await secretValue(h.ns, "app-env", "API_TOKEN")).not.toBe("second-token");
    await expectNoPlaintext("tamper");
  });

  it("hostile: another namespace's Kustomization cannot use this namespace's key Secret, nor open these files with its own key", async () => {
    const tenant = await h.addNamespace("sops-other");
    await tenant.createKs("borrow", {
      path: "./app",
      targetNamespace: tenant.ns,
      decryption: { provider: "sops", secretRef: { name: "sops-age" } },
    });
    expect((await tenant.waitNotReady("borrow", "BuildFailed")).message).toMatch(
      new RegExp(`^decryption Secret '${tenant.ns}/sops-age' not found`),
    );
    await keySecret(tenant.ns, "own-age", { "age.agekey": other.file });
    await tenant.createKs("own", {
      path: "./app",
      targetNamespace: tenant.ns,
      decryption: { provider: "sops", secretRef: { name: "own-age" } },
    });
    expect((await tenant.waitNotReady("own", "BuildFailed")).message).toMatch(/^failed to decrypt app\/app\.enc\.env/);
    const secrets = await h.mgmt.client.get<{ items: { metadata: { name: string } }[] }>(
      `/api/v1/namespaces/${tenant.ns}/secrets`,
    );
    expect(secrets.items.map((s) => s.metadata.name).sort()).toEqual(["own-age"]);
  });
});
