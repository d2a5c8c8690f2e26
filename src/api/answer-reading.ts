// What an answer of the FDQ service means (its results, or the error of the one factory), and what of it a
// refresh day keeps. The add-in's client (transport.ts, client-engine.ts) and the gateway (src/gateway/proxy.ts)
// both read answers and keep them for the day by these two functions, so the gateway's store and the client's
// day cache keep the same answers.
import { sizeText } from "./body";
import { decodeEnvelope, describeBody, errorMessageOf, parseJson } from "./decode";
import { BadResponseError, errorFromAnswer, FdqError, type AnswerContext } from "./errors";

/** An answer as it came off the wire (its body already read within the bound, and redacted). */
export interface WireAnswer {
  status: number;
  contentType: string | null;
  /** Undefined: an error body over the size bound, not read. */
  text: string | undefined;
  retryAfterMs: number | undefined;
}

export interface ReadingContext extends AnswerContext {
  /** The bound the body was read within (for the message of one that was not read). */
  maxBodyBytes: number;
}

/** The results of a good answer; anything else throws its FdqError (errorFromAnswer's). */
export function resultsOf(answer: WireAnswer, context: ReadingContext): unknown {
  const { status, contentType, text, retryAfterMs } = answer;
  const parsed = text === undefined ? undefined : parseJson(text);
  if (status >= 200 && status <= 299) {
    if (!parsed) {
      const detail = `${describeBody(text ?? "", contentType)} instead of JSON`;
      throw new BadResponseError({ detail, hints: context.hints });
    }
    const envelope = decodeEnvelope(parsed.json);
    if (envelope.ok) return envelope.results;
    throw errorFromAnswer({ ...envelope, detail: "an error inside the envelope", retryAfterMs }, context);
  }
  throw errorFromAnswer(
    {
      status,
      message: parsed ? errorMessageOf(parsed.json) : undefined,
      detail: parsed
        ? "a JSON body without a message"
        : text === undefined
          ? `a body larger than ${sizeText(context.maxBodyBytes)}`
          : describeBody(text, contentType),
      retryAfterMs,
    },
    context,
  );
}

export type Outcome = { readonly results: unknown } | { readonly error: FdqError };

/** `resultsOf` as a value: the results, or the FdqError the answer means. */
export function outcomeOf(answer: WireAnswer, context: ReadingContext): Outcome {
  try {
    return { results: resultsOf(answer, context) };
  } catch (error) {
    if (error instanceof FdqError) return { error };
    throw error;
  }
}

/**
 * Whether a refresh day keeps an outcome: what the service answered, and a "does not exist" refusal, which
 * holds all day (a remembered error). Never a transient failure, a throttle, a spent quota, a refused key
 * or a malformed answer: those are asked again.
 */
export function keptForDay(outcome: Outcome): boolean {
  return "results" in outcome || outcome.error.remembered;
}
