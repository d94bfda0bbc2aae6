/**
 * Whether a streamed chat asks for token counts (`stream_options.include_usage`, the OpenAI
 * convention: without it a stream carries none, for --usage, /usage, cost and the saved turn).
 * The `streamUsage` setting turns it off for a server that refuses the field; left on, a server
 * that answers 400 naming `stream_options` gets the request again without it, and is not asked
 * again for the rest of the run (one session, one batch), so one refusal costs one round trip.
 */
import { ApiError } from '../core/errors.js';

export class StreamUsageAsk {
  #on: boolean;

  constructor(on: boolean) {
    this.#on = on;
  }

  get on(): boolean {
    return this.#on;
  }

  /** True when `error` is the service refusing the field: it is then not asked for again. */
  refusedBy(error: unknown): boolean {
    if (!this.#on || !(error instanceof ApiError) || error.status !== 400) return false;
    const said = `${error.serviceMessage ?? ''} ${error.body ?? ''}`;
    if (!said.includes('stream_options') && !said.includes('include_usage')) return false;
    this.#on = false;
    return true;
  }
}
