// The checks every saved cache record passes before anything it names is read or allocated (issue 13: a
// `chunks` count of 10,000,000 made later runs allocate 4.5 GB; an edited day span made stale answers
// count as today's). A record failing them is discarded with a warning, never trusted in part.
import { DAY_LABEL } from "../vendor-clock";
import type { PersistenceContext } from "./persistence";
import { DAY_MS } from "../refresh-day";

/** The fields of the refresh-day window saved with a cache, and the scope it belongs to, as read (unchecked). */
export interface SavedWindowMeta {
  scope: string;
  day: string;
  clock?: unknown;
  from?: unknown;
  until?: unknown;
}

/** A problem with the meta record, worded for a warning, or undefined when it is sound. */
export function metaProblem(meta: SavedWindowMeta, ctx: PersistenceContext): string | undefined {
  if (meta.scope !== ctx.scope) return "belongs to another API key or base URL";
  if (!DAY_LABEL.test(meta.day) || !Number.isFinite(Date.parse(`${meta.day}T00:00:00Z`))) {
    return `names a day (${JSON.stringify(meta.day.slice(0, 20))}) that is not a date`;
  }
  // A refresh day is never later than tomorrow's UTC date, in any zone.
  const latest = new Date(ctx.now() + DAY_MS).toISOString().slice(0, 10);
  if (meta.day > latest) return `names a day in the future (${meta.day})`;
  const { from, until, clock } = meta;
  if (clock !== undefined && typeof clock !== "string") return "has a clock that is not a text";
  if (from !== undefined || until !== undefined) {
    if (typeof from !== "number" || typeof until !== "number" || !(from < until)) {
      return "has a refresh-day window that is not a time span";
    }
    if (from > ctx.now() + DAY_MS) return "has a refresh-day window that starts in the future";
  }
  return undefined;
}

/**
 * Adopts the saved window when it was written under this clock and holds now; the clock refuses a span
 * that does not end at its day's boundary. Answers a warning when the span was refused.
 */
export function adoptWindow(meta: SavedWindowMeta, ctx: PersistenceContext): string | undefined {
  const { from, until } = meta;
  if (meta.clock !== ctx.clock.key || typeof from !== "number" || typeof until !== "number") return undefined;
  const now = ctx.now();
  if (now < from || now >= until) return undefined; // another day's window: today is computed instead
  return ctx.clock.adopt({ label: meta.day, from, until })
    ? undefined
    : `its refresh-day window (${meta.day}) does not end at that day's boundary`;
}

export const isPlainObject = (o: unknown): o is Record<string, unknown> =>
  typeof o === "object" && o !== null && !Array.isArray(o);
