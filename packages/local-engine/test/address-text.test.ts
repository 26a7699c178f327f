import { describe, expect, it } from 'vitest';
import { joinAddressLines, repairAddressWords } from '../src/extract/address-text.js';

describe('address text', () => {
  it('writes the lines out on one line: a full stop ending a line before another is its comma, commas spaced', () => {
    expect(joinAddressLines(['NO 12, JALAN MERBAU,', 'SEMENYIH.', '43500,SELANGOR.'])).toBe(
      'NO 12, JALAN MERBAU, SEMENYIH, 43500, SELANGOR.',
    );
    expect(joinAddressLines(['No.2, Jalan Cempaka 19/9.', 'Seksyen 9 , Cheras'])).toBe(
      'No.2, Jalan Cempaka 19/9, Seksyen 9, Cheras',
    );
    // An abbreviation keeps its full stop.
    expect(joinAddressLines(['OFF JLN.', 'BT 3 SUBANG'])).toBe('OFF JLN. BT 3 SUBANG');
    expect(joinAddressLines(['Am Rathaus, Bahnhofstr.', '10115 Berlin'])).toBe('Am Rathaus, Bahnhofstr. 10115 Berlin');
  });

  it('puts back one misread letter in a long street word, in the case it was printed in, and nothing else', () => {
    expect(repairAddressWords('12, Jalan Tampoi, Kawasan Perindustrlan Tampoi')).toBe(
      '12, Jalan Tampoi, Kawasan Perindustrian Tampoi',
    );
    expect(repairAddressWords('TAMAR DESA, FAMAN BERKELEY')).toBe('TAMAN DESA, TAMAN BERKELEY');
    expect(repairAddressWords('Hauptstrase 5, Berlin')).toBe('Hauptstrase 5, Berlin');
    // Words with real neighbours and short words are left alone.
    expect(repairAddressWords('Power Station, Flour Mill, Lot 5')).toBe('Power Station, Flour Mill, Lot 5');
    expect(repairAddressWords('Strasse des 17. Juni')).toBe('Strasse des 17. Juni');
    expect(repairAddressWords('Strafse des 17. Juni')).toBe('Strasse des 17. Juni');
  });
});
