/**
 * The parts of a party's postal address, asked for one by one: a CRM, an accounts-payable tool or a payroll API
 * holds `supplier_city`, `buyer_postal_code`, `employee.addressLine1`, where the page prints the address as a block
 * (CHANGELOG.md, "Other users' words"). The part is read from the party's address lines: the postal line
 * (a town with its state and postcode after it, or a postcode and its town) gives the city, the state and the
 * postcode; the lines above it are the street lines.
 */
import { conceptWords } from '../lexicon/lexicon.js';

/** A part of a postal address a field may ask for. */
export type AddressPart = 'line1' | 'line2' | 'street' | 'city' | 'state' | 'postal';

/** The words of a property's name that ask for a part (lower-case words joined by spaces), most specific first. */
const PART_WORDS: readonly (readonly [RegExp, AddressPart])[] = [
  [/\b(?:(?:address|street) )?line ?1\b|\baddress ?1\b/, 'line1'],
  [/\b(?:(?:address|street) )?line ?2\b|\baddress ?2\b/, 'line2'],
  [/\bstreet\b|\baddress line$/, 'street'],
  [/\b(?:city|town)\b/, 'city'],
  [/\b(?:state|province|region)\b/, 'state'],
  // A postal address is the whole address, its postal code a part.
  [/\b(?:zip|zipcode|postcode|postal(?! address)|post code)\b/, 'postal'],
];

/** The words of a part, dropped from a name to leave the party it belongs to ("supplier postal code" → "supplier"). */
const PART_NAME_WORDS =
  /\b(?:(?:address|street|line|city|town|state|province|region|zip|zipcode|postcode|postal|post|code|name)\d?|\d)\b/g;

/** The address part a property's name asks for (its words, lower case), or null. */
export function addressPartOf(nameWords: readonly string[]): AddressPart | null {
  const text = nameWords.join(' ');
  return PART_WORDS.find(([words]) => words.test(text))?.[1] ?? null;
}

/** Parts of an address a name, title or description may offer as the alternative to the whole. */
export const ADDRESS_PART_WORDS = conceptWords('address-part');
/** A part offered as an alternative to the whole ("City/Location", "address or town"): the whole is asked for. */
const PART_OR_WHOLE = new RegExp(
  `\\b(?:${ADDRESS_PART_WORDS.join('|')})\\s*(?:/|\\bor\\b)\\s*(?:location|address|place)\\b|` +
    `\\b(?:location|address|place)\\s*(?:/|\\bor\\b)\\s*(?:${ADDRESS_PART_WORDS.join('|')})\\b`,
  'i',
);

/** Whether a text offers a part of an address or the whole as alternatives: "City/Location", "city or address". */
export function offersWholeOrPart(text: string): boolean {
  return PART_OR_WHOLE.test(text);
}

/** A description that asks for the address whole: "the full address", "complete postal address". */
const WHOLE_ADDRESS = /\b(?:full|complete|entire|whole)\s+(?:\w+\s+)?address\b/;
/** A word that takes further parts into the field ("street address, including city and postal code"). */
const INCLUDING = /\b(?:including|includes|include|incl|with|plus|together with|along with)\b/;
/** A word that keeps the other parts out of it ("city and postcode are separate fields", "without the city"). */
const KEEPING_OUT = /\b(?:without|excluding|excludes|except|separate|separately|elsewhere|own fields?)\b/;

/**
 * Whether a description (its negations dropped, lower case) widens a part's name to the whole address: a street
 * field "including city and postal code", "street, city, state and ZIP", "the full address". Such a field is the
 * party's address, read whole.
 */
export function widensToWholeAddress(description: string, part: AddressPart): boolean {
  const text = description.toLowerCase();
  if (KEEPING_OUT.test(text)) return false;
  if (WHOLE_ADDRESS.test(text) || offersWholeOrPart(text)) return true;
  const others = PART_WORDS.filter(([words, named]) => named !== part && words.test(text));
  if (others.length >= 2) return true;
  const included = INCLUDING.exec(text);
  return included !== null && others.some(([words]) => words.test(text.slice(included.index)));
}

/** A name's words without those of its address part: what is left names whose address it is. */
export function withoutPartWords(nameWords: readonly string[]): string[] {
  return nameWords.join(' ').replace(PART_NAME_WORDS, ' ').split(/\s+/).filter(Boolean);
}

/** Country codes printed where a state would be ("ANYTOWN, USA 10101"): no state. */
const COUNTRY_CODES = new Set(['USA', 'US', 'UK', 'GB', 'AUS', 'AU', 'NZ', 'CAN', 'CA']);

/** A town, then a state or province code, then a postcode: the US, Canada, Australia ("Melbourne, VIC 3000"). */
const TOWN_STATE_POSTCODE =
  /^(?<town>.*?\p{L}[.]?)[,\s]+(?:(?<state>[A-Z]{2,3})[,\s]+)?(?<postal>\d{4,5}(?:-\d{4})?|[A-Z]\d[A-Z]\s?\d[A-Z]\d|[A-Z]{1,2}\d[A-Z\d]?\s+\d[A-Z]{2})$/u;
/**
 * A postcode, then its town, then perhaps its state or country: most of Europe ("10115 Berlin", "D-10115 Berlin"),
 * Malaysia ("81100 JOHOR BAHRU, JOHOR"); at a line's start or after a comma in a one-line address ("…, TAMAN JOHOR
 * JAYA, 81100 JOHOR BAHRU, JOHOR"); a five-digit one may have a comma after it ("53200, KUALA LUMPUR"), a shorter
 * number so is a house's ("4243,COMPLEKS PERNIAGAAN").
 */
const POSTCODE_TOWN =
  /(?:^|,\s*)(?:[A-Z]{1,2}-)?(?<postal>\d{4,6})(?:\s+|(?<=\d{5}),\s*)(?<town>\p{L}[^,]*?)(?:,\s*[^,\d]+)?$/u;

interface PostalLine {
  town: string;
  state: string | null;
  postal: string;
}

function readPostalLine(line: string): PostalLine | null {
  const text = line.trim().replace(/[.,;]$/, '');
  const match = TOWN_STATE_POSTCODE.exec(text) ?? POSTCODE_TOWN.exec(text);
  if (!match?.groups) return null;
  const { town, state, postal } = match.groups;
  // A one-line address keeps its street before the town: "12 Main St, Springfield".
  const townOnly = town!.split(',').pop()!.trim().replace(/[.]$/, '');
  return {
    town: townOnly,
    state: state && !COUNTRY_CODES.has(state) ? state : null,
    postal: postal!,
  };
}

/** A line naming a unit of a building (suite, apartment, floor): an address line, but not the street. */
const UNIT_LINE = /^(?:suite|ste|unit|apt|apartment|flat|floor|fl|level|room|rm|building|bldg)\b/i;

/** The part of an address printed as `lines` (its lines in order, the party's name not among them), or null. */
export function readAddressPart(lines: readonly string[], part: AddressPart): string | null {
  const at = lines.findLastIndex((line) => readPostalLine(line) !== null);
  const postal = at < 0 ? null : readPostalLine(lines[at]!);
  const streets = (at < 0 ? lines : lines.slice(0, at)).map((line) => line.trim().replace(/,$/, ''));
  switch (part) {
    case 'line1':
      return streets[0] ?? null;
    case 'line2':
      return streets[1] ?? null;
    case 'street':
      return streets.find((line) => !UNIT_LINE.test(line)) ?? streets[0] ?? null;
    case 'city':
      return postal?.town || null;
    case 'state':
      return postal?.state ?? null;
    case 'postal':
      return postal?.postal ?? null;
  }
}
