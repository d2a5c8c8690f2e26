// Zips hand-written parts into a package, in the order given, with fflate (the zip library of
// src/workbook/xlsx): the corpus needs no other tool than the project's own dependencies.
import { zipSync } from "fflate";

export type Parts = Record<string, string | Uint8Array>;

const encoder = new TextEncoder();

export function zipParts(parts: Parts): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (const [name, content] of Object.entries(parts)) {
    files[name] = typeof content === "string" ? encoder.encode(content) : content;
  }
  // A fixed time so that two builds of one corpus are the same bytes.
  return zipSync(files, { level: 6, mtime: new Date("2026-01-05T09:00:00Z") });
}

/** The XML declaration Excel writes (CRLF after it, as Excel does). */
export const DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n';
