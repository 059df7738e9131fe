// Types for parity-cases.mjs, for the vitest parity test.
export interface ParityCase {
  name: string;
  dir: string;
  expectError: boolean;
  unsupported: boolean;
  enableHelm: boolean;
}
export const FIXTURES_ROOT: string;
export const HELM_MARKER: string;
export function kustomizeArgs(c: ParityCase, helm: string): string[];
export function listCases(root?: string): ParityCase[];
