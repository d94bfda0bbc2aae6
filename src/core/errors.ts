/**
 * The error hierarchy of svc and the one place where errors become exit codes.
 *
 * Every failure a user can meet is one of these classes; `main` turns whatever reaches it into an
 * exit code with {@link exitCodeFor} and a message with {@link describeError}. The table is the
 * contract of the README's "Exit codes"; scripts rely on it, so change it only with that table.
 */

export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  auth: 3,
  rejected: 4,
  rateLimited: 5,
  network: 6,
  /** A tool call was declined because nobody could approve it (no terminal, no --allow). */
  declined: 7,
  interrupted: 130,
  /** The reader of stdout left before svc batch finished (as a SIGPIPE would end it: 128 + 13). */
  readerGone: 141,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** Base class: a message for the user, an optional hint, and the exit code it maps to. */
export class SvcError extends Error {
  readonly exitCode: ExitCode = ExitCode.failure;
  /** One short line that tells the user what to do next, shown under the message. */
  readonly hint: string | undefined;
  constructor(message: string, options: { hint?: string | undefined; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.hint = options.hint;
  }
}

/** Bad flag, bad value, missing prompt or setting: nothing was sent. */
export class UsageError extends SvcError {
  override readonly exitCode = ExitCode.usage;
}

/** What the service said about a failed request, kept for messages and debugging. */
export interface ServiceErrorDetails {
  status: number;
  /** The service's own message, already extracted from the body (see api/service-message.ts). */
  serviceMessage: string | undefined;
  requestId: string | undefined;
  /** The service's error code (`error.code` or `error.type`), when it gave one. */
  code?: string | undefined;
  /** The start of the answer's body as text (up to MAX_ERROR_BODY_BYTES), when there was one. */
  body?: string | undefined;
}

/** An HTTP error answer from the service. Subclasses pick the exit code by status. */
export class ApiError extends SvcError {
  readonly status: number;
  readonly serviceMessage: string | undefined;
  readonly requestId: string | undefined;
  readonly code: string | undefined;
  readonly body: string | undefined;
  constructor(message: string, details: ServiceErrorDetails, options: { hint?: string } = {}) {
    super(message, options);
    this.status = details.status;
    this.serviceMessage = details.serviceMessage;
    this.requestId = details.requestId;
    this.code = details.code;
    this.body = details.body;
  }
}

/** No key, or the service answered 401/403. */
export class AuthError extends ApiError {
  override readonly exitCode = ExitCode.auth;
}

/** No key anywhere: nothing was sent. */
export class MissingKeyError extends SvcError {
  override readonly exitCode = ExitCode.auth;
}

/** A key that cannot be sent (not a valid header value, or a stored key that is not text): nothing was sent. */
export class UnusableKeyError extends SvcError {
  override readonly exitCode = ExitCode.auth;
}

/** A 4xx other than 401/403/429: bad parameter, unknown model, disallowed content. */
export class RejectedError extends ApiError {
  override readonly exitCode = ExitCode.rejected;
}

/** 429 after every retry, or a wait the service asked for that is too long to sit through. */
export class RateLimitError extends ApiError {
  override readonly exitCode = ExitCode.rateLimited;
}

/** 5xx after every retry, or another status svc does not know what to do with. */
export class ServerError extends ApiError {
  override readonly exitCode = ExitCode.failure;
}

/** Cannot connect, TLS failure, timeout, or the connection was cut mid-response. */
export class NetworkError extends SvcError {
  override readonly exitCode = ExitCode.network;
}

/** The service answered 200 but with something svc cannot read. */
export class MalformedResponseError extends SvcError {
  override readonly exitCode = ExitCode.failure;
}

/**
 * The model asked to run a tool that was not allowed, and no person was there to approve it: the
 * call was declined (the model was told) and the command ends with this once the reply is out.
 */
export class ToolDeclinedError extends SvcError {
  override readonly exitCode = ExitCode.declined;
}

/**
 * An MCP server (docs/tools.md) that could not start, or stopped: `server` names it, and
 * `stderrLine` is the last line it wrote on its stderr, neutralised (quoted in the message). The
 * command or the conversation can go on without that server's tools.
 */
export class ToolServerError extends SvcError {
  readonly server: string;
  readonly stderrLine: string | undefined;
  constructor(server: string, message: string, options: { stderrLine?: string | undefined; hint?: string | undefined; cause?: unknown } = {}) {
    super(message, options);
    this.server = server;
    this.stderrLine = options.stderrLine;
  }
}

/** The user pressed Ctrl-C (or the process got SIGINT/SIGTERM). */
export class InterruptedError extends SvcError {
  override readonly exitCode = ExitCode.interrupted;
  constructor(message = 'interrupted') {
    super(message);
  }
}

/**
 * A reply an error cut short: `partial` is what had arrived (for a chat, the completion assembled
 * as far as it went), so the caller can still print it with `--json` or save it; `cause` is the
 * error that cut it, whose message, hint and exit code are this one's. A caller that keeps the
 * partial reply takes it and goes on with `cause`; one that does not, with `cause` alone.
 */
export class ReplyCutError<Partial> extends SvcError {
  override readonly exitCode: ExitCode;
  override readonly cause: unknown;
  readonly partial: Partial;
  constructor(cause: unknown, partial: Partial) {
    super(cause instanceof Error ? cause.message : String(cause), { hint: cause instanceof SvcError ? cause.hint : undefined, cause });
    this.exitCode = exitCodeFor(cause);
    this.cause = cause;
    this.partial = partial;
  }
}

/** Ends a command with a code and no message (e.g. `svc config get` of an unset key). */
export class SilentExit extends SvcError {
  override readonly exitCode: ExitCode;
  constructor(code: ExitCode) {
    super('');
    this.exitCode = code;
  }
}

/** Exit code for anything thrown: our own errors carry theirs, everything else is a plain failure. */
export function exitCodeFor(error: unknown): ExitCode {
  return error instanceof SvcError ? error.exitCode : ExitCode.failure;
}

/**
 * The one or two lines shown on stderr for an error: what failed, the service's details, a hint.
 * Never a stack trace: that is for SVC_DEBUG=1 and is printed by main.
 */
export function describeError(error: unknown): string[] {
  if (error instanceof SilentExit) return [];
  if (error instanceof ReplyCutError) return describeError(error.cause);
  if (error instanceof ApiError) {
    const parts = [error.message];
    const extras: string[] = [];
    if (error.status > 0) extras.push(`HTTP ${error.status}`);
    if (error.requestId) extras.push(`request id ${error.requestId}`);
    if (extras.length > 0) parts[0] += ` (${extras.join(', ')})`;
    if (error.hint) parts.push(error.hint);
    return parts;
  }
  if (error instanceof SvcError) {
    return error.hint ? [error.message, error.hint] : [error.message];
  }
  if (error instanceof Error) return [`unexpected error: ${error.message}`, 'run again with SVC_DEBUG=1 for details'];
  return [`unexpected error: ${String(error)}`];
}
