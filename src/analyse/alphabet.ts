// What `request-id-format` accepts. The SPEC's id is 8 lowercase hex characters; in the
// wild it is the start of PHP's session id, whose alphabet follows
// session.sid_bits_per_character (4: hex, 5: 0-9a-v, 6: 0-9a-zA-Z,-).

export const ALPHABET_NAMES = ['hex', 'php5', 'php6'] as const;
export type AlphabetName = (typeof ALPHABET_NAMES)[number];

export interface Alphabet {
  pattern: RegExp;
  /** Completes "request id "x" is not …". */
  description: string;
}

export const ALPHABETS: Record<AlphabetName, Alphabet> = {
  hex: { pattern: /^[0-9a-f]{8}$/, description: '8 lowercase hex characters' },
  php5: { pattern: /^[0-9a-v]{8}$/, description: '8 characters of 0-9a-v' },
  php6: { pattern: /^[0-9a-zA-Z,-]{8}$/, description: '8 characters of 0-9a-zA-Z,-' },
};

export function isAlphabetName(name: string): name is AlphabetName {
  return (ALPHABET_NAMES as readonly string[]).includes(name);
}
