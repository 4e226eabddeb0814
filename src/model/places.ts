// Where a person is, for the law layer: a place code (`uk`, `uk-sct`, `us`, `us-ca`, `eu`, `eu-de`) as the
// CLI's --where, the MCP input and the site's form take it, and the places a law note's `where` names
// ("California", "England and Wales", "Hawaii, Minnesota and Vermont"). One table, used to tell whether a
// note applies where the person is. Pure data and string functions: no I/O.
import type { Jurisdiction } from './vocab.ts';

export interface Place {
  /** The code: a country (uk, us, eu) alone, or with a part (uk-eng, us-ca, eu-de). */
  code: string;
  name: string;
  /** The atlas jurisdiction whose notes can apply there (a US state's notes are us-state; its federal ones too). */
  country: 'uk' | 'us' | 'eu';
}

const US_STATES: ReadonlyArray<readonly [string, string]> = [
  ['al', 'Alabama'],
  ['ak', 'Alaska'],
  ['az', 'Arizona'],
  ['ar', 'Arkansas'],
  ['ca', 'California'],
  ['co', 'Colorado'],
  ['ct', 'Connecticut'],
  ['de', 'Delaware'],
  ['dc', 'District of Columbia'],
  ['fl', 'Florida'],
  ['ga', 'Georgia'],
  ['hi', 'Hawaii'],
  ['id', 'Idaho'],
  ['il', 'Illinois'],
  ['in', 'Indiana'],
  ['ia', 'Iowa'],
  ['ks', 'Kansas'],
  ['ky', 'Kentucky'],
  ['la', 'Louisiana'],
  ['me', 'Maine'],
  ['md', 'Maryland'],
  ['ma', 'Massachusetts'],
  ['mi', 'Michigan'],
  ['mn', 'Minnesota'],
  ['ms', 'Mississippi'],
  ['mo', 'Missouri'],
  ['mt', 'Montana'],
  ['ne', 'Nebraska'],
  ['nv', 'Nevada'],
  ['nh', 'New Hampshire'],
  ['nj', 'New Jersey'],
  ['nm', 'New Mexico'],
  ['ny', 'New York'],
  ['nc', 'North Carolina'],
  ['nd', 'North Dakota'],
  ['oh', 'Ohio'],
  ['ok', 'Oklahoma'],
  ['or', 'Oregon'],
  ['pa', 'Pennsylvania'],
  ['ri', 'Rhode Island'],
  ['sc', 'South Carolina'],
  ['sd', 'South Dakota'],
  ['tn', 'Tennessee'],
  ['tx', 'Texas'],
  ['ut', 'Utah'],
  ['vt', 'Vermont'],
  ['va', 'Virginia'],
  ['wa', 'Washington'],
  ['wv', 'West Virginia'],
  ['wi', 'Wisconsin'],
  ['wy', 'Wyoming'],
];

const EU_STATES: ReadonlyArray<readonly [string, string]> = [
  ['at', 'Austria'],
  ['be', 'Belgium'],
  ['bg', 'Bulgaria'],
  ['hr', 'Croatia'],
  ['cy', 'Cyprus'],
  ['cz', 'Czechia'],
  ['dk', 'Denmark'],
  ['ee', 'Estonia'],
  ['fi', 'Finland'],
  ['fr', 'France'],
  ['de', 'Germany'],
  ['gr', 'Greece'],
  ['hu', 'Hungary'],
  ['ie', 'Ireland'],
  ['it', 'Italy'],
  ['lv', 'Latvia'],
  ['lt', 'Lithuania'],
  ['lu', 'Luxembourg'],
  ['mt', 'Malta'],
  ['nl', 'Netherlands'],
  ['pl', 'Poland'],
  ['pt', 'Portugal'],
  ['ro', 'Romania'],
  ['sk', 'Slovakia'],
  ['si', 'Slovenia'],
  ['es', 'Spain'],
  ['se', 'Sweden'],
];

const UK_NATIONS: ReadonlyArray<readonly [string, string]> = [
  ['eng', 'England'],
  ['wls', 'Wales'],
  ['sct', 'Scotland'],
  ['nir', 'Northern Ireland'],
];

/** Every place the law layer knows, countries first. */
export const PLACES: readonly Place[] = [
  { code: 'uk', name: 'the United Kingdom', country: 'uk' },
  ...UK_NATIONS.map(([c, name]) => ({ code: `uk-${c}`, name, country: 'uk' as const })),
  { code: 'us', name: 'the United States', country: 'us' },
  ...US_STATES.map(([c, name]) => ({ code: `us-${c}`, name, country: 'us' as const })),
  { code: 'eu', name: 'the European Union', country: 'eu' },
  ...EU_STATES.map(([c, name]) => ({ code: `eu-${c}`, name, country: 'eu' as const })),
];

const BY_CODE = new Map(PLACES.map((p) => [p.code, p]));

/** What people type for a place, beside its code: its name ("California", "the United Kingdom"), with or without "the", and a few common names. */
const BY_TYPED_NAME = new Map<string, Place>([
  ...PLACES.map((p) => [p.name.toLowerCase().replace(/^the /, ''), p] as const),
  ...(
    [
      ['uk', 'uk'],
      ['britain', 'uk'],
      ['great britain', 'uk'],
      ['gb', 'uk'],
      ['usa', 'us'],
      ['united states of america', 'us'],
      ['america', 'us'],
      ['europe', 'eu'],
      ['new york city', 'us-ny'],
      ['nyc', 'us-ny'],
      ['new york state', 'us-ny'],
      ['washington state', 'us-wa'],
      ['dc', 'us-dc'],
      ['washington dc', 'us-dc'],
      ['washington, dc', 'us-dc'],
      ['washington d.c.', 'us-dc'],
    ] as const
  ).flatMap(([name, code]) => (BY_CODE.has(code) ? [[name, BY_CODE.get(code)!] as const] : [])),
]);

/** The place of a code (case and spaces forgiven), or undefined: what content names. */
export function placeOf(code: string): Place | undefined {
  return BY_CODE.get(code.trim().toLowerCase());
}

/** The place of what a person typed: a code or a name ("us-ca", "California", "the UK"; case and spaces forgiven), or undefined. */
export function placeTyped(text: string): Place | undefined {
  const typed = text.trim().toLowerCase().replace(/\s+/g, ' ');
  return BY_CODE.get(typed) ?? BY_TYPED_NAME.get(typed.replace(/^the /, ''));
}

/**
 * Names a law note's `where` may use for more than one place, or for a part of a place: a city names its
 * state (and is marked as a city: it applies only to part of the state).
 */
const GROUPS: Record<string, { codes: string[]; city?: boolean }> = {
  'great britain': { codes: ['uk-eng', 'uk-wls', 'uk-sct'] },
  'england and wales': { codes: ['uk-eng', 'uk-wls'] },
  'england, wales and scotland': { codes: ['uk-eng', 'uk-wls', 'uk-sct'] },
  'new york state': { codes: ['us-ny'] },
  'new york city': { codes: ['us-ny'], city: true },
};

const BY_NAME = new Map(PLACES.filter((p) => p.code.includes('-')).map((p) => [p.name.toLowerCase(), p.code]));

/** What a note's `where` names: the place codes, and whether it is only a city within them. Undefined parts are reported. */
export interface NamedPlaces {
  codes: string[];
  city: boolean;
  /** Parts of the text that name no place the table knows (the validator reports them). */
  unknown: string[];
}

export function placesNamed(where: string): NamedPlaces {
  const whole = GROUPS[where.trim().toLowerCase()];
  if (whole) return { codes: [...whole.codes], city: whole.city === true, unknown: [] };
  const parts = where
    .split(/,\s*|\s+and\s+/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const codes: string[] = [];
  const unknown: string[] = [];
  let city = false;
  for (const part of parts) {
    const group = GROUPS[part.toLowerCase()];
    const code = BY_NAME.get(part.toLowerCase());
    if (group) {
      codes.push(...group.codes);
      city ||= group.city === true;
    } else if (code) codes.push(code);
    else unknown.push(part);
  }
  return { codes: [...new Set(codes)], city, unknown };
}

/**
 * Whether a law note (its jurisdiction and `where`) applies at a place: `yes`; `maybe` (the place is the
 * country and the note is for a part of it, or the note is for a city within the person's state); `no`.
 * Without a place, every note is `maybe`.
 */
export function appliesAt(
  note: { jurisdiction: Jurisdiction; where?: string | undefined },
  place: Place | undefined,
): 'yes' | 'maybe' | 'no' {
  if (place === undefined) return 'maybe';
  const country = note.jurisdiction === 'uk' ? 'uk' : note.jurisdiction === 'eu' ? 'eu' : 'us';
  if (place.country !== country) return 'no';
  if (note.jurisdiction === 'us-federal') return 'yes';
  if (note.where === undefined) return 'yes';
  const named = placesNamed(note.where);
  if (!place.code.includes('-')) return 'maybe';
  if (!named.codes.includes(place.code)) return 'no';
  return named.city ? 'maybe' : 'yes';
}
