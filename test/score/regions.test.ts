import { describe, expect, it } from 'vitest';
import { aggregateRegions, checkBox, computeIoU, scoreRegions } from '../../src/score/regions/index.js';
import type { InchBox, RegionPage } from '../../src/service/types.js';

const box = (min_x: number, min_y: number, max_x: number, max_y: number): InchBox => ({ min_x, min_y, max_x, max_y });
/** A US-letter page (612 × 792 pt = 8.5 × 11 in). */
const page = (number: number, boxes: [InchBox, string][]): RegionPage => ({
  page: number,
  width: 612,
  height: 792,
  bounding_boxes: boxes.map(([bounding_box, content]) => ({ bounding_box, content })),
});

describe('computeIoU and checkBox', () => {
  it('computes intersection over union', () => {
    expect(computeIoU(box(0, 0, 2, 2), box(0, 0, 2, 2))).toBe(1);
    expect(computeIoU(box(0, 0, 2, 2), box(1, 0, 3, 2))).toBeCloseTo(2 / 6, 12);
    expect(computeIoU(box(0, 0, 1, 1), box(1, 1, 2, 2))).toBe(0);
  });

  it('rejects non-finite, empty and off-page boxes, allowing a small overshoot', () => {
    expect(checkBox(box(0, 0, Number.NaN, 1), 612, 792, 2 / 72)).toBe('not-finite');
    expect(checkBox(box(1, 1, 1, 2), 612, 792, 2 / 72)).toBe('not-positive-size');
    expect(checkBox(box(2, 1, 1, 2), 612, 792, 2 / 72)).toBe('not-positive-size');
    expect(checkBox(box(0, 0, 9, 1), 612, 792, 2 / 72)).toBe('outside-page');
    expect(checkBox(box(-0.01, 0, 8.51, 11.01), 612, 792, 2 / 72)).toBeNull();
    // page size unknown: only the box itself is checked
    expect(checkBox(box(0, 0, 90, 1), 0, 0, 2 / 72)).toBeNull();
  });
});

describe('scoreRegions', () => {
  const truth = [
    page(1, [
      [box(1, 1, 3, 2), 'Invoice 123'],
      [box(1, 3, 5, 4), 'Total: $12.50'],
      [box(1, 5, 5, 6), 'Thank you'],
    ]),
  ];

  it('scores a perfect prediction 1 everywhere', () => {
    const score = scoreRegions(truth, truth);
    expect(score.at50).toEqual({ precision: 1, recall: 1, f1: 1, truePositives: 3 });
    expect(score.at75.f1).toBe(1);
    expect(score.meanIoU).toBe(1);
    expect(score.charAccuracy).toBe(1);
  });

  it('counts a match as a true positive only at thresholds its IoU reaches', () => {
    // box 1 shifted: IoU = 1.5·1 / (2 + 2 − 1.5) = 0.6; box 2 exact; box 3 missed; one spurious box
    const predicted = [
      page(1, [
        [box(1.5, 1, 3.5, 2), 'Invoice 123'],
        [box(1, 3, 5, 4), 'Total: 12.5'],
        [box(6, 8, 7, 9), 'Page 1'],
      ]),
    ];
    const score = scoreRegions(predicted, truth);
    expect(score.matches).toBe(2);
    expect(score.at50).toMatchObject({ truePositives: 2, precision: 2 / 3, recall: 2 / 3 });
    expect(score.at75).toMatchObject({ truePositives: 1, precision: 1 / 3, recall: 1 / 3 });
    expect(score.at75.f1).toBeCloseTo(1 / 3, 12);
    expect(score.meanIoU).toBeCloseTo((0.6 + 1) / 2, 12);
    // text of pairs with IoU ≥ 0.5, normalised: "Invoice123"=, "Total1250" vs "Total125" 1 edit / 9;
    // unmatched: truth "Thankyou" (8) and predicted "Page1" (5)
    expect(score).toMatchObject({ matchedEdits: 1, matchedLength: 10 + 9, unmatchedLength: 8 + 5 });
    expect(score.charAccuracy).toBeCloseTo(1 - (1 + 13) / (19 + 13), 12);
  });

  it('matches one-to-one by Hungarian assignment, not greedily', () => {
    // P0 overlaps T0 and T1 equally (IoU 0.82): greedy could take P0–T1 and leave P1 with T0 (0.54);
    // the assignment maximises the total IoU with P0–T0 and P1–T1 (0.82 each)
    const t = [
      page(1, [
        [box(0, 0, 2, 1), 'a'],
        [box(0.4, 0, 2.4, 1), 'b'],
      ]),
    ];
    const p = [
      page(1, [
        [box(0.2, 0, 2.2, 1), 'a'],
        [box(0.6, 0, 2.6, 1), 'b'],
      ]),
    ];
    const score = scoreRegions(p, t);
    expect(score.matchList.map((m) => [m.truthIndex, m.predictedIndex])).toEqual([
      [0, 0],
      [1, 1],
    ]);
    expect(score.at50.truePositives).toBe(2);
  });

  it('does not count disjoint boxes as matches, even when the assignment pairs them', () => {
    const score = scoreRegions([page(1, [[box(5, 5, 6, 6), 'x']])], [page(1, [[box(0, 0, 1, 1), 'x']])]);
    expect(score.matches).toBe(0);
    expect(score.meanIoU).toBeNull();
    expect(score.at50.f1).toBe(0);
    expect(score.charAccuracy).toBe(0);
  });

  it('excludes invalid predicted boxes from matching but counts them as unmatched predictions', () => {
    const predicted = [
      page(1, [
        [box(1, 1, 3, 2), 'Invoice 123'],
        [box(1, 3, 5, 4), 'Total: $12.50'],
        [box(1, 5, 5, 6), 'Thank you'],
        [box(3, 3, 1, 4), 'inverted'],
        [box(1, 1, 20, 2), 'off the page'],
      ]),
    ];
    const score = scoreRegions(predicted, truth);
    expect(score.invalidPredictedBoxes).toBe(2);
    expect(score.invalidBoxes.map((b) => b.problem)).toEqual(['not-positive-size', 'outside-page']);
    expect(score.predictedBoxes).toBe(5);
    expect(score.at50.precision).toBe(3 / 5);
    expect(score.at50.recall).toBe(1);
    expect(score.unmatchedLength).toBe('inverted'.length + 'offthepage'.length);
  });

  it('leaves invalid truth boxes out of scoring and reports them', () => {
    const badTruth = [
      page(1, [
        [box(1, 1, 3, 2), 'a'],
        [box(1, 1, 1, 1), 'zero area'],
      ]),
    ];
    const score = scoreRegions([page(1, [[box(1, 1, 3, 2), 'a']])], badTruth);
    expect(score.invalidTruthBoxes).toBe(1);
    expect(score.truthBoxes).toBe(1);
    expect(score.at50.f1).toBe(1);
  });

  it('pairs pages by page number and counts missing and extra pages against the prediction', () => {
    const twoPages = [...truth, page(2, [[box(1, 1, 2, 2), 'second']])];
    const predicted = [page(2, [[box(1, 1, 2, 2), 'second']]), page(3, [[box(1, 1, 2, 2), 'third']])];
    const score = scoreRegions(predicted, twoPages);
    expect(score.missingPages).toEqual([1]);
    expect(score.extraPages).toEqual([3]);
    expect(score.at50).toMatchObject({ truePositives: 1, precision: 1 / 2, recall: 1 / 4 });
  });

  it('scores a failed call (null) as no prediction: recall 0, character accuracy 0', () => {
    const score = scoreRegions(null, truth);
    expect(score.failed).toBe(true);
    expect(score.at50).toMatchObject({ precision: 0, recall: 0, f1: 0 });
    expect(score.charAccuracy).toBe(0);
  });

  it('scores no boxes on either side 1', () => {
    const score = scoreRegions([page(1, [])], [page(1, [])]);
    expect(score.at50).toMatchObject({ precision: 1, recall: 1, f1: 1 });
    expect(score.charAccuracy).toBe(1);
    expect(score.meanIoU).toBeNull();
  });

  it('reports pages whose sizes disagree but still compares boxes in inches', () => {
    const predicted = [{ ...truth[0]!, width: 595, height: 842 }];
    const score = scoreRegions(predicted, truth);
    expect(score.pageSizeMismatches).toEqual([1]);
    expect(score.at75.f1).toBe(1);
  });

  it('counts characters in code points and compares them after the markdown normalisation', () => {
    const t = [page(1, [[box(0, 0, 1, 1), '𝐀𝐁 c']])];
    const p = [page(1, [[box(0, 0, 1, 1), '𝐀𝐂c']])];
    const score = scoreRegions(p, t);
    expect(score).toMatchObject({ matchedEdits: 1, matchedLength: 3 });
  });

  it('treats an IoU of exactly 0.5 as reaching the 0.5 threshold despite decimal rounding', () => {
    // x: [0.1, 0.3] inside [0.1, 0.5], same y: IoU is 1/2, computed as 0.49999999999999994 in binary floats
    const score = scoreRegions(
      [page(1, [[box(0.1, 0.1, 0.3, 0.4), 'a']])],
      [page(1, [[box(0.1, 0.1, 0.5, 0.4), 'a']])],
    );
    expect(score.matchList[0]!.iou).toBeLessThan(0.5);
    expect(score.matchList[0]!.iou).toBeCloseTo(0.5, 12);
    expect(score.at50.truePositives).toBe(1);
  });
});

describe('aggregateRegions', () => {
  it('sums counts over documents and recomputes the figures (micro)', () => {
    const t = [
      page(1, [
        [box(0, 0, 1, 1), 'a'],
        [box(2, 2, 3, 3), 'b'],
      ]),
    ];
    const perfect = scoreRegions(t, t);
    const failed = scoreRegions(null, t);
    const aggregate = aggregateRegions([perfect, failed]);
    expect(aggregate.documents).toBe(2);
    expect(aggregate.at50).toMatchObject({ truePositives: 2, precision: 1, recall: 0.5 });
    expect(aggregate.meanIoU).toBe(1);
    expect(aggregate.charAccuracy).toBe(0.5);
  });
});
