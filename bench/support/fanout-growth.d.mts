// Types of fanout-growth.mjs, for its unit test.
export interface PlaneMemory {
  management: number;
  tenants: number;
  perTenant: number;
  etcd: number;
}
export function pss(pid: number): number;
export function memAvailable(): number;
export function planeMemory(state: unknown): PlaneMemory;
export function fitFor(more: number, mem: PlaneMemory, available?: number): { fits: boolean; line: string };
export function fanoutGrowthLines(runs: Record<string, unknown>[]): string[];
