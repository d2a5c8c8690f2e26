// What the catalog says about a datapoint of a dataset, worded for the pane.
import { CATEGORY_LEGEND, type CatalogDatapoint, type SignRole } from "../../catalog";

const SIGN_ROLES: Readonly<Record<SignRole, string>> = {
  "+": "added",
  "-": "subtracted",
  "=": "result",
  "/": "divided by",
  "": "standalone",
};

/** "+ added", "= result", "standalone". */
export function signRoleLabel(sign: SignRole): string {
  return sign === "" ? SIGN_ROLES[sign] : `${sign} ${SIGN_ROLES[sign]}`;
}

/** "CIL: Current/Investment Liabilities", or "" for datapoints without a category. */
export function categoryLabel(datapoint: CatalogDatapoint): string {
  const code = datapoint.category;
  return code ? `${code}: ${CATEGORY_LEGEND[code]}` : "";
}
