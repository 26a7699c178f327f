import { describe, expect, it } from 'vitest';
import { wholeCaptionSimilarity } from '../src/extract/find-values.js';
import { buildExtractResult } from '../src/endpoints.js';
import { buildPageLayout } from '../src/layout/build-blocks.js';
import { buildRows } from '../src/layout/build-lines.js';
import type { Fragment } from '../src/layout/types.js';
import type { JsonSchema } from '../src/contract.js';
import { readGlyphPage as readPage, run } from './glyph-page.js';

/** The booleans named after each option. */
function readOptions(fragments: Fragment[], options: string[]): Record<string, unknown> {
  return readPage(
    fragments,
    Object.fromEntries(options.map((o) => [o.toLowerCase().replace(/\W+/g, '_'), { type: 'boolean', description: o }])),
  );
}

describe('boolean fields named after one option of a group of check boxes', () => {
  it("reads each option's own box where the next option's box is also within reach of its caption", () => {
    const got = readOptions(
      [run('☐ House  ☐ Apartment  ☒ Condo  ☐ Rent Room', 20, 100)],
      ['House', 'Apartment', 'Condo', 'Rent Room'],
    );
    expect(got).toEqual({ house: false, apartment: false, condo: true, rent_room: false });
  });

  it('takes the option from the side its row prints options on, not the nearer word of the next option', () => {
    // The box before "Other" is nearer to "Trailer" than to "Other" (mirrored: the box after "Other"): each row
    // prints its options on one side of the boxes.
    for (const row of [
      '☐ Duplex  ☐ Studio  ☒ Travel Trailer ☐  Other',
      'Other  ☐ Travel Trailer ☒  Studio ☐  Duplex ☐',
    ])
      expect(readOptions([run(row, 20, 100)], ['Duplex', 'Studio', 'Travel Trailer', 'Other'])).toEqual({
        duplex: false,
        studio: false,
        travel_trailer: true,
        other: false,
      });
  });

  it("reads an option's box in a column of options, not the box of the row just above it", () => {
    // Rows 12 pt apart: the row above lies within a caption height of a caption's line.
    const got = readOptions(
      [
        run('☐ TV', 20, 100),
        run('☐ Friend', 120, 100),
        run('☐ Radio', 20, 112),
        run('☐ Landlord', 120, 112),
        run('☐ Print Media', 20, 124),
        run('☒ Utility Company', 120, 124),
      ],
      ['TV', 'Friend', 'Radio', 'Landlord', 'Print Media', 'Utility Company'],
    );
    expect(got).toEqual({
      tv: false,
      friend: false,
      radio: false,
      landlord: false,
      print_media: false,
      utility_company: true,
    });
  });
});

describe('the options of check boxes as the OCR reads them', () => {
  const employment = { employment: { type: 'boolean', description: 'Employment' } };

  it("skips every word of a hint in parentheses the OCR split, so the hint's end is no box's option", () => {
    // `(Member ID#)` read as two words: `ID#)` stands right before GROUP's box, nearer than GROUP above it.
    const options = ['MEDICAID', 'CHAMPVA', 'GROUP'].map((o, i) => run(o, [20, 100, 186][i]!, 88));
    const boxes = [run('☐ (Medicaid#)', 20, 100), run('☐ (Member', 100, 100), run('ID#)', 160, 100)];
    const fragments = [...options, ...boxes, run('☒ (ID#)', 186, 100)];
    const program = { type: 'string', description: 'Type of coverage', enum: ['Medicaid', 'ChampVA', 'Group'] };
    expect(readPage(fragments, { program })).toEqual({ program: 'Group' });
  });

  it('reads YES the OCR read one letter off (`ves`, `es`) as YES', () => {
    for (const yes of ['ves', 'es', 'YES'])
      expect(readPage([run('Employment?', 20, 100), run(`☒ ${yes}  ☐ no`, 20, 112)], employment)).toEqual({
        employment: true,
      });
  });

  it("tells a caption printed twice apart by the field's other words printed over its boxes", () => {
    // `SEX` for the patient at the end of item 3's caption (its box number glued on, as the OCR reads it), and
    // alone for the insured beside item 11a's.
    const patient = [run("3.PATIENT'S BIRTH DATE      SEX", 20, 100), run('M ☐  F ☒', 170, 112)];
    const insured = [run("a. INSURED'S DATE OF BIRTH", 20, 200), run('SEX', 176, 200), run('M ☒  F ☐', 170, 212)];
    const fragments = [...patient, ...insured];
    const sex = { type: 'string', enum: ['M', 'F'] };
    const got = readPage(fragments, {
      patient: { type: 'object', properties: { gender: { ...sex, description: 'Sex' } } },
      insured_gender: { ...sex, description: "Insured's sex" },
    });
    expect(got).toEqual({ patient: { gender: 'F' }, insured_gender: 'M' });
  });

  it('reads the caption beside a row of boxes as theirs, not as the caption over the row of options under it', () => {
    // "Dwelling Type:" heads the first row of options and stands over the second, whose boxes are all empty.
    const fragments = [
      run('1. Dwelling Type:', 20, 100),
      run('☐ House  ☐ Apartment  ☒ Condo/Townhome', 200, 100),
      run('☐ Duplex  ☐ Motel/Hotel  ☐ Studio', 200, 112),
      run('2. Dwelling Cost:', 20, 124),
      run('☒ Rent $2000  ☐ Own', 200, 124),
    ];
    const enumValues = ['House', 'Apartment', 'Condo/Townhome', 'Duplex', 'Motel/Hotel', 'Studio'];
    expect(readPage(fragments, { dwelling_type: { type: 'string', enum: enumValues } })).toEqual({
      dwelling_type: 'Condo/Townhome',
    });
  });

  it("reads the field's words from the caption right over its boxes, not the box's above it, OCR slips and all", () => {
    // The box above the insured's (`10. IS PATIENT'S CONDITION`) names the patient within reach of the insured's
    // boxes; the insured's own caption has an OCR slip (`NSURED'S`) or runs words together (`INSURED'SDATE`).
    for (const insuredCaption of ["a. NSURED'S DATE OF BIRTH", "a. INSURED'SDATE OF BIRTH"]) {
      const patient = [run("3.PATIENT'S BIRTH DATE      SEX", 20, 100), run('M ☒  F ☐', 170, 112)];
      const above = run("10. IS PATIENT'S CONDITION RELATED TO", 20, 180);
      const insured = [run(insuredCaption, 20, 200), run('SEX', 176, 200), run('M ☐  F ☒', 170, 212)];
      const sex = { type: 'string', enum: ['M', 'F'] };
      const got = readPage([...patient, above, ...insured], {
        patient: { type: 'object', properties: { gender: { ...sex, description: 'Sex' } } },
        insured_gender: { ...sex, description: "Insured's sex" },
      });
      expect(got).toEqual({ patient: { gender: 'M' }, insured_gender: 'F' });
    }
  });

  it('takes a word that overlaps its box a little for its option (its place interpolated across a split word)', () => {
    // `M` reaches 2 pt into its box; `F` starts 4 pt after it.
    const fragments = [run('Sex', 20, 100), run('M', 20, 112), run('☐', 24, 112), run('F', 34, 112), run('☒', 42, 112)];
    expect(readPage(fragments, { sex: { type: 'string', enum: ['M', 'F'], description: 'Sex' } })).toEqual({
      sex: 'F',
    });
  });

  it('reads an option above its box when the words beside the box are none of the enum values', () => {
    // A fax: each box's hint read without its parentheses (`eda`, `D`, `oe`), nearer than the option above it.
    const options = ['MEDICAID', 'CHAMPVA', 'GROUP'].map((o, i) => run(o, 20 + 40 * i, 88));
    const boxes = [run('☐ eda', 20, 100), run('D ☐', 48, 100), run('☒ oe', 100, 100)];
    const program = { type: 'string', description: 'Type of coverage', enum: ['Medicaid', 'ChampVA', 'Group'] };
    expect(readPage([...options, ...boxes], { program })).toEqual({ program: 'Group' });
  });
});

describe('check boxes whose option words the OCR lost or garbled', () => {
  const relationship = (values: string[]) => ({
    relationship: { type: 'string', description: 'Relationship to insured', enum: values },
  });

  const employment = { employment: { type: 'boolean', description: 'Employment' } };

  it("gives a word to one box only: a box whose own word was lost does not take its neighbour's", () => {
    // `NO` lost: the word nearest the marked box is the YES box's own.
    expect(readPage([run('Employment?', 20, 100), run('☐ YES ☒', 20, 112)], employment)).toEqual({
      employment: false,
    });
  });

  it("matches a row that prints the enum's whole list to its values one to one", () => {
    const values = ['Self', 'Spouse', 'Child', 'Other'];
    // A fax's garbling (`Ser`, `Chd`, `One`): two words are no value alone; `Chd` and `One` take what is left.
    const garbled = [run('Relationship to insured', 20, 100), run('Ser ☒  spoure ☐  Chd ☐  One ☐', 20, 112)];
    expect(readPage(garbled, relationship(values))).toEqual({ relationship: 'Self' });
    // The marked box's word lost: it takes the one value no other box reads.
    const lost = [run('Relationship to insured', 20, 100), run('Self ☐  Spouse ☐      ☒  Other ☐', 20, 112)];
    expect(readPage(lost, relationship(values))).toEqual({ relationship: 'Child' });
  });

  it('matches a run of boxes with no caption found to the whole list too, apart from the next question on its row', () => {
    // The row's other boxes (a YES/NO pair more than an inch away) are another question's.
    const fragments = [run('☒      F☐', 20, 112), run('☐ YES  ☒ NO', 200, 112)];
    expect(readPage(fragments, { sex: { type: 'string', enum: ['M', 'F'], description: 'Sex' } })).toEqual({
      sex: 'M',
    });
  });

  it('reads the other box of a YES/NO pair as the other answer when its word is garbled', () => {
    expect(readPage([run('Employment?', 20, 100), run('☐ YES  ☒ N6', 20, 112)], employment)).toEqual({
      employment: false,
    });
  });
});

describe("yes/no fields asked by a printed question in the form's own words", () => {
  const questions = [
    run('Are there additional people in your home?  ☐ YES  ☒ NO', 20, 100),
    run('Do you reside in subsidized housing where heating is included in the rent?  ☒ YES  ☐ NO', 20, 130),
  ];

  it("reads the question whose words are mostly the field's, whatever its phrasing or order", () => {
    expect(
      readPage(questions, {
        hasAdditionalOccupants: {
          type: 'boolean',
          description: 'whether more people live in the home than are listed',
        },
        livesInSubsidizedHousing: { type: 'boolean' },
      }),
    ).toEqual({ hasAdditionalOccupants: false, livesInSubsidizedHousing: true });
  });

  it('answers no field that shares one word with a question, and no field of words the page does not ask', () => {
    expect(readPage(questions, { ownsHome: { type: 'boolean' }, petsAllowedInHousing: { type: 'boolean' } })).toEqual({
      ownsHome: null,
      petsAllowedInHousing: null,
    });
  });

  it("takes the one answer box found when it is marked (its pair's box lost), and none when it is empty", () => {
    const lost = (marks: string) => [run(`Do you have health insurance coverage?  ${marks}`, 20, 100)];
    const insured = { healthInsuranceCoverage: { type: 'boolean' } };
    expect(readPage(lost('YES   ☒NO'), insured)).toEqual({ healthInsuranceCoverage: false });
    expect(readPage(lost('YES   ☐NO'), insured)).toEqual({ healthInsuranceCoverage: null });
    // A field named after the option reads that option's own box.
    expect(readPage(lost('YES   ☒NO'), { no: { type: 'boolean' } })).toEqual({ no: true });
  });
});

describe("boolean fields whose own words explain one box's caption", () => {
  const cost = [
    run('Dwelling Cost:  ☒ Rent $2000   ☐ Subsidized Rent $____   ☐ Space Rent $____', 20, 100),
    run('☐ Buy $____   ☐ Own   ☐ Other', 110, 112),
    run('☐ House  ☐ Apartment  ☒ Condo/Townhome', 20, 140),
  ];

  it('reads the box whose caption is all words of the name or description, the longest such caption first', () => {
    expect(
      readPage(cost, {
        pays_rent: { type: 'boolean', description: 'dwelling cost is rent' },
        owns_home: { type: 'boolean', description: 'dwelling cost: own' },
        subsidized_rent: { type: 'boolean' },
      }),
    ).toEqual({ pays_rent: true, owns_home: false, subsidized_rent: false });
  });

  it('reads no box for a field of an open choice ("other housing" is not the box `House`)', () => {
    expect(readPage(cost, { other_housing: { type: 'boolean' } })).toEqual({ other_housing: null });
  });
});

describe('the words beside check boxes as options, not captions', () => {
  it("reads no text field from the option under a box's word that names it (☐ Landlord over ☒ Utility Company)", () => {
    const heard = [
      run('How did you hear about us?', 20, 80),
      run('☐ Friend', 20, 100),
      run('☐ Landlord', 20, 112),
      run('☒ Utility Company', 20, 124),
      run('Landlord Name: Big Corp', 20, 150),
    ];
    expect(readPage(heard, { landlord: { type: 'string' } })).toEqual({ landlord: 'Big Corp' });
    expect(readPage(heard.slice(0, 4), { landlord: { type: 'string' } })).toEqual({ landlord: null });
  });

  it("reads a value printed on the option's own line (☒ Rent $2000)", () => {
    const cost = [run('Dwelling Cost:  ☒ Rent $2000   ☐ Own', 20, 100), run('☐ Buy $____', 110, 112)];
    expect(readPage(cost, { rent_amount: { type: 'number' } })).toEqual({ rent_amount: 2000 });
  });
});

describe("booleans read from a table's Yes/No columns", () => {
  // A household table: each person's row of cells under "Citizen" and "Disabled", each over "Yes No".
  const household = [
    run('Name', 20, 80),
    run('Relationship', 120, 80),
    run('Citizen', 230, 80),
    run('Disabled', 300, 80),
    run('Yes No', 230, 92),
    run('Yes No', 300, 92),
    run('Doe John', 20, 106),
    run('SELF', 120, 106),
    run('☒', 233, 106),
    run('☐', 251, 106),
    run('☐', 303, 106),
    run('☒', 321, 106),
    run('Doe Jane', 20, 120),
    run('Spouse', 120, 120),
    run('☐', 233, 120),
    run('☒', 251, 120),
    run('☒', 303, 120),
    run('☐', 321, 120),
  ];
  const flags = { type: 'object', properties: { is_citizen: { type: 'boolean' }, is_disabled: { type: 'boolean' } } };

  it("answers each person's field by the word over the marked box of their row, the relation's row by its name", () => {
    expect(readPage(household, { applicant: flags, spouse: flags })).toEqual({
      applicant: { is_citizen: true, is_disabled: false },
      spouse: { is_citizen: false, is_disabled: true },
    });
  });

  it('reads the same table printed in German, its answers, relations and the principal from the lexicon alone', () => {
    const german = household.map((fragment) => {
      const words: Record<string, string> = {
        Relationship: 'Beziehung',
        Citizen: 'Staatsbürger',
        Disabled: 'Behindert',
        'Yes No': 'Ja Nein',
        SELF: 'Selbst',
        Spouse: 'Ehefrau',
      };
      return { ...fragment, text: words[fragment.text] ?? fragment.text };
    });
    const flagsDe = {
      type: 'object',
      properties: { staatsbuerger: { type: 'boolean' }, behindert: { type: 'boolean' } },
    };
    expect(readPage(german, { antragsteller: flagsDe, ehepartner: flagsDe })).toEqual({
      antragsteller: { staatsbuerger: true, behindert: false },
      ehepartner: { staatsbuerger: false, behindert: true },
    });
  });
});

describe('check boxes whose caption wraps over two lines', () => {
  /** A ruled row of four cells, each caption's second line under its box, as a word processor wraps it. */
  const cells = [
    run('☒Hazardous', 20, 100),
    run('Condition', 20, 112),
    run('☐At Risk', 120, 100),
    run('Behavior', 120, 112),
    run('☐Safety', 220, 100),
    run('Suggestion', 220, 112),
    run('☒Safety', 320, 100),
    run('Recognition', 320, 112),
  ];

  it('reads each box by its whole caption, which no single line prints', () => {
    const got = readOptions(cells, [
      'Hazardous Condition',
      'At Risk Behaviour',
      'Safety Suggestion',
      'Safety Recognition',
    ]);
    expect(got).toEqual({
      hazardous_condition: true,
      at_risk_behaviour: false,
      safety_suggestion: false,
      safety_recognition: true,
    });
  });

  it("compares a label with a box's whole caption, never with a part of it", () => {
    expect(wholeCaptionSimilarity('at risk behaviour', 'At Risk Behavior')).toBeGreaterThan(0.9);
    expect(wholeCaptionSimilarity('safety', 'Safety Suggestion')).toBe(0);
    expect(wholeCaptionSimilarity('safety suggestion', 'Safety')).toBe(0);
  });

  it('reads an enum from the box whose whole caption is one of its values, not the first value its first word starts', () => {
    const marked = cells.map((r) => (r.text === '☒Hazardous' ? { ...r, text: '☐Hazardous' } : r));
    const values = ['Hazardous Condition', 'At Risk Behavior', 'Safety Suggestion', 'Safety Recognition'];
    expect(readPage(marked, { report_type: { type: 'string', enum: values } })).toEqual({
      report_type: 'Safety Recognition',
    });
  });

  it('reads the whole caption of boxes drawn on a scan, their words from the OCR', () => {
    // OCR words 10 pt high; the boxes found in the pixels, each caption's second line hanging under its first word.
    const word = (text: string, x0: number, y0: number): Fragment => ({
      text,
      box: { x0, y0, x1: x0 + text.length * 6, y1: y0 + 10 },
      fontSize: 10,
      confidence: 90,
    });
    const words = [
      word('Hazardous', 34, 100),
      word('Condition', 34, 112),
      word('Safety', 154, 100),
      word('Recognition', 154, 112),
    ];
    const box = (x0: number, marked: boolean) => ({ box: { x0, y0: 100, x1: x0 + 10, y1: 110 }, marked });
    const page = {
      ...buildPageLayout(1, 612, 792, 'ocr', buildRows(words)),
      checkBoxes: [box(20, false), box(140, true)],
    };
    const properties = { hazardous_condition: { type: 'boolean' }, safety_recognition: { type: 'boolean' } };
    const result = buildExtractResult([page], { type: 'object', properties } as unknown as JsonSchema, false, 'US');
    expect(JSON.parse(result.response as string)).toEqual({ hazardous_condition: false, safety_recognition: true });
  });

  it('never continues a caption with the line of the box below it', () => {
    // One-line captions stacked at line spacing: `Falls` is the next box's caption, so no box says "Slips Falls".
    const got = readOptions([run('☒ Slips', 20, 100), run('☐ Falls', 20, 112)], ['Slips Falls']);
    expect(got).toEqual({ slips_falls: null });
  });
});
