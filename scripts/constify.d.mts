/** `text` (one bundle file) with its top-level `var` declarations that are never written made `const`; and how many. */
export function constify(text: string): { text: string; count: number };
