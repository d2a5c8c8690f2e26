// Whether this Excel can show FDQ values as data types (cards, numbers carrying their source). Minimal version
// for the task pane's branch: the cards work owns this module (its version is the one to keep).
//
// Custom functions return data types from CustomFunctionsRuntime 1.4 on, and the pane and functions read and
// write them through the Excel data-type API of ExcelApi 1.16; where either is missing, FDQ returns plain values.

export interface RichValueSupport {
  readonly supported: boolean;
  /** Why not, in the analyst's words, when unsupported. */
  readonly reason?: string;
}

const NEEDED = [
  { set: "CustomFunctionsRuntime", version: "1.4", what: "custom functions that return data types" },
  { set: "ExcelApi", version: "1.16", what: "data types in cells" },
] as const;

export function richValueSupport(): RichValueSupport {
  const requirements = typeof Office === "undefined" ? undefined : Office.context?.requirements;
  if (!requirements) {
    return { supported: false, reason: "Outside Excel there are no data types: FDQ returns plain values." };
  }
  const missing = NEEDED.filter((n) => !requirements.isSetSupported(n.set, n.version));
  if (missing.length === 0) return { supported: true };
  const lacks = missing.map((n) => `${n.what} (${n.set} ${n.version})`).join(" and ");
  return {
    supported: false,
    reason: `This version of Excel cannot show cards or numbers with their source: it lacks ${lacks}. FDQ returns plain values.`,
  };
}
