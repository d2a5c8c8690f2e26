// The part of the shared request client the task pane uses (kept narrow so the logic is easy to test): what
// the functions use, to run a cell's call the way they do, plus request planning and pricing, the counters
// and the month's usage (quota units).
import type { FdqClient } from "../../api";
import type { FdqApi } from "../../functions/impl";

export type PaneClient = FdqApi &
  Pick<
    FdqClient,
    | "plan"
    | "estimate"
    | "coveredToday"
    | "keyOf"
    | "invalidate"
    | "forget"
    | "stopRequestsOn"
    | "stats"
    | "usage"
    | "planRaised"
  >;
