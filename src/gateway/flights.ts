// Who fetches a request that is not in the day's store. Within one instance the proxy joins identical
// requests in flight itself (one promise per request); across instances (Redis) the one that takes the
// request's lock fetches and the others wait for its answer. Without Redis every flight is this instance's.
import type { AnswerKey } from "./keys";
import type { UpstreamAnswer } from "./upstream";

export interface FlightOutcome {
  answer: UpstreamAnswer;
  /** Whether this instance fetched it upstream (and so counted its units), or found it kept or fetched. */
  fetchedHere: boolean;
}

/**
 * The flight itself: looks at the day's store again first (an answer kept between the caller's look and
 * the flight's start must not be fetched twice), else fetches upstream.
 */
export type Fly = () => Promise<FlightOutcome>;

export interface Flights {
  /** Runs `fly` for the request unless another instance is flying it now; then answers what it got. */
  run(key: AnswerKey, fly: Fly): Promise<FlightOutcome>;
}

/** One instance on its own: every flight is flown here. */
export const localFlights: Flights = { run: (_key, fly) => fly() };
