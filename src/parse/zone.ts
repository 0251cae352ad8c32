// Zone names from PHP's own log lines (`[18-Mar-2026 08:36:00 Europe/Berlin] PHP Fatal…`),
// resolved with the time-zone database that Node's Intl carries.

export interface ZoneReading {
  /** Seconds since the epoch. */
  instant: number;
  /** The UTC offset the wall time was read with, in seconds. */
  offset: number;
}

class NamedZone {
  private readonly format: Intl.DateTimeFormat;
  private readonly readings = new Map<number, ZoneReading>();

  constructor(format: Intl.DateTimeFormat) {
    this.format = format;
  }

  /** UTC offset in seconds in force at an instant. */
  offsetAt(instant: number): number {
    // 'longOffset' gives `GMT+01:00` (or `GMT` for zero, `GMT+00:53:28` for local mean time).
    const parts = this.format.formatToParts(new Date(instant * 1000));
    const name = parts.find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
    const m = /^GMT(?:([+-])(\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(name);
    if (!m || !m[1]) return 0;
    const abs = Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0);
    return m[1] === '-' ? -abs : abs;
  }

  /**
   * The instant of a wall-clock time (given as seconds read as UTC), disambiguated like
   * Temporal's "compatible": a repeated wall time is the earlier instant, a skipped one
   * is read with the offset in force before the gap.
   */
  read(wall: number): ZoneReading {
    const cached = this.readings.get(wall);
    if (cached) return cached;
    const before = this.offsetAt(wall - 86400);
    const after = this.offsetAt(wall + 86400);
    let best: ZoneReading | null = null;
    for (const offset of before === after ? [before] : [before, after]) {
      const instant = wall - offset;
      if (this.offsetAt(instant) === offset && (best === null || instant < best.instant)) best = { instant, offset };
    }
    const reading = best ?? { instant: wall - before, offset: before };
    if (this.readings.size > 4096) this.readings.clear();
    this.readings.set(wall, reading);
    return reading;
  }
}

/**
 * Zones looked up so far. The time-zone database is the same for every reader, so one
 * cache serves the process; it is bounded, since a hostile log can hold any number of
 * distinct tokens that are no zone.
 */
const zones = new Map<string, NamedZone | null>();
const ZONES_KEPT = 1024;

/** A time-zone database zone by name, matched ignoring case; null when there is none. */
export function namedZone(name: string): NamedZone | null {
  let zone = zones.get(name);
  if (zone !== undefined) return zone;
  zone = null;
  // Only names: newer engines also take offsets like `+01:00` as a timeZone, which are not names.
  if (/^[A-Za-z][A-Za-z0-9_/+-]*$/.test(name)) {
    try {
      zone = new NamedZone(
        new Intl.DateTimeFormat('en-US', { timeZone: name, timeZoneName: 'longOffset', year: 'numeric' }),
      );
    } catch {
      zone = null;
    }
  }
  if (zones.size >= ZONES_KEPT) zones.clear();
  zones.set(name, zone);
  return zone;
}

export type { NamedZone };
