/**
 * A person asked for as a group of fields, read from their row of a table of people (docs/reference.md, "A
 * person's row of a table of people"). Made-up pages only.
 */
import { describe, expect, it } from 'vitest';
import { at, extractPage } from './text-layer-page.js';

/** An application's household table: the applicant's row marked SELF, their son's, then their spouse's. */
function household(applicantFirst = true) {
  const rows = [
    ['Okafor Ada', 'SELF', '03/02/73', '111-22-3333'],
    ['Okafor Emeka', 'Son', '11/23/05', '222-33-4444'],
    ['Okafor Chidi', 'Spouse', '06/14/71', '333-44-5555'],
  ];
  const ordered = applicantFirst ? rows : [rows[1]!, rows[0]!, rows[2]!];
  return [
    at('Household members', 50, 260, 12),
    at('Name', 50, 300),
    at('Relationship', 200, 300),
    at('Date of Birth', 320, 300),
    at('Social Security Number', 430, 300),
    at('(Last, First)', 50, 312),
    at('to You', 200, 312),
    ...ordered.flatMap(([name, relation, born, ssn], i) => [
      at(name!, 50, 340 + 14 * i),
      at(relation!, 200, 340 + 14 * i),
      at(born!, 320, 340 + 14 * i),
      at(ssn!, 430, 340 + 14 * i),
    ]),
  ];
}

const text = { type: 'string' };
const date = { type: 'string', format: 'date' };
const person = { type: 'object', properties: { last_name: text, first_name: text, date_of_birth: date, ssn: text } };

describe("a person's row of a table of people", () => {
  it('reads the applicant from the row marked SELF and the spouse from the row naming the relation', () => {
    expect(extractPage(household(false), { applicant: person, spouse: person })).toEqual({
      applicant: { last_name: 'Okafor', first_name: 'Ada', date_of_birth: '1973-03-02', ssn: '111-22-3333' },
      spouse: { last_name: 'Okafor', first_name: 'Chidi', date_of_birth: '1971-06-14', ssn: '333-44-5555' },
    });
  });

  it('reads fields sharing a leading word (clientDob, clientSsn) as one person, from the first row without a SELF', () => {
    const page = household().map((fragment) =>
      fragment.text === 'SELF' ? { ...fragment, text: 'Applicant' } : fragment,
    );
    expect(
      extractPage(page, { clientLastName: text, clientFirstName: text, clientDob: date, clientSsn: text }),
    ).toEqual({ clientLastName: 'Okafor', clientFirstName: 'Ada', clientDob: '1973-03-02', clientSsn: '111-22-3333' });
  });

  it("reads an enum from the column whose caption prints the enum's values (M/F), with no word of the field's", () => {
    const page = [
      at('Name', 50, 300),
      at('Relationship', 200, 300),
      at('M/F', 300, 300),
      at('Social Security Number', 430, 300),
      at('Okafor Ada', 50, 314),
      at('SELF', 200, 314),
      at('F', 300, 314),
      at('111-22-3333', 430, 314),
      at('Okafor Chidi', 50, 328),
      at('Spouse', 200, 328),
      at('M', 300, 328),
      at('333-44-5555', 430, 328),
    ];
    const gender = { type: 'string', enum: ['M', 'F'] };
    expect(extractPage(page, { applicant: { type: 'object', properties: { gender, ssn: text } } })).toEqual({
      applicant: { gender: 'F', ssn: '111-22-3333' },
    });
  });

  it('leaves a group no row is named for, and one whose name is no person', () => {
    const got = extractPage(household(), { child: person, employer: person }) as Record<
      string,
      Record<string, unknown>
    >;
    expect(got.child?.ssn).toBe('222-33-4444');
    expect(got.employer?.ssn).not.toBe('111-22-3333');
  });
});
