// The part of the shared request client the task pane uses (kept narrow so the logic is easy to test).
import type { FdqClient } from "../../api";

export type PaneClient = Pick<FdqClient, "planDatapoint" | "datapoint" | "invalidate" | "stats">;
