import { describe, expect, it } from 'vitest';
import { readingOrder } from '../../src/input/order.js';

describe('reading order', () => {
  it('reads a rotation set oldest first, the bare name last', () => {
    expect(readingOrder(['errors.log', 'errors.log.1', 'errors.log.2.gz'])).toEqual(['errors.log.2.gz', 'errors.log.1', 'errors.log']);
    expect(readingOrder(['errors.log.1', 'errors.log.10', 'errors.log.2'])).toEqual(['errors.log.10', 'errors.log.2', 'errors.log.1']);
  });

  it('puts the set in the place of its first member given', () => {
    expect(readingOrder(['other.log', 'errors.log', 'x.log', 'errors.log.1'])).toEqual(['other.log', 'errors.log.1', 'errors.log', 'x.log']);
  });

  it('groups by the exact text before the suffix', () => {
    expect(readingOrder(['./errors.log', 'errors.log.1'])).toEqual(['./errors.log', 'errors.log.1']);
    expect(readingOrder(['a/errors.log.1', 'b/errors.log.2'])).toEqual(['a/errors.log.1', 'b/errors.log.2']);
  });

  it('keeps other inputs, stdin included, in the order given', () => {
    expect(readingOrder(['b.log', '-', 'a.log'])).toEqual(['b.log', '-', 'a.log']);
    expect(readingOrder(['access.log.gz', 'errors.log'])).toEqual(['access.log.gz', 'errors.log']);
  });
});
