/**
 * `svc chat` flags → a ChatPlan, checked and converted once, before stdin is read or anything is
 * sent (exit 2, nothing sent). The one-shot answer and the session both work from the plan.
 * Pure, so a table test covers it.
 */
import { checkConversationName, parseRoleName } from '../../core/names.js';
import { UsageError } from '../../core/errors.js';
import type { SettingFlags } from '../../factory.js';
import { settingFlagsFrom } from '../setting-flags.js';
import type { ChatFlags } from './flags.js';
import { parseRequestFields, rawFieldsOfFlags, type RequestFields } from '../../chat/request-fields.js';
import { parseVars } from '../../roles/template.js';
import { CHAT_OWNED, parseParams, type RequestParams } from '../../core/request-params.js';

/** --continue, --session and --no-save: the conversation a chat adds to. */
export interface ConversationChoice {
  /** `--continue`: the conversation changed last. */
  continueLatest: boolean;
  /** `--session <name>`: that one, created if new. */
  sessionName: string | undefined;
  /** `--no-save` sets this to false. */
  save: boolean;
}

export interface ChatPlan {
  /** The prompt words; piped stdin is read later, when `stdin` allows it (prompt-input.ts). */
  words: string[];
  /** The request's optional fields, checked and converted (request-fields.ts). */
  fields: RequestFields;
  /** `-s`, as given: the conversation's system message becomes it ('' removes it). */
  system: string | undefined;
  /** `--no-stream` sets this to false. */
  stream: boolean;
  json: boolean;
  usage: boolean;
  /** `--show-reasoning`: in a pipe, the model's reasoning goes to stderr (reply.ts reasoningShown). */
  showReasoning?: boolean;
  /** `--no-stdin` sets this to false. */
  stdin: boolean;
  /** `-i`: after the prompt, carry on talking from the terminal. */
  interactive: boolean;
  conversation: ConversationChoice;
  /** --model, --base-url, --timeout, --max-retries and --raw (the render setting): resolved with the environment and stored settings. */
  settings: SettingFlags;
  /** `-f`: the files (or quoted globs) whose text joins the message, read before anything is sent. */
  files?: readonly string[];
  /** `--role`: the saved role whose system message and defaults apply (flags given beat it). */
  role?: string | undefined;
  /** `--dry-run`: print the request as a curl command instead of sending it. */
  dryRun?: boolean;
  /** `--var NAME=VALUE`: values for the role's blanks (roles/template.ts). */
  vars?: Record<string, string>;
  /** `-x/--extract` (all blocks) or `--extract-last`: stdout gets only the answer's code. */
  extract?: 'all' | 'last' | undefined;
  /** `--param KEY=VALUE`: fields added to the request body as given (core/request-params.ts). */
  params?: RequestParams;
}

function checkConversationChoice(choice: ConversationChoice): void {
  if (choice.continueLatest && choice.sessionName !== undefined) {
    throw new UsageError('--continue and --session cannot be used together');
  }
  if (choice.sessionName !== undefined) checkConversationName(choice.sessionName);
}

export function parseChatOptions(words: string[], flags: ChatFlags): ChatPlan {
  const fields = parseRequestFields(rawFieldsOfFlags(flags));
  const conversation: ConversationChoice = { continueLatest: flags.continue === true, sessionName: flags.session, save: flags.save };
  checkConversationChoice(conversation);
  const interactive = flags.interactive === true;
  const json = flags.json === true;
  if (interactive && json) throw new UsageError('--json is for one-shot answers, not the interactive session');
  const dryRun = flags.dryRun === true;
  if (dryRun && interactive) throw new UsageError('--dry-run prints one request: give the prompt, not -i');
  const extract = extractChoice(flags, { interactive, json });
  return {
    words,
    fields,
    system: flags.system,
    stream: flags.stream,
    json,
    usage: flags.usage === true,
    showReasoning: flags.showReasoning === true,
    stdin: flags.stdin,
    interactive,
    conversation,
    settings: { ...settingFlagsFrom(flags, 'model'), render: flags.raw === true ? 'raw' : undefined },
    files: flags.file ?? [],
    role: flags.role === undefined ? undefined : parseRoleName(flags.role, '--role'),
    dryRun,
    params: parseParams(flags.param ?? [], CHAT_OWNED),
    ...(extract ? { extract } : {}),
    ...(flags.var ? { vars: parseVars(flags.var) } : {}),
  };
}

/** --extract / --extract-last: which blocks, checked against the flags they cannot go with. */
function extractChoice(flags: ChatFlags, mode: { interactive: boolean; json: boolean }): 'all' | 'last' | undefined {
  const extract = flags.extractLast === true ? 'last' : flags.extract === true ? 'all' : undefined;
  if (extract === undefined) return undefined;
  const flag = extract === 'last' ? '--extract-last' : '--extract';
  if (mode.interactive) throw new UsageError(`${flag} is for one-shot answers; in the session, /copy code copies the last reply's code`);
  if (mode.json) throw new UsageError(`${flag} and --json cannot be used together: --json prints the whole completion`);
  return extract;
}
