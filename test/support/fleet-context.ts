// What tests get from the shared fleet, and helpers that keep each test in its own namespaces.
import { randomBytes } from "node:crypto";
import { afterAll, inject } from "vitest";
import { KubeClient } from "../../src/kube/client.js";
import { Cluster } from "../../src/kube/cluster.js";
import { NotFoundError } from "../../src/kube/errors.js";
import { endpointFromKubeconfigFile } from "../../src/kube/kubeconfig.js";
import type { FleetState, PlaneRecord } from "../../src/local/index.js";

export interface TestFleet {
  dir: string;
  state: FleetState;
}

declare module "vitest" {
  export interface ProvidedContext {
    fleet: TestFleet;
  }
}

export function testFleet(): TestFleet {
  return inject("fleet");
}

export function plane(name: string): PlaneRecord {
  const found = testFleet().state.planes.find((p) => p.name === name);
  if (!found) throw new Error(`no plane ${name} in the test fleet`);
  return found;
}

/** Admin client of a plane, through the kubeconfig a user would use. */
export function adminClient(name: string): KubeClient {
  return new KubeClient(endpointFromKubeconfigFile(plane(name).kubeconfig));
}

/**
 * Creates a namespace with a unique name on the plane and deletes it after the file's tests,
 * so tests sharing the fleet never see each other's objects.
 */
export async function testNamespace(client: KubeClient, prefix: string): Promise<string> {
  const name = `${prefix}-${randomBytes(3).toString("hex")}`;
  await client.create("/api/v1/namespaces", {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: { name, labels: { "flotilla.dev/test": "true" } },
  });
  afterAll(async () => {
    await client.delete(`/api/v1/namespaces/${name}`).catch((err) => {
      if (!(err instanceof NotFoundError)) throw err;
    });
  });
  return name;
}

export async function eventually<T>(
  what: string,
  fn: () => Promise<T | undefined | false>,
  timeoutMs = 60_000,
  intervalMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await fn();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`timed out waiting for ${what}${last instanceof Error ? `: ${last.message}` : ""}`);
}

/** A Cluster (client + discovery) for a plane's admin kubeconfig. */
export function planeCluster(name: string): Cluster {
  return new Cluster(endpointFromKubeconfigFile(plane(name).kubeconfig));
}
