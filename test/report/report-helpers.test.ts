import { describe, expect, it } from 'vitest';
import {
  buildReliabilityChart,
  buildRiskCoverageChart,
  toUnitConfidence,
} from '../../src/report/charts/calibration-charts.js';
import { buildLatencyChart } from '../../src/report/charts/latency-chart.js';
import { drilldownAnchor, drilldownFileName, drilldownHref } from '../../src/report/drilldown-name.js';
import { toScriptJson } from '../../src/report/embed-json.js';
import { describeAutoAccept, describeComparison, significanceReason } from '../../src/report/headline.js';
import { createDiffBudget, diffTexts, MAX_DIFF_CHARS } from '../../src/report/markdown-diff.js';
import { escapeXml } from '../../src/report/reporters/junit-reporter.js';
import { describeServiceUrl, escapeMarkdown, neutraliseFormula, toSafeHref } from '../../src/render/index.js';
import { buildSummary, generateDocument } from './run-fixture.js';

describe('toScriptJson', () => {
  it('escapes <, >, & and line separators so the JSON cannot close its script element, and parses back unchanged', () => {
    const value = { a: '</script><script>alert(1)</script>', b: '<!-- x -->', c: 'a\u2028b\u2029c & d' };
    const text = toScriptJson(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('toSafeHref', () => {
  it.each([
    ['https://dash.example.com/c/1', 'https://dash.example.com/c/1'],
    ['HTTP://Dash.Example.com/a b', 'http://dash.example.com/a%20b'],
    ['javascript:alert(1)', null],
    [' JaVaScRiPt:alert(1)', null],
    ['data:text/html,<script>alert(1)</script>', null],
    ['vbscript:x', null],
    ['//evil.example/x', null],
    ['/relative', null],
    ['https://user:pw@dash.example.com/', null],
    ['', null],
  ])('%j → %j', (input, expected) => {
    expect(toSafeHref(input)).toBe(expected);
  });

  it('describes a base URL without credentials, query or fragment, and the local service in words', () => {
    expect(describeServiceUrl('https://u:p@api.example.com/v1?api_key=SECRET#x')).toBe('https://api.example.com/v1');
    expect(describeServiceUrl(null)).toBe('local reference service');
  });
});

describe('drill-down links', () => {
  it('give safe, distinct anchors to ids that differ only in case or in unsafe characters', () => {
    const ids = ['Claim-1', 'claim-1', '../../etc/passwd', '<script>', 'a/b', 'a_b', '東京', ''];
    const anchors = ids.map(drilldownAnchor);
    expect(new Set(anchors.map((n) => n.toLowerCase())).size).toBe(ids.length);
    for (const anchor of anchors) expect(anchor).toMatch(/^[A-Za-z0-9_-]*-?[0-9a-f]{10}$/);
  });

  it('place a hundred documents a file, in documents.jsonl order', () => {
    expect([0, 99, 100, 199, 100_000].map(drilldownFileName)).toEqual([
      'part-00001.html',
      'part-00001.html',
      'part-00002.html',
      'part-00002.html',
      'part-01001.html',
    ]);
    expect(drilldownHref('<script>', 150)).toBe(`drilldown/part-00002.html#${drilldownAnchor('<script>')}`);
  });
});

describe('describeComparison', () => {
  const facts = { wins: 20, losses: 4, p_holm: 0.01, significant: true };
  const decision = { alpha: 0.05, sides: 'two-sided' as const, fewest_significant: 6 };
  it('says better and significant when the evaluation called it significant', () => {
    expect(
      describeComparison({ ...facts, delta: 0.042, ci95: [0.021, 0.063] }, decision, 'the service', 'the incumbent'),
    ).toMatchObject({ verdict: 'the service is better by 4.2 points; significant', significant: true, tone: 'good' });
  });
  it('says worse but not significant when the interval includes zero', () => {
    const result = describeComparison(
      { ...facts, delta: -0.013, ci95: [-0.02, 0.004], p_holm: 0.4, significant: false },
      decision,
      'the service',
      'the incumbent',
    );
    expect(result.verdict).toBe(
      'the service is worse by 1.3 points; not significant (the 95% interval −2.0 pts to +0.4 pts includes zero)',
    );
    expect(result.tone).toBe('neutral');
  });
  it('says Holm decided for a secondary metric, and the p for the primary, when the interval excludes zero but p does not reach α', () => {
    expect(
      describeComparison(
        { ...facts, delta: -0.05, ci95: [-0.09, -0.01], p_holm: 0.08, family: 'secondary', significant: false },
        decision,
        'local',
        'incumbent',
      ).verdict,
    ).toBe('local is worse by 5.0 points; not significant after Holm among the secondary metrics');
    expect(
      describeComparison(
        { ...facts, delta: -0.05, ci95: [-0.09, -0.01], p_holm: 0.08, family: 'primary', significant: false },
        decision,
        'local',
        'incumbent',
      ).verdict,
    ).toBe('local is worse by 5.0 points; not significant (p 0.080 > α = 0.05)');
  });
  it('says too few documents differ when fewer than the decision needs do, whatever the interval', () => {
    expect(
      describeComparison(
        { delta: 0.3, ci95: [0.2, 0.4], wins: 5, losses: 0, p_holm: 0.0625, significant: false },
        decision,
        'local',
        'incumbent',
      ).verdict,
    ).toBe('local is better by 30.0 points; not significant: 5 documents differ, too few for any test at α = 0.05');
    expect(
      significanceReason({ delta: 0.3, ci95: [0.2, 0.4], wins: 1, losses: 0, p_holm: 1, significant: false }, decision),
    ).toBe('not significant: 1 document differs, too few for any test at α = 0.05');
    // The floor follows the recorded level: at α = 0.1, five documents can be enough.
    expect(
      significanceReason(
        { delta: 0.3, ci95: [0.2, 0.4], wins: 5, losses: 0, p_holm: 0.0625, significant: false },
        { ...decision, alpha: 0.01, fewest_significant: 8 },
      ),
    ).toBe('not significant: 5 documents differ, too few for any test at α = 0.01');
    // A table cell shows the interval beside the verdict: the short form.
    expect(
      significanceReason(
        { delta: 0.3, ci95: [0.2, 0.4], wins: 2, losses: 0, p_holm: 0.5, significant: false },
        decision,
        'short',
      ),
    ).toBe('not significant: too few documents differ (2)');
    expect(
      significanceReason(
        { delta: -0.01, ci95: [-0.02, 0.004], wins: 9, losses: 12, p_holm: 0.5, significant: false },
        decision,
        'short',
      ),
    ).toBe('not significant');
  });
});

describe('describeAutoAccept', () => {
  it('puts the threshold, the accuracy there and the share accepted in words', () => {
    const block = buildSummary([generateDocument(1)]).confidence.slow!;
    expect(describeAutoAccept(block)).toBe(
      'accepting documents with confidence ≥ 87 gives 96% field F1 on 71% of documents (target 95%)',
    );
    expect(describeAutoAccept({ ...block, auto_accept_threshold: null })).toMatch(
      /^no confidence threshold reaches the target of 95% field F1/,
    );
  });
  it('reads confidences above 1 as the 0–100 scale', () => {
    expect(toUnitConfidence(87)).toBe(0.87);
    expect(toUnitConfidence(0.87)).toBe(0.87);
    expect(toUnitConfidence(null)).toBeNull();
  });
});

describe('charts', () => {
  it('draw paths from numbers and path commands only', () => {
    const summary = buildSummary([generateDocument(1), generateDocument(2)]);
    const charts = [
      buildReliabilityChart('slow', summary.confidence.slow!),
      buildRiskCoverageChart('slow', summary.confidence.slow!),
      buildLatencyChart([{ key: 'extract:slow', block: summary.latency_ms['extract:slow']!, values: [2500, 3100] }])!,
    ];
    for (const chart of charts) {
      expect(chart.paths.length).toBeGreaterThan(0);
      for (const p of chart.paths) expect(p.d).toMatch(/^[ML0-9. -]+$/);
      for (const shape of [...chart.rects, ...chart.circles])
        for (const value of Object.values(shape))
          if (typeof value === 'number') expect(Number.isFinite(value)).toBe(true);
    }
    expect(charts[0]!.rects.filter((r) => r.cls === 'bar')).toHaveLength(
      summary.confidence.slow!.bins.filter((b) => b.count > 0).length,
    );
  });
});

describe('diffTexts', () => {
  it('marks words only in the output as ins and words only in the reference as del', () => {
    const { segments, note } = diffTexts('Patient: Jane Doe\nTotal: 12.50', 'Patient: Jame Doe\nTotal: 12.50 USD');
    expect(note).toBeNull();
    expect(segments.filter((s) => s.del).map((s) => s.text.trim())).toEqual(['Jane']);
    expect(segments.filter((s) => s.ins).map((s) => s.text.trim())).toEqual(['Jame', 'USD']);
    // Without the deletions it is the output; without the insertions, the reference.
    expect(
      segments
        .filter((s) => !s.del)
        .map((s) => s.text)
        .join(''),
    ).toBe('Patient: Jame Doe\nTotal: 12.50 USD');
    expect(
      segments
        .filter((s) => !s.ins)
        .map((s) => s.text)
        .join(''),
    ).toBe('Patient: Jane Doe\nTotal: 12.50');
  });
  it('cuts very long texts with a note', () => {
    const long = 'word '.repeat(MAX_DIFF_CHARS);
    const { note, segments } = diffTexts(long, long);
    expect(note).toMatch(/cut/);
    expect(segments.map((s) => s.text).join('').length).toBe(MAX_DIFF_CHARS);
  });
  it('shows very different texts plain, with a note, rather than diffing them at length', () => {
    const a = Array.from({ length: 1200 }, (_, i) => `a${i}`).join(' ');
    const b = Array.from({ length: 1200 }, (_, i) => `b${i}`).join(' ');
    const { segments, note } = diffTexts(a, b);
    expect(note).toMatch(/too different/);
    expect(segments).toEqual([{ text: b, ins: false, del: false }]);
  });
  it('shows texts plain once the highlighting budget of the report is spent', () => {
    const { segments, note } = diffTexts('a b c', 'a x c', { remainingMs: 0 });
    expect(note).toMatch(/time budget/);
    expect(segments).toEqual([{ text: 'a x c', ins: false, del: false }]);
    expect(createDiffBudget(5).remainingMs).toBe(5);
  });
});

describe('escapers', () => {
  it('escapeXml escapes markup and drops characters XML cannot hold', () => {
    expect(escapeXml(`<a href="x">'&'</a>\u0000\u0007ok\uFFFE`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;ok',
    );
  });
  it('escapeMarkdown keeps HTML and table syntax inert', () => {
    expect(escapeMarkdown('<img src=x onerror=alert(1)> | *b* [l](javascript:x)\nnext')).toBe(
      '&lt;img src=x onerror=alert(1)&gt; \\| \\*b\\* \\[l\\](javascript:x) next',
    );
  });
  it('neutraliseFormula prefixes formula starters only', () => {
    expect(neutraliseFormula('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(neutraliseFormula('@cmd')).toBe("'@cmd");
    expect(neutraliseFormula('claim-1')).toBe('claim-1');
  });
});
