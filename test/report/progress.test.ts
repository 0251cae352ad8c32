import { describe, expect, it } from 'vitest';
import { Progress, wantProgress } from '../../src/report/progress.js';

describe('Progress', () => {
  it('draws at most every 100 ms and wipes itself', () => {
    let now = 0;
    const out: string[] = [];
    const p = new Progress(200e6, (t) => out.push(t), () => now);
    now = 150;
    p.add(50e6);
    now = 200;
    p.add(50e6); // too soon: not drawn
    now = 1000;
    p.add(100e6);
    p.clear();
    expect(out).toEqual([
      '\r[########......................]  25%  50 MB of 200 MB  333 MB/s',
      '\r[##############################] 100%  200 MB of 200 MB  200 MB/s',
      '\r\x1b[K',
    ]);
  });

  it('wipes nothing it did not draw', () => {
    const out: string[] = [];
    new Progress(1, (t) => out.push(t)).clear();
    expect(out).toEqual([]);
  });

  it('is wanted on a terminal outside CI only', () => {
    expect(wantProgress(true, {})).toBe(true);
    expect(wantProgress(true, { CI: 'true' })).toBe(false);
    expect(wantProgress(true, { CI: '1' })).toBe(false);
    expect(wantProgress(true, { CI: 'false' })).toBe(true);
    expect(wantProgress(false, {})).toBe(false);
  });
});
