// The one rule for Access-Control-Allow-Origin, shared by the app's CORS middleware and by the answers
// written before the app sees a request (client-errors.ts), and the switch that turns CORS off.

/**
 * "permissive" (default): CORS headers on every answer and 204 to preflights, for the task pane.
 * "off": no CORS header on any answer and 403 {"message":"Forbidden"} to preflights, as a gateway that sends
 * no CORS headers and requires the key on every method answers (production-service.md, fact 17).
 */
export type CorsMode = "permissive" | "off";
export const CORS_MODES: readonly CorsMode[] = ["permissive", "off"];

/** The task pane's dev origin; other localhost origins are echoed too. */
export const TASK_PANE_ORIGIN = "https://localhost:3000";
const LOCAL_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/;

/** The request's origin when it is local, else the task pane's. */
export const allowedOrigin = (origin: string | undefined): string =>
  origin !== undefined && LOCAL_ORIGIN.test(origin) ? origin : TASK_PANE_ORIGIN;
