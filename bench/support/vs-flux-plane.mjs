// For bench/vs-flux.bench.mjs: the plane side. Each controller run has an identity of its own (a client
// certificate from the plane's CA: user vs-flux-<tool>-<run>, group vs-flux:<tool>, cluster-admin through
// kubeadm:cluster-admins) and API Priority and Fairness FlowSchemas for that group, one per verb, in the
// exempt priority level (no APF queueing for either tool): apiserver_flowcontrol_dispatched_requests_total
// then counts the controllers' own requests by verb, without the benchmark's creates and polls.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { until } from "./controller-bench.mjs";

const { renderKubeconfig } = await import("../../dist/local/kubeconfig-file.js");
const { generateKeyPair, issueCertificate, keyPairFromPem } = await import("../../dist/local/pki/certificate.js");
const { planeCaSubject } = await import("../../dist/local/pki/plane-pki.js");

const FS = "/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas";
export const VERBS = ["get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"];
const schema = (tool, verb) => `vs-flux-${tool}-${verb}`;

/** A kubeconfig file for user `user` in groups kubeadm:cluster-admins and `group`, signed by the plane's CA. */
export function issueIdentity({ pki, planeName, server, user, group, file }) {
  const issuer = {
    subject: planeCaSubject(planeName),
    keys: keyPairFromPem(readFileSync(join(pki, "ca.key"), "utf8")),
  };
  const subject = { commonName: user, organizations: ["kubeadm:cluster-admins", group] };
  const cert = issueCertificate({ subject, validityDays: 1, clientAuth: true }, generateKeyPair(), issuer);
  const caPem = readFileSync(join(pki, "ca.crt"), "utf8");
  const { certificatePem: certPem, privateKeyPem: keyPem } = cert;
  writeFileSync(file, renderKubeconfig({ clusterName: planeName, server, caPem, userName: user, certPem, keyPem }));
  return file;
}

/** The FlowSchemas of group vs-flux:<tool>: one per verb, and "other" (non-resource URLs, anything else). */
export async function createFlowSchemas(admin, tool) {
  const subjects = [{ kind: "Group", group: { name: `vs-flux:${tool}` } }];
  const all = { apiGroups: ["*"], resources: ["*"], clusterScope: true, namespaces: ["*"] };
  const make = (name, precedence, rule) =>
    admin.create(FS, {
      metadata: { name },
      spec: { priorityLevelConfiguration: { name: "exempt" }, matchingPrecedence: precedence, rules: [rule] },
    });
  for (const [k, verb] of VERBS.entries())
    await make(schema(tool, verb), 500 + k, { subjects, resourceRules: [{ verbs: [verb], ...all }] });
  await make(schema(tool, "other"), 520, {
    subjects,
    resourceRules: [{ verbs: ["*"], ...all }],
    nonResourceRules: [{ verbs: ["*"], nonResourceURLs: ["*"] }],
  });
}

/** Waits until a request as `client` is counted under the tool's FlowSchemas (they are in effect). */
export async function untilCounted(admin, client, tool) {
  await until(
    `the FlowSchemas of ${tool} in effect`,
    async () => (await client.get("/version"), (await scrape(admin)).flow.get(`${tool} other`) > 0),
    30_000,
    250,
  );
}

/**
 * One reading of the apiserver's /metrics: `flow` (the tools' dispatched requests, "<tool> <verb>"),
 * `all` (apiserver_request_total of every client, "<verb> <resource>[/<subresource>]"), and its start.
 */
export async function scrape(admin) {
  const text = await admin.get("/metrics");
  const flow = new Map();
  const all = new Map();
  let start = 0;
  const add = (m, k, v) => m.set(k, (m.get(k) ?? 0) + v);
  for (const line of text.split("\n")) {
    const value = Number(line.slice(line.lastIndexOf(" ") + 1));
    if (line.startsWith("process_start_time_seconds ")) start = value;
    const isFlow = line.startsWith("apiserver_flowcontrol_dispatched_requests_total{");
    if (!isFlow && !line.startsWith("apiserver_request_total{")) continue;
    const l = Object.fromEntries([...line.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (isFlow) {
      const m = /^vs-flux-(\w+)-(\w+)$/.exec(l.flow_schema ?? "");
      if (m) add(flow, `${m[1]} ${m[2]}`, value);
    } else if (!l.dry_run) add(all, `${l.verb} ${l.resource}${l.subresource ? `/${l.subresource}` : ""}`, value);
  }
  return { flow, all, start };
}

/** after − before, per key. */
export const delta = (before, after) =>
  new Map([...after].map(([k, v]) => [k, v - (before.get(k) ?? 0)]).filter(([, v]) => v > 0));

/**
 * Removes a run: with its controllers stopped nothing else drops the finalizers on its objects, so
 * they are dropped, then its namespaces are deleted and awaited (the next run starts on the same plane).
 */
export async function removeRun(admin, namespaces, kinds) {
  for (const ns of namespaces)
    for (const path of kinds.map((k) => k(ns))) {
      const list = await admin.get(path).catch(() => ({ items: [] }));
      await Promise.all(
        list.items
          .filter((o) => o.metadata.finalizers?.length)
          .map((o) => admin.patch(`${path}/${o.metadata.name}`, "merge", { metadata: { finalizers: null } })),
      ).catch(() => {});
    }
  for (const ns of namespaces) await admin.delete(`/api/v1/namespaces/${ns}`).catch(() => {});
  await until(
    `namespaces ${namespaces.join(", ")} gone`,
    async () => {
      for (const ns of namespaces)
        if (
          await admin.get(`/api/v1/namespaces/${ns}`).then(
            () => true,
            (e) => e.name !== "NotFoundError",
          )
        )
          return false;
      return true;
    },
    10 * 60_000,
  );
}
