// Whether this Excel can hold FDQ's data-type values: a card (FDQ.CARD's entity) and numbers with their source
// (DoubleCellValue). Custom functions return and take data types from CustomFunctionsRuntime 1.4 (Excel on Windows
// 2208, on Mac 16.64, and on the web), and a card's layout, properties and formatted numbers are ExcelApi 1.16.
// Where either is missing the functions return today's plain values, FDQ.CARD answers #N/A saying why
// (src/functions/functions.ts), and the task pane shows `reason` beside its option. Host code: it reads Office's
// globals, so nothing below src/host does.

export interface RichValueSupport {
  readonly supported: boolean;
  /** Why not, in words for the analyst, when not supported. */
  readonly reason?: string;
}

/** The requirement sets data-type values need, each with what it brings. */
export const RICH_VALUE_REQUIREMENTS = [
  { set: "CustomFunctionsRuntime", version: "1.4", brings: "custom functions that return data types" },
  { set: "ExcelApi", version: "1.16", brings: "cards and formatted numbers" },
] as const;

/** What to do where the requirement sets are missing. */
export const RICH_VALUE_ADVICE =
  "Use Excel for Microsoft 365 (Windows version 2208 or later, Mac 16.64 or later) or Excel on the web.";

interface RequirementsLike {
  isSetSupported(name: string, minVersion?: string): boolean;
}

function officeRequirements(): RequirementsLike | undefined {
  try {
    return typeof Office !== "undefined"
      ? (Office.context?.requirements as RequirementsLike | undefined)
      : undefined;
  } catch {
    return undefined; // Office not initialised: nothing is known to be supported
  }
}

/**
 * Whether this host supports FDQ's data-type values, and if not why. `requirements` defaults to
 * Office.context.requirements (tests pass their own).
 */
export function richValueSupport(
  requirements: RequirementsLike | undefined = officeRequirements(),
): RichValueSupport {
  if (!requirements) {
    return {
      supported: false,
      reason: `Cards and numbers with their source need Excel: Office is not available here. ${RICH_VALUE_ADVICE}`,
    };
  }
  const missing = RICH_VALUE_REQUIREMENTS.filter((r) => {
    try {
      return !requirements.isSetSupported(r.set, r.version);
    } catch {
      return true;
    }
  });
  if (missing.length === 0) return { supported: true };
  const named = missing.map((r) => `${r.set} ${r.version} (${r.brings})`).join(" and ");
  return {
    supported: false,
    reason: `This version of Excel lacks ${named}, so FDQ returns plain values and FDQ.CARD cannot show a card. ${RICH_VALUE_ADVICE}`,
  };
}
