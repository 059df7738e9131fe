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
export interface ErrorExpectation {
  category: string;
  kustomize: string;
  flotilla: string;
}
export const ERROR_EXPECTATION: string;
export const ERROR_CATEGORIES: Record<string, string>;
export function errorExpectation(c: { name: string; dir: string; caseDir?: string }): ErrorExpectation;
export interface KrustyCase extends ParityCase {
  caseDir: string;
  source: string;
  test: string;
}
export const KRUSTY_ROOT: string;
export const KRUSTY_DELIBERATE: Record<string, RegExp>;
export function listKrustyCases(root?: string): KrustyCase[];
export function errorMismatches(
  expected: ErrorExpectation,
  real: { status: number | null; stderr: string },
  ours: { ok: true } | { ok: false; message: string; isFlotillaError: boolean },
): string[];
export function requireTool(name: string, path: string): void;
