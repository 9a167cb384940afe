import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type BenchSummary,
  chartData,
  renderChart,
  renderHeadline,
  renderTables,
  replaceBetween,
} from '../../bench/lib/docs.mjs';

// A small fixed summary shaped like bench/run.mjs's: a group with cases (in-process ratios to
// the floor), a loopback group whose variants sit at the top, and a group-level scalar.
const summary: BenchSummary = {
  date: '2026-01-02T03:04:05.000Z',
  commit: 'abc1234',
  machine: { cpus: 2, cpu: 'Test CPU', node: 'v20.0.0' },
  targets: { 'parsers.geomean': { value: 1.01, holds: true, limit: '<= 1.10' } },
  groups: {
    'parsers-inproc': {
      title: 'Parsers, in process: two cases',
      cases: {
        'json-100b': {
          floor: { ns: 1000, xFloor: 1 },
          'body-parser': { ns: 1350, xFloor: 1.35 },
          httpware: { ns: 1060, xFloor: 1.06 },
        },
        'text <10kb>': {
          floor: { ns: 2000, xFloor: 1 },
          'body-parser': { ns: 2140, xFloor: 1.07 },
          httpware: { ns: 1740, xFloor: 0.87 },
          protectionCost: 1.02,
        },
      },
      xFloorGeomean: 0.96,
      problems: [],
    },
    'logger-loopback': {
      bare: { rps: 19000, xRps: 1, cpuNsPerReq: 50000, xCpu: 1 },
      morgan: { rps: 13000, xRps: 0.69, cpuNsPerReq: 74500, xCpu: 1.49 },
      httpware: { rps: 14600, xRps: 0.77, cpuNsPerReq: 66000, xCpu: 1.32 },
      problems: [],
    },
  },
};

/** Checks that every tag is closed in order and that the document has one root `svg`. */
function assertWellFormed(svg: string) {
  const stack: string[] = [];
  let roots = 0;
  for (const [tag, close, name, selfClosing] of svg.matchAll(/<(\/?)([a-zA-Z]+)[^>]*?(\/?)>/g)) {
    if (close) assert.equal(stack.pop(), name, `closing ${tag}`);
    else if (!selfClosing) {
      if (stack.length === 0) roots++;
      stack.push(name as string);
    }
  }
  assert.deepEqual(stack, [], 'unclosed tags');
  assert.equal(roots, 1);
  assert.doesNotMatch(svg.replace(/&(amp|lt|gt|quot);/g, ''), /&|<(?![/a-z])/, 'unescaped text');
}

describe('the benchmark chart and tables', () => {
  it('finds every case and variant whatever the group shape', () => {
    const data = chartData(summary);
    assert.deepEqual(
      data.map((g) => [g.group, g.cases.map((c) => [c.name, c.variants.map((v) => v.name)])]),
      [
        [
          'parsers-inproc',
          [
            ['json-100b', ['floor', 'body-parser', 'httpware']],
            ['text <10kb>', ['floor', 'body-parser', 'httpware']],
          ],
        ],
        ['logger-loopback', [['logger-loopback', ['bare', 'morgan', 'httpware']]]],
      ],
    );
  });

  it('renders a well-formed SVG with a bar and a value per variant and case', () => {
    const svg = renderChart(summary);
    assertWellFormed(svg);
    assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.equal(svg.match(/<rect [^>]*height="10" fill=[^/]*><title>/g)?.length, 9);
    for (const label of ['1.35×', '0.87×', '1.49×', 'Parsers, in process', 'text &lt;10kb&gt;']) {
      assert.ok(svg.includes(label), label);
    }
  });

  it('writes one table per group and the targets', () => {
    const md = renderTables(summary);
    assert.match(md, /\| case +\| floor +\| body-parser +\| httpware +\|/);
    assert.match(md, /\| `json-100b` +\| 1\.00× +\| 1\.35× +\| 1\.06× +\|/);
    assert.match(md, /\| morgan +\| 13,000 +\| 0\.69× +\| 74,500 +\| 1\.49× +\|/);
    assert.match(md, /`xFloorGeomean`: 0\.96/);
    assert.match(md, /\| `parsers\.geomean` +\| 1\.010 +\| <= 1\.10 +\| met +\|/);
  });

  it('headlines each variant by its geometric mean over the cases', () => {
    const headline = renderHeadline(summary).replace(/\s+/g, ' ');
    assert.match(
      headline,
      /Parsers, in process \(geometric mean of json-100b, text <10kb>\): floor 1\.00×, body-parser 1\.20×, \*\*httpware 0\.96×\*\*/,
    );
    assert.match(headline, /logger-loopback: bare 1\.00×, morgan 1\.49×, \*\*httpware 1\.32×\*\*/);
  });

  it('headlines a group that names the cases of its own mean over those cases only', () => {
    const inproc = summary.groups?.['parsers-inproc'] as object;
    const named = {
      ...summary,
      groups: { 'parsers-inproc': { ...inproc, meanCases: ['json-100b'] } },
    };
    const headline = renderHeadline(named).replace(/\s+/g, ' ');
    assert.match(
      headline,
      /Parsers, in process: floor 1\.00×, body-parser 1\.35×, \*\*httpware 1\.06×\*\*/,
    );
  });

  it('says the headline comes from the project bench and where the judging bench is', () => {
    const headline = renderHeadline(summary).replace(/\s+/g, ' ');
    assert.match(headline, /from the project's bench \(`npm run bench`\)/);
    assert.match(headline, /docs\/benchmarks\.md#the-judging-bench/);
  });

  it('names the Node line the headline figures were taken on', () => {
    const headline = renderHeadline(summary).replace(/\s+/g, ' ');
    assert.match(headline, /run of [0-9-]+ on Node v20\.0\.0, commit /);
  });

  it('leaves out of the headline a variant measured on some cases only', () => {
    const groups = {
      g: {
        title: 'G',
        a: { floor: { xFloor: 1 }, httpware: { xFloor: 1.1 } },
        b: { floor: { xFloor: 1 }, httpware: { xFloor: 1.2 }, 'httpware-off': { xFloor: 1.0 } },
      },
    };
    assert.doesNotMatch(renderHeadline({ groups }), /httpware-off/);
    assert.match(renderTables({ groups }), /\| `b` +\| 1\.00× +\| 1\.20× +\| 1\.00× +\|/);
  });

  it('pads every table column to its widest cell, as the formatter writes tables', () => {
    const tables = renderTables(summary)
      .split('\n\n')
      .filter((block) => block.startsWith('|'));
    assert.ok(tables.length > 0);
    for (const table of tables) {
      const rows = table.split('\n');
      const bars = (row: string) => [...row].flatMap((ch, i) => (ch === '|' ? [i] : []));
      for (const row of rows) assert.deepEqual(bars(row), bars(rows[0] ?? ''), row);
    }
  });

  it('keeps its prose within 100 columns', () => {
    for (const text of [renderTables(summary), renderHeadline(summary)]) {
      for (const line of text.split('\n').filter((l) => !l.startsWith('|'))) {
        assert.ok(line.length <= 100, line);
      }
    }
  });

  it('replaces only what lies between the markers, and refuses a page without them', () => {
    const page = 'a\n<!-- bench:tables:start -->\nold\n<!-- bench:tables:end -->\nb\n';
    assert.equal(
      replaceBetween(page, 'tables', 'new'),
      'a\n<!-- bench:tables:start -->\nnew\n<!-- bench:tables:end -->\nb\n',
    );
    assert.throws(() => replaceBetween('no markers', 'tables', 'new'), /markers/);
  });
});
