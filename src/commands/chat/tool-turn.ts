/**
 * A reply with tools, for the one-shot answer and for each turn of the session: the tool loop
 * (chat/tool-loop.ts) with svc's way of sending (streamReply: each reply streamed as it comes),
 * of showing calls and results (one dim line each on a terminal; a declined call said on stderr
 * wherever stderr goes) and of asking a person (terminal/tool-approval.ts). Also what a chat
 * makes of the loop: the turn it saves, its JSON, the errors it ends with.
 */
import { openSync } from 'node:fs';
import { ReadStream } from 'node:tty';
import type { Readable } from 'node:stream';
import type { ChatCompletion, ChatRequest, RequestMessage, Usage } from '../../api/chat-types.js';
import type { ApiClient } from '../../api/client.js';
import type { Prompt } from '../../attachments/message.js';
import { runToolLoop, type Approval, type CallView, type ToolLoopResult } from '../../chat/tool-loop.js';
import { toolsRefusal, ToolSet, type OpenTools } from '../../chat/tool-runner.js';
import { reasoningOf } from '../../api/chat-assembler.js';
import type { Turn } from '../../conversations/model.js';
import { SvcError, ToolDeclinedError, UsageError } from '../../core/errors.js';
import type { JsonObject } from '../../core/json.js';
import type { Role } from '../../roles/role-file.js';
import { startSpinner, type IO } from '../../terminal/io.js';
import { askByKeys, callLine, rawKeys, resultLine, toolLabel } from '../../terminal/tool-approval.js';
import { streamReply, turnFrom, type ReplyOptions, type ReplyOutcome } from './reply.js';
import { toolSelection, type ToolFlags } from './tool-flags.js';

export interface ToolReplyOptions {
  /** The tools on offer; none (or an empty set) sends no `tools` and runs nothing. */
  tools: ToolSet | undefined;
  maxSteps: number;
  /** The request for `messages`: the model, the plan's fields and params. */
  request(messages: RequestMessage[]): ChatRequest;
  /** How each reply is sent and shown; its signal is Ctrl-C for the whole loop. */
  reply: ReplyOptions;
  /** Asks the person at the terminal; undefined when there is none. */
  ask: ((call: CallView, signal: AbortSignal) => Promise<Approval>) | undefined;
}

/** The reply to `messages`, tool calls run on the way (chat/tool-loop.ts). */
export async function replyWithTools(io: IO, client: ApiClient, messages: readonly RequestMessage[], options: ToolReplyOptions): Promise<ToolLoopResult<ReplyOutcome>> {
  const tools = options.tools && options.tools.definitions.length > 0 ? options.tools : undefined;
  const shown = { colour: io.colorEnabled, columns: (io.stderr as { columns?: number }).columns };
  // The call and result lines are for a person watching; a script reads the saved turn or --json.
  const watched = io.stderrIsTTY;
  return runToolLoop(messages, tools, {
    maxSteps: options.maxSteps,
    signal: options.reply.signal,
    hooks: {
      send: async (sent) => {
        const request = options.request(sent);
        if (tools) request.tools = tools.definitions;
        const outcome = await streamReply(io, client, request, { ...options.reply, runsTools: tools !== undefined });
        const refusal = tools && outcome.error !== undefined ? toolsRefusal(outcome.error) : undefined;
        if (refusal) outcome.error = refusal;
        return outcome;
      },
      ask: options.ask,
      onCall: (view) => {
        if (watched) io.stderr.write(callLine(view, shown));
      },
      onResult: (record, summary) => {
        if (watched) io.stderr.write(resultLine(record, summary, shown));
      },
      onUnattended: (view) => io.note(`declined ${toolLabel(view)}: it is not allowed, and there is no terminal to ask on (the model was told); --allow ${toolLabel(view)} lets it run`),
      running: async (view) => {
        const spinner = await startSpinner(io, `running ${toolLabel(view)}…`);
        return () => spinner.stop();
      },
    },
  });
}

/**
 * The tools a chat offers (--tools, the role's, the profile's), their servers started. A tool
 * named that its server does not have is a usage error, before anything is sent.
 */
export async function openChatTools(open: OpenTools, flags: ToolFlags | undefined, role: Role | undefined, setting: () => string | undefined, signal: AbortSignal): Promise<ToolSet> {
  const tools = new ToolSet(open, toolSelection(flags, role, setting), flags?.allow ?? []);
  const problems = await tools.open(signal);
  if (problems.length > 0) {
    await tools.close();
    throw new UsageError(problems.join('; '), { hint: '`svc mcp tools NAME` lists the tools of a server' });
  }
  return tools;
}

/**
 * Asking about tool calls in a one-shot answer: on the terminal of stdin, or /dev/tty when stdin
 * is a pipe (as -i reads the keyboard), when stderr is a terminal to show the call on. None
 * otherwise: then only allowed tools run.
 */
export function oneShotApproval(io: IO): { ask: ((call: CallView, signal: AbortSignal) => Promise<Approval>) | undefined; close(): void } {
  const none = { ask: undefined, close() {} };
  if (!io.stderrIsTTY) return none;
  let input: Readable = io.stdin;
  let close = (): void => {};
  if (io.stdinKind !== 'tty') {
    try {
      const terminal = new ReadStream(openSync('/dev/tty', 'r'));
      input = terminal;
      close = () => terminal.destroy();
    } catch {
      return none;
    }
  }
  const keys = rawKeys(input);
  return { ask: (call, signal) => askByKeys(keys, io.stderr, call, { colour: io.colorEnabled, scope: 'command', signal }), close };
}

/** The counts of every request of the loop, added up (undefined when none reported any). */
function usageOf(rounds: readonly ReplyOutcome[]): Usage | undefined {
  let total: Usage | undefined;
  for (const round of rounds) {
    const usage = round.completion?.usage;
    if (!usage) continue;
    total ??= { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
    total.prompt_tokens += usage.prompt_tokens;
    total.completion_tokens += usage.completion_tokens;
    total.total_tokens += usage.total_tokens;
  }
  return total;
}

/** The turn to keep: the message, the tool steps, the reply; tokens of every request; marked interrupted when Ctrl-C stopped it. */
export function toolTurn(prompt: Prompt, model: string, loop: ToolLoopResult<ReplyOutcome>): Omit<Turn, 'at'> {
  const { user, files, usage: _last, reasoning: _reasoning, interrupted, ...rest } = turnFrom(prompt, model, loop.last);
  const usage = usageOf(loop.rounds);
  const reasoning = loop.rounds
    .map((round) => (round.completion?.choices[0] ? (reasoningOf(round.completion.choices[0].message as JsonObject) ?? '') : ''))
    .filter((text) => text !== '')
    .join('\n\n');
  return {
    user,
    ...(files ? { files } : {}),
    ...(loop.steps.length > 0 ? { steps: loop.steps } : {}),
    ...rest,
    ...(reasoning ? { reasoning } : {}),
    ...(interrupted || loop.stopped === 'interrupted' ? { interrupted: true } : {}),
    ...(usage ? { usage } : {}),
  };
}

/** `--json`: the last completion as the service sent it, with the tool steps before it as `tool_steps` (the saved turn's shape). */
export function completionWithSteps(completion: ChatCompletion, loop: ToolLoopResult<ReplyOutcome>): ChatCompletion {
  return loop.steps.length > 0 ? { ...completion, tool_steps: loop.steps } : completion;
}

/** The step limit reached: exit 1, saying what was kept. */
export function stepLimitError(loop: ToolLoopResult<ReplyOutcome>, maxSteps: number): SvcError | undefined {
  if (loop.stopped !== 'limit') return undefined;
  return new SvcError(`the model was still calling tools after ${maxSteps} request${maxSteps === 1 ? '' : 's'} (--max-steps ${maxSteps}); svc stopped there, and its last calls were not run`, {
    hint: 'what was done is kept (svc chat --continue goes on from it); raise --max-steps to let it go further',
  });
}

/** Calls declined because nobody could approve them: exit 7, naming how to allow them. */
export function declinedError(loop: ToolLoopResult<ReplyOutcome>): ToolDeclinedError | undefined {
  const count = loop.unattended.length;
  if (count === 0) return undefined;
  const names = [...new Set(loop.unattended)];
  return new ToolDeclinedError(`${count} tool call${count === 1 ? ' was' : 's were'} declined: nobody was at a terminal to approve ${names.join(', ')}`, {
    hint: `to let ${names.length === 1 ? 'it' : 'them'} run without asking: ${names.map((name) => `--allow ${name}`).join(' ')}`,
  });
}
