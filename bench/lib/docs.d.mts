// Types of docs.mjs, for the test that renders a fixed summary (test/scripts/bench-docs.test.ts).
export interface BenchSummary {
  date?: string;
  quick?: boolean;
  commit?: string | null;
  machine?: { cpus?: number; cpu?: string; node?: string };
  targets?: Record<string, { value: number | null; holds: boolean | null; limit?: string }>;
  groups?: Record<string, Record<string, unknown>>;
}
export interface ChartVariant {
  name: string;
  ratio: number;
  fields: Record<string, unknown>;
}
export interface ChartGroup {
  group: string;
  title: string;
  short: string;
  cases: { name: string; variants: ChartVariant[] }[];
}
export function chartData(summary: BenchSummary): ChartGroup[];
export function renderChart(summary: BenchSummary): string;
export function renderTables(summary: BenchSummary): string;
export function renderHeadline(summary: BenchSummary): string;
export function replaceBetween(text: string, name: string, content: string): string;
export function writeDocs(summary: BenchSummary, root: URL): void;
