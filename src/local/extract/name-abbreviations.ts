/**
 * The abbreviations users write in property names and short titles: warehouse and ERP columns are named with
 * class words (`vendor_nm`, `doc_dt`, `gross_amt`, `curr_cd`), back offices abbreviate (`Inv. date`, `ccy`,
 * `acct`), claims systems too (`pt`, `grp`, `chg`). A schema's words are read with each such abbreviation
 * spelled out (docs/local-service.md, "Other field names"), so that `txnAmt` is a transaction's amount and
 * `vendor_nm` a vendor's name. General naming conventions, never one schema's names; words that are also
 * ordinary words or abbreviate several things (`no`, `st`, `rel`, `acc`) are left as written, and `sub` is a
 * claim's subscriber except in a subtotal (`sub_total`).
 */

/** Abbreviation → the word it stands for, lower case. */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  // Class words of data-warehouse and ERP column names.
  nm: 'name',
  nme: 'name',
  dt: 'date',
  dte: 'date',
  amt: 'amount',
  cd: 'code',
  addr: 'address',
  adr: 'address',
  num: 'number',
  nbr: 'number',
  qty: 'quantity',
  desc: 'description',
  // Business terms.
  txn: 'transaction',
  trx: 'transaction',
  inv: 'invoice',
  doc: 'document',
  tot: 'total',
  ttl: 'total',
  curr: 'currency',
  ccy: 'currency',
  acct: 'account',
  pmt: 'payment',
  cust: 'customer',
  vndr: 'vendor',
  supp: 'supplier',
  mrch: 'merchant',
  org: 'organization',
  grp: 'group',
  chg: 'charge',
  chrg: 'charge',
  pd: 'paid',
  ph: 'phone',
  oth: 'other',
  mbr: 'member',
  // Tax numbers: a three-letter word fits too many printed words to be looked for as written.
  tin: 'tax id',
  ein: 'tax id',
  // Health-claim terms.
  pt: 'patient',
  pat: 'patient',
  dx: 'diagnosis',
  ins: 'insurance',
  prov: 'provider',
  svc: 'service',
  sub: 'subscriber',
  assign: 'assignment',
};

/** Abbreviations left as written before these words: `sub_total` is a subtotal, not a subscriber's total. */
const NOT_BEFORE: Readonly<Record<string, readonly string[]>> = { sub: ['total', 'totals', 'tot', 'ttl'] };

/** The word an abbreviation stands for, or the word itself; `next` is the word after it in the name, if any. */
export function expandAbbreviation(word: string, next?: string): string {
  const lower = word.toLowerCase();
  if (next !== undefined && NOT_BEFORE[lower]?.includes(next.toLowerCase())) return word;
  return ABBREVIATIONS[lower] ?? word;
}

/** Lower-case words with each abbreviation spelled out. */
export function expandAbbreviations(words: readonly string[]): string[] {
  return words.flatMap((word, i) => expandAbbreviation(word, words[i + 1]).split(' '));
}
