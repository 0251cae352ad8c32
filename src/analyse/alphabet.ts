// What `request-id-format` accepts. The SPEC's id is 8 lowercase hex characters; in the
// wild it is the start of PHP's session id, whose alphabet follows
// session.sid_bits_per_character (4: hex, 5: 0-9a-v, 6: 0-9a-zA-Z,-).

export const ALPHABET_NAMES = ['hex', 'php5', 'php6'] as const;
export type AlphabetName = (typeof ALPHABET_NAMES)[number];

/** Characters of an id: 8 of them. */
const ID_LENGTH = 8;

export interface Alphabet {
  /** Whether `id` is ID_LENGTH characters of the alphabet. */
  accepts(id: string): boolean;
  /** Completes "request id "x" is not …". */
  description: string;
}

/**
 * An alphabet of the characters of `ranges` (pairs of first and last). Checked by a table,
 * not a RegExp: a short-session log tests a new id every few dozen entries, and the
 * RegExp took 70-80 ns an id.
 */
function alphabet(ranges: string, description: string): Alphabet {
  const allowed = new Uint8Array(128);
  for (let i = 0; i < ranges.length; i += 2) {
    for (let c = ranges.charCodeAt(i); c <= ranges.charCodeAt(i + 1); c++) allowed[c] = 1;
  }
  return {
    accepts(id: string): boolean {
      if (id.length !== ID_LENGTH) return false;
      for (let i = 0; i < ID_LENGTH; i++) {
        const c = id.charCodeAt(i);
        if (c >= 128 || allowed[c] === 0) return false;
      }
      return true;
    },
    description,
  };
}

export const ALPHABETS: Record<AlphabetName, Alphabet> = {
  hex: alphabet('09af', '8 lowercase hex characters'),
  php5: alphabet('09av', '8 characters of 0-9a-v'),
  php6: alphabet('09azAZ,,--', '8 characters of 0-9a-zA-Z,-'),
};

export function isAlphabetName(name: string): name is AlphabetName {
  return (ALPHABET_NAMES as readonly string[]).includes(name);
}
