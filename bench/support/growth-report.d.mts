// Types of growth-report.mjs, for its unit test.
export function leastSquares(
  points: [number, number][],
): { slope: number; intercept: number; points: number } | undefined;
export interface Figures {
  finished: boolean;
  seconds?: number;
  cpu?: number;
  rss?: number;
  treeRss?: number;
  requests?: number;
  load?: string;
  capped?: boolean;
  ready?: number;
  error?: string;
}
export function figures(r: Record<string, unknown> | undefined, n: number): Figures | undefined;
export function timeCell(f: Figures | undefined, n: number, capSeconds: number): string;
export interface GrowthRow {
  n: number;
  flotilla?: Figures;
  flux?: Figures;
}
export function growthTable(kind: string, rows: GrowthRow[], caps: { flotilla: number; flux: number }): string[];
export function slopeTable(kind: string, rows: GrowthRow[]): string[];
