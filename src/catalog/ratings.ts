// Component ratings fields of shared/spec/service-spec.md, with the data-definition numbers 1..9.
import type { SecurityType } from "./service";

export type RatedType = Extract<SecurityType, "stock" | "etf" | "mf">;

export interface RatingField {
  /** Record field name, e.g. "rating_roic"; "name" for the security name (definition 9). */
  readonly field: string;
  /** Short name accepted by FDQ.RATING. */
  readonly short: string;
  /** Data-definition function number of the ratings documentation. */
  readonly definition: number;
  readonly label: string;
  /** Security types whose records carry the field. */
  readonly appliesTo: readonly RatedType[];
}

const ALL: readonly RatedType[] = ["stock", "etf", "mf"];

export const RATING_FIELDS: readonly RatingField[] = [
  { field: "rating_overall", short: "overall", definition: 1, label: "overall risk/reward", appliesTo: ALL },
  {
    field: "rating_income_net_economic_profit",
    short: "economic_eps",
    definition: 2,
    label: "economic versus reported EPS",
    appliesTo: ALL,
  },
  { field: "rating_roic", short: "roic", definition: 3, label: "return on invested capital", appliesTo: ALL },
  {
    field: "rating_fcf_yield",
    short: "fcf_yield",
    definition: 4,
    label: "free cash flow yield",
    appliesTo: ALL,
  },
  {
    field: "rating_stock_price_sa_p_ebv_p_sosa",
    short: "pebv",
    definition: 5,
    label: "price-to-economic-book-value",
    appliesTo: ALL,
  },
  { field: "rating_gap", short: "gap", definition: 6, label: "growth appreciation period", appliesTo: ALL },
  {
    field: "rating_expense_total_annualized",
    short: "costs",
    definition: 7,
    label: "total annual costs",
    appliesTo: ["etf", "mf"],
  },
  {
    field: "rating_allocation_pct_cash",
    short: "cash",
    definition: 8,
    label: "cash allocation",
    appliesTo: ["mf"],
  },
  { field: "name", short: "name", definition: 9, label: "security name", appliesTo: ALL },
];
