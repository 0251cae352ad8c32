import { describe, expect, it } from 'vitest';
import { stolenSeconds } from '../../bench/steal.js';

describe('stolenSeconds', () => {
  it("reads the steal figure of /proc/stat's cpu line, in seconds", () => {
    const stat = 'cpu  41047 0 9319 49274 433 0 176 2552 0 0\ncpu0 20000 0 4000 25000 200 0 90 1300 0 0\n';
    expect(stolenSeconds(() => stat)).toBe(25.52);
  });

  it('says it does not know where there is no such line or no such file', () => {
    expect(stolenSeconds(() => 'intr 12 0 0\n')).toBeNull();
    expect(stolenSeconds(() => 'cpu  1 2 3\n')).toBeNull();
    expect(
      stolenSeconds(() => {
        throw new Error('ENOENT');
      }),
    ).toBeNull();
  });

  it('reads this machine\'s figure where it is Linux', () => {
    const s = stolenSeconds();
    if (process.platform === 'linux') expect(s).toBeGreaterThanOrEqual(0);
    else expect(s).toBeNull();
  });
});
