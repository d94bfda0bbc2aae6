/**
 * Errors the emulator answers with, in the OpenAI body shape.
 *
 * Handlers throw an {@link EmulatorError}; the router is the one place that turns it into a
 * response, so every failure has the same shape and headers whatever code path raised it.
 */

/** The body of every error response: `{"error": {"message", "type", "code", "param"}}`. */
export interface ErrorBody {
  error: { message: string; type: string; code: string | null; param: string | null };
}

/** An HTTP error answer: status, OpenAI-style `type`, optional `code` and `param`, extra headers. */
export class EmulatorError extends Error {
  readonly status: number;
  readonly type: string;
  readonly code: string | null;
  readonly param: string | null;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    status: number,
    message: string,
    options: { type?: string; code?: string | null; param?: string | null; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'EmulatorError';
    this.status = status;
    this.type = options.type ?? 'invalid_request_error';
    this.code = options.code ?? null;
    this.param = options.param ?? null;
    this.headers = options.headers ?? {};
  }

  /** The JSON body sent to the client. */
  toBody(): ErrorBody {
    return { error: { message: this.message, type: this.type, code: this.code, param: this.param } };
  }
}

/** A 400 about one request parameter; `param` names it the way OpenAI does (`messages[1].role`). */
export function invalidParam(param: string | null, message: string, code: string | null = 'invalid_value'): EmulatorError {
  return new EmulatorError(400, message, { param, code });
}

/** A 404 for a model the emulator does not serve on this endpoint (OpenAI's wording). */
export function modelNotFound(model: string): EmulatorError {
  return new EmulatorError(404, `The model '${model}' does not exist or you do not have access to it.`, {
    code: 'model_not_found',
    param: 'model',
  });
}

/**
 * A 500 for an exception nobody expected. The detail is deliberately not sent: the message of an
 * internal error may carry request content, and the client cannot act on it anyway.
 */
export function internalError(): EmulatorError {
  return new EmulatorError(500, 'The emulator had an internal error while processing your request.', {
    type: 'server_error',
    code: 'internal_error',
  });
}
