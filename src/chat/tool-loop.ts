/**
 * The tool loop of one reply: send the conversation; when the reply calls tools, run each call
 * in order (asking first, unless it is allowed), send the calls and their results back, and send
 * again; until the model answers without a call, or `maxSteps` requests were made.
 *
 * Nothing the model sends crashes it: a call to a tool that was not offered, or arguments that
 * are not a JSON object, go back to the model as an error result, as does a tool that fails. A
 * call nobody may approve (no terminal, no allow rule) is declined and the model told so. Every
 * call gets a result, also one left unrun (the step limit, Ctrl-C), so the steps kept always make
 * a history the service takes again.
 *
 * Used by the one-shot answer and by each turn of the session; how a reply is sent and shown,
 * and how a person is asked, are theirs (the hooks).
 */
import type { ChatCompletion, RequestMessage } from '../api/chat-types.js';
import { isObject } from '../core/json.js';
import { InterruptedError } from '../core/errors.js';
import { stepMessages, type ToolCallRecord, type ToolStep } from '../conversations/model.js';
import type { ToolIdentity, ToolSet } from './tool-runner.js';

/** What sending one request gave: the reply as far as it came, and the failure if there was one. */
export interface Round {
  completion: ChatCompletion | undefined;
  error: unknown;
  /** The reader of the reply went away (`| head -1`): nothing more is wanted, no call is run. */
  stdoutClosed?: boolean;
}

/** A call the model made, as shown to the person: which tool, with what. */
export interface CallView {
  id: string;
  /** The function name the model called. */
  name: string;
  identity: ToolIdentity;
  /** The arguments, as the model sent them (a JSON object's text). */
  argumentsText: string;
}

/** A person's answer: run it this time, run it and every later call of the tool, or not. */
export type Approval = 'once' | 'always' | 'no';

export interface ToolLoopHooks<R extends Round> {
  /** Send `messages` (with the tools on offer) and return the reply; shown as it streams. */
  send(messages: RequestMessage[]): Promise<R>;
  /**
   * Ask the person whether `call` may run; absent when nobody can be asked (no terminal): a call
   * no rule allows is then declined. Rejects with InterruptedError on Ctrl-C, or when `signal`
   * is aborted while it waits.
   */
  ask?: ((call: CallView, signal: AbortSignal) => Promise<Approval>) | undefined;
  /** A call about to run without asking (allowed by a rule or an earlier "always"). */
  onCall?(call: CallView): void;
  /** A call done, run or not: what went back to the model, and a one-line summary of it. */
  onResult?(call: ToolCallRecord, summary: string): void;
  /** A call declined because nobody could approve it. */
  onUnattended?(call: CallView): void;
  /** While a tool runs (a spinner); resolves with what ends it. */
  running?(call: CallView): Promise<() => void>;
}

export interface ToolLoopOptions<R extends Round> {
  /** At most this many requests for one reply. */
  maxSteps: number;
  /** Aborted by Ctrl-C: a running call gets it, and no further call runs. */
  signal: AbortSignal;
  hooks: ToolLoopHooks<R>;
}

export interface ToolLoopResult<R extends Round> {
  /** The last request's outcome: the final reply, or the failure that ended the loop. */
  last: R;
  /** Every request's outcome, in order (their token counts add up to the reply's). */
  rounds: R[];
  /** The replies that called tools, each with every call's result. */
  steps: ToolStep[];
  /** Why the loop stopped before the model answered: the step limit, or Ctrl-C while asking or running. */
  stopped?: 'limit' | 'interrupted';
  /** The tools declined because nobody could approve them (`server.tool`, once per call). */
  unattended: string[];
}

/** What the model is told for a call a person said no to. */
export const DECLINED_BY_USER = 'the user declined to run this tool';
/** What the model is told for a call nobody could approve. */
export const DECLINED_UNATTENDED = 'svc declined to run this tool: it is not allowed to run without a person approving it, and no one was at a terminal to ask';

const NOT_RUN_INTERRUPTED = 'svc did not run this call: the user interrupted the reply';

/** The calls of a reply, made whole: an id for each (unique in the reply), arguments as text. */
export function toolCallsOf(completion: ChatCompletion | undefined): Array<{ id: string; name: string; arguments: string }> {
  const calls = completion?.choices[0]?.message.tool_calls;
  if (!Array.isArray(calls)) return [];
  const seen = new Set<string>();
  return (calls as unknown[]).map((call, index) => {
    const fn = isObject(call) && isObject(call.function) ? call.function : {};
    let id = isObject(call) && typeof call.id === 'string' && call.id !== '' ? call.id : `call_svc_${index + 1}`;
    if (seen.has(id)) id = `${id}_${index + 1}`;
    seen.add(id);
    const name = typeof fn.name === 'string' ? fn.name : '';
    // Some servers send the arguments as an object; none at all means no arguments.
    const raw = fn.arguments;
    const text = typeof raw === 'string' ? raw : raw === undefined || raw === null ? '' : JSON.stringify(raw);
    return { id, name, arguments: text.trim() === '' ? '{}' : text };
  });
}

/** Why `text` cannot be a call's arguments, or undefined when it is a JSON object. */
export function argumentsProblem(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `the arguments are not valid JSON (${(error as Error).message})`;
  }
  return isObject(value) ? undefined : 'the arguments must be a JSON object';
}

/** The first line of `text`, for a result's one-line summary. */
function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

export async function runToolLoop<R extends Round>(messages: readonly RequestMessage[], tools: ToolSet | undefined, options: ToolLoopOptions<R>): Promise<ToolLoopResult<R>> {
  const { hooks, signal } = options;
  const sent = [...messages];
  const result: Omit<ToolLoopResult<R>, 'last'> = { rounds: [], steps: [], unattended: [] };
  for (let round = 1; ; round++) {
    const outcome = await hooks.send(sent);
    result.rounds.push(outcome);
    const calls = outcome.error === undefined && outcome.stdoutClosed !== true && tools ? toolCallsOf(outcome.completion) : [];
    if (calls.length === 0 || signal.aborted) return { ...result, last: outcome };
    const step: ToolStep = { text: outcome.completion?.choices[0]?.message.content ?? '', calls: [] };
    result.steps.push(step);
    if (round >= options.maxSteps) {
      const why = `svc did not run this call: the limit of ${options.maxSteps} request${options.maxSteps === 1 ? '' : 's'} for one reply (--max-steps) was reached`;
      step.calls = calls.map((call) => notRun(call, tools, why));
      return { ...result, last: outcome, stopped: 'limit' };
    }
    let interrupted = false;
    for (const call of calls) {
      if (interrupted) {
        step.calls.push(notRun(call, tools, NOT_RUN_INTERRUPTED));
        continue;
      }
      try {
        step.calls.push(await runCall(call, tools!, options, result.unattended));
        interrupted = signal.aborted;
      } catch (error) {
        // Ctrl-C while asking: this call and the ones after it are not run.
        if (!(error instanceof InterruptedError)) throw error;
        step.calls.push(notRun(call, tools, NOT_RUN_INTERRUPTED));
        interrupted = true;
      }
    }
    if (interrupted) return { ...result, last: outcome, stopped: 'interrupted' };
    sent.push(...stepMessages(step));
  }
}

/** A call svc did not run, with why as its result (and its tool, when it is one on offer). */
function notRun(call: { id: string; name: string; arguments: string }, tools: ToolSet | undefined, why: string): ToolCallRecord {
  const identity = tools?.describe(call.name);
  return { ...call, ...(identity ? { tool: `${identity.server}.${identity.tool}` } : {}), result: why, isError: true };
}

/** Check, approve and run one call; rejects with InterruptedError only for Ctrl-C while asking. */
async function runCall<R extends Round>(call: { id: string; name: string; arguments: string }, tools: ToolSet, options: ToolLoopOptions<R>, unattended: string[]): Promise<ToolCallRecord> {
  const { hooks, signal } = options;
  const done = (record: ToolCallRecord, summary = firstLine(record.result)): ToolCallRecord => {
    hooks.onResult?.(record, summary);
    return record;
  };
  const identity = tools.describe(call.name);
  if (!identity) {
    const offered = tools.definitions.map((definition) => definition.function.name);
    const result = `there is no tool named "${call.name}"; the tools offered are: ${offered.length > 0 ? offered.join(', ') : 'none'}`;
    return done({ ...call, result, isError: true });
  }
  const tool = `${identity.server}.${identity.tool}`;
  const problem = argumentsProblem(call.arguments);
  if (problem) return done({ ...call, tool, result: `${problem}; nothing was run: call ${call.name} again with a JSON object of its parameters`, isError: true });
  const view: CallView = { id: call.id, name: call.name, identity, argumentsText: call.arguments };
  if (tools.allowed(identity)) hooks.onCall?.(view);
  else if (!hooks.ask) {
    unattended.push(tool);
    hooks.onUnattended?.(view);
    return done({ ...call, tool, result: DECLINED_UNATTENDED, declined: true }, 'declined: not allowed without a terminal');
  } else {
    const answer = await hooks.ask(view, signal);
    if (answer === 'no') return done({ ...call, tool, result: DECLINED_BY_USER, declined: true }, 'declined');
    if (answer === 'always') tools.grant(identity);
  }
  const stop = await hooks.running?.(view);
  try {
    const outcome = await tools.call(call.name, call.arguments, signal);
    if (signal.aborted) return done({ ...call, tool, result: INTERRUPTED_RUNNING, isError: true }, 'interrupted');
    return done({ ...call, tool, result: outcome.content, ...(outcome.isError ? { isError: true } : {}) }, outcome.isError ? `error: ${outcome.summary}` : outcome.summary);
  } catch (error) {
    if (signal.aborted) return done({ ...call, tool, result: INTERRUPTED_RUNNING, isError: true }, 'interrupted');
    return done({ ...call, tool, result: `the tool could not be run: ${error instanceof Error ? error.message : String(error)}`, isError: true });
  } finally {
    stop?.();
  }
}

const INTERRUPTED_RUNNING = 'the user interrupted this call before it finished; it may have done part of its work';
