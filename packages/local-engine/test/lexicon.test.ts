/**
 * The engine's words are data (src/lexicon): a language is added by a file alone, and a bad file is
 * refused with its name and key.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findDates, resolveDate } from '../src/extract/typed-values.js';
import { loadLexicon } from '../src/lexicon/lexicon.js';

const SHIPPED = path.resolve('packages/local-engine/src/lexicon');
const text = { type: 'string' };
const date = { type: 'string', format: 'date' };
const amount = { type: 'number' };

/** An Italian invoice: its due date printed above its own date, its taxable amount beside the total. */
async function readItalianInvoice() {
  const { at, extractPage } = await import('./text-layer-page.js');
  return extractPage(
    [
      at('Rossi Forniture S.r.l.', 40, 40, 16),
      at('Scadenza:', 300, 86),
      at('13/04/2025', 420, 86),
      at('Numero documento:', 300, 100),
      at('FT-2025/0042', 420, 100),
      at('Data documento:', 300, 114),
      at('14/03/2025', 420, 114),
      at('Imponibile', 300, 300),
      at('200,00', 420, 300),
      at('IVA 22%', 300, 314),
      at('44,00', 420, 314),
      at('Totale documento', 300, 328),
      at('244,00', 420, 328),
      at('Pagamento ricevuto', 300, 342),
      at('300,00', 420, 342),
    ],
    { invoice_number: text, invoice_date: date, due_date: date, total: amount },
  );
}

describe('the lexicon', () => {
  const dirs: string[] = [];
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** A lexicon folder of the shipped files but Italian's, and the engine reading it. */
  function withoutItalian(): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'lexicon-'));
    dirs.push(dir);
    cpSync(SHIPPED, dir, {
      recursive: true,
      filter: (source) => !source.endsWith('it.json') && !source.endsWith('.ts') && !source.endsWith('.md'),
    });
    vi.stubEnv('DOCBENCH_LEXICON_DIR', dir);
    vi.resetModules();
    return dir;
  }

  it('reads an Italian invoice once an Italian file is added, and not before', async () => {
    const dir = withoutItalian();
    const before = await readItalianInvoice();
    expect(before.invoice_number).toBeNull();
    expect(before.due_date).toBeNull();

    cpSync(path.join(SHIPPED, 'it.json'), path.join(dir, 'it.json'));
    vi.resetModules();
    expect(await readItalianInvoice()).toEqual({
      invoice_number: 'FT-2025/0042',
      invoice_date: '2025-03-14',
      due_date: '2025-04-13',
      total: 244,
    });
  });

  it('merges every language: a German caption names the concept an English schema asks for', () => {
    const lexicon = loadLexicon(SHIPPED);
    expect(lexicon.languages).toEqual(expect.arrayContaining(['de', 'en', 'es', 'fr', 'it', 'nl']));
    expect(lexicon.captionGroups.find((group) => group.includes('invoice number'))).toEqual(
      expect.arrayContaining(['rechnungsnummer', 'factuurnummer', 'numéro de facture', 'numero fattura']),
    );
    // Umlauts fold both ways a schema may write them.
    expect(lexicon.concept('currency').words).toEqual(expect.arrayContaining(['wahrung', 'waehrung']));
  });

  it("reads dates with their month named in each language's words", () => {
    const read = (text: string) => resolveDate(findDates(text)[0]!, 'dmy');
    expect(read('Date : 14 mars 2025')).toBe('2025-03-14');
    expect(read('Datum: 3. März 2025')).toBe('2025-03-03');
    expect(read('Factuurdatum 14 maart 2025')).toBe('2025-03-14');
    expect(read('Data 2 agosto 2025')).toBe('2025-08-02');
    expect(read('1 févr. 2025')).toBe('2025-02-01');
  });

  it('refuses a file with an unknown key, naming the file and the key', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'lexicon-'));
    dirs.push(dir);
    writeFileSync(
      path.join(dir, 'pt.json'),
      JSON.stringify({ language: 'pt', concepts: { total: { wrods: ['total'] } } }),
    );
    expect(() => loadLexicon(dir)).toThrow(/pt\.json: concepts\.total\.wrods is not one of words/);
    writeFileSync(path.join(dir, 'pt.json'), JSON.stringify({ language: 'br', concepts: {} }));
    expect(() => loadLexicon(dir)).toThrow(/pt\.json: language must be "pt"/);
    writeFileSync(path.join(dir, 'pt.json'), JSON.stringify({ language: 'pt', concepts: { total: { words: [''] } } }));
    expect(() => loadLexicon(dir)).toThrow(/concepts\.total\.words must be a list of non-empty strings/);
  });
  /** A lexicon folder of the shipped files with roles.json changed by `edit`. */
  function withRoles(edit: (roles: Record<string, unknown[]>) => void): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'lexicon-'));
    dirs.push(dir);
    cpSync(SHIPPED, dir, { recursive: true, filter: (source) => !/\.(ts|md)$/.test(source) });
    const roles = JSON.parse(readFileSync(path.join(dir, 'roles.json'), 'utf8'));
    edit(roles);
    writeFileSync(path.join(dir, 'roles.json'), JSON.stringify(roles));
    return dir;
  }

  it('refuses a roles.json naming an unknown concept, party or key, naming the file and the key', () => {
    const unknownConcept = withRoles((roles) => {
      (roles.parties![0] as { needs: string[] }).needs.push('shipping-agent');
    });
    expect(() => loadLexicon(unknownConcept)).toThrow(/roles\.json: parties\[0\]\.needs holds "shipping-agent"/);
    const unknownParty = withRoles((roles) => {
      roles.parties!.push({ party: 'notary', needs: ['sender'] });
    });
    expect(() => loadLexicon(unknownParty)).toThrow(/parties\[6\]\.party holds "notary", not one of issuer/);
    const unknownKey = withRoles((roles) => {
      roles.details!.push({ detail: 'email', needs: ['email'], where: ['own'] });
    });
    expect(() => loadLexicon(unknownKey)).toThrow(/roles\.json: details\[5\]\.where is not one of detail, needs, in/);
    const badPhrase = withRoles((roles) => {
      (roles.roles![3] as { phrases: unknown }).phrases = 'total price';
    });
    expect(() => loadLexicon(badPhrase)).toThrow(/roles\[3\]\.phrases must be a list of lists of concepts/);
  });

  it('reads a new wording of a party from roles.json and a lexicon line alone: a notify party is the recipient', async () => {
    vi.stubEnv(
      'DOCBENCH_LEXICON_DIR',
      withRoles(() => {}),
    );
    vi.resetModules();
    const before = await import('../src/extract/field-roles.js');
    expect(before.classifyField(['notify_party'], 'string', undefined)).toBeNull();
    const dir = withRoles((roles) => {
      const recipient = roles.parties!.find((p) => (p as { party: string }).party === 'recipient') as {
        phrases: string[][];
      };
      recipient.phrases.push(['notify', 'party-noun']);
    });
    writeFileSync(
      path.join(dir, 'xx.json'),
      JSON.stringify({ language: 'xx', concepts: { notify: { words: ['notify'] } } }),
    );
    vi.stubEnv('DOCBENCH_LEXICON_DIR', dir);
    vi.resetModules();
    const after = await import('../src/extract/field-roles.js');
    expect(after.classifyField(['notify_party'], 'string', undefined)).toBe('recipient');
    expect(after.classifyField(['notify_party_email'], 'string', undefined)).toBe('recipient-email');
  });
});
