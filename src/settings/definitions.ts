/**
 * The settings svc knows, where each can come from, and how each is checked.
 * docs/settings.md "Settings and precedence" is the source of this table.
 */
import { InvalidValueError, parseBaseUrl, parseChoice, parseIntegerInRange, parseModelId, parseNumberInRange, parseOnOff } from '../core/parse-values.js';
import { CHAT_OWNED, parseParamsObject } from '../core/request-params.js';
import { splitCommandLine } from './command-line.js';
import { parseToolNames, toolNameText } from '../core/names.js';

export interface SettingDefinition<T> {
  /** The environment variable that overrides the stored value. */
  env: string;
  /** Used when neither flag, environment nor store gives a value. */
  defaultValue: T | undefined;
  /** One line for `svc config list` and help. */
  description: string;
  /** Parse and check a value typed by a person; `source` names where it came from. */
  parse(text: string, source: string): T;
  /**
   * The JSON type `svc config set` stores. A hand-edited file may also hold a number setting as a
   * string ("30"), and a switch as true or false; anything else (an array, an object, true for a
   * setting that is not a switch) is refused, never turned into text.
   */
  stores: 'string' | 'number' | 'switch';
}

/**
 * How replies reach a terminal: `auto` renders Markdown when stdout is a terminal (and never
 * anywhere else); `raw` prints the text as the service sent it, as in a pipe.
 */
export const RENDER_MODES = ['auto', 'raw'] as const;
export type RenderMode = (typeof RENDER_MODES)[number];

/**
 * The values of --preview, SVC_PREVIEW and the stored `preview` setting. Here, apart from the code
 * that acts on them (preview/), so declaring the setting loads nothing of the preview.
 */
export const PREVIEW_CHOICES = ['auto', 'kitty', 'iterm', 'sixel', 'blocks', 'none'] as const;
export type PreviewChoice = (typeof PREVIEW_CHOICES)[number];

/** A switch setting's two values, as stored and listed (imageMetadata, streamUsage, saveOneShots). */
export const ON_OFF = ['on', 'off'] as const;
export type OnOff = (typeof ON_OFF)[number];

/**
 * A setting that is on or off. Every switch reads the same words (parseOnOff: on/off, true/false,
 * yes/no, 1/0, any case), from `svc config set`, its variable and the file alike, and is stored
 * and listed as "on" or "off".
 */
function switchSetting(env: string, description: string) {
  return { env, defaultValue: 'on' as OnOff, description, parse: parseOnOff, stores: 'switch' as const } satisfies SettingDefinition<OnOff>;
}

/** The largest context window svc takes: well above any model's, small enough to be a typo's end. */
export const MAX_CONTEXT_WINDOW = 100_000_000;

/** Tokens of a context window as typed, for `contextWindow` and each `contextWindow.MODEL`: a whole number. */
export function parseWindowTokens(text: string, source: string): number {
  return parseIntegerInRange(text, source, 1, MAX_CONTEXT_WINDOW);
}

/**
 * `autoCompact`: `off`, or the share of the context window (1 to 100, a trailing % allowed) over
 * which a conversation is compacted before it is sent.
 */
export function parseAutoCompact(text: string, source: string): number | 'off' {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === 'off') return 'off';
  const percent = /^\d+%?$/.test(trimmed) ? Number(trimmed.replace('%', '')) : Number.NaN;
  if (!Number.isInteger(percent) || percent < 1 || percent > 100) throw new InvalidValueError(source, 'must be off, or a percentage of the context window from 1 to 100', text);
  return percent;
}

/** Longest silence allowed, seconds: a day is already absurd, and keeps the ms value a safe timer. */
const MAX_TIMEOUT_SECONDS = 86_400;

export const settingDefinitions = {
  baseUrl: {
    env: 'SVC_BASE_URL',
    defaultValue: undefined,
    description: 'service base URL; /v1/... is appended',
    parse: parseBaseUrl,
    stores: 'string',
  } satisfies SettingDefinition<string>,
  timeout: {
    env: 'SVC_TIMEOUT',
    defaultValue: 120,
    description: 'seconds the service may stay silent before svc gives up',
    parse: (text: string, source: string) => parseNumberInRange(text, source, 0.001, MAX_TIMEOUT_SECONDS),
    stores: 'number',
  } satisfies SettingDefinition<number>,
  maxRetries: {
    env: 'SVC_MAX_RETRIES',
    defaultValue: 2,
    description: 'retries for connection failures, 408, 409, 429 and 5xx',
    parse: (text: string, source: string) => parseIntegerInRange(text, source, 0, 10),
    stores: 'number',
  } satisfies SettingDefinition<number>,
  model: {
    env: 'SVC_MODEL',
    defaultValue: 'svc-pro',
    description: 'chat model',
    parse: parseModelId,
    stores: 'string',
  } satisfies SettingDefinition<string>,
  imageModel: {
    env: 'SVC_IMAGE_MODEL',
    defaultValue: 'svc-vision',
    description: 'image model',
    parse: parseModelId,
    stores: 'string',
  } satisfies SettingDefinition<string>,
  preview: {
    env: 'SVC_PREVIEW',
    defaultValue: 'auto',
    description: 'image preview in the terminal: auto, kitty, iterm, sixel, blocks or none',
    parse: (text: string, source: string): PreviewChoice => parseChoice(text, source, PREVIEW_CHOICES),
    stores: 'string',
  } satisfies SettingDefinition<PreviewChoice>,
  render: {
    env: 'SVC_RENDER',
    defaultValue: 'auto',
    description: 'replies on a terminal: auto (Markdown rendered) or raw (the text as sent)',
    parse: (text: string, source: string): RenderMode => parseChoice(text, source, RENDER_MODES),
    stores: 'string',
  } satisfies SettingDefinition<RenderMode>,
  imageInputMax: {
    env: 'SVC_IMAGE_INPUT_MAX',
    defaultValue: 2048,
    description: 'pixels on the long side an image attached to a message (-f, /file) is scaled down to',
    parse: (text: string, source: string) => parseIntegerInRange(text, source, 64, 8192),
    stores: 'number',
  } satisfies SettingDefinition<number>,
  imageMetadata: switchSetting('SVC_IMAGE_METADATA', "write each saved image's prompt, model and seed into the file (XMP): on, or off for the bytes as sent"),
  streamUsage: switchSetting('SVC_STREAM_USAGE', 'ask streamed replies for token counts (stream_options.include_usage): on, or off for a server that refuses it'),
  keyCommand: {
    env: 'SVC_KEY_COMMAND',
    defaultValue: undefined,
    description: 'a command whose first line of output is the API key (run without a shell; beats the stored key)',
    // Split now so a typo (a quote left open) is found when it is set, not at the first request.
    parse: (text: string, source: string) => {
      splitCommandLine(text, source);
      return text.trim();
    },
    stores: 'string',
  } satisfies SettingDefinition<string>,
  params: {
    env: 'SVC_PARAMS',
    defaultValue: undefined,
    description: 'extra chat request fields, a JSON object sent with every chat request ({"service_tier": "flex"})',
    // Kept as the JSON text (settings store strings and numbers); checked here so a typo or a field
    // an option owns is refused when it is set, not at the first request.
    parse: (text: string, source: string) => JSON.stringify(parseParamsObject(text, source, CHAT_OWNED)),
    stores: 'string',
  } satisfies SettingDefinition<string>,
  tools: {
    env: 'SVC_TOOLS',
    defaultValue: undefined,
    description: 'tools every chat offers, as --tools names them: "fs, web.search" (--tools or a role\'s tools beat it)',
    // Kept as the names' text, checked when set: a typo is said then, not at the next chat.
    parse: (text: string, source: string) => parseToolNames([text], source).map(toolNameText).join(', '),
    stores: 'string',
  } satisfies SettingDefinition<string>,
  contextWindow: {
    env: 'SVC_CONTEXT_WINDOW',
    defaultValue: undefined,
    description: "tokens a model takes in one request, prompt and reply (every model of the profile; contextWindow.MODEL for one); none: what the server says",
    parse: parseWindowTokens,
    stores: 'number',
  } satisfies SettingDefinition<number>,
  autoCompact: {
    env: 'SVC_AUTO_COMPACT',
    defaultValue: 'off',
    description: 'compact a conversation before a send that would fill more than this percentage of the context window: 1 to 100, or off',
    parse: parseAutoCompact,
    stores: 'number',
  } satisfies SettingDefinition<number | 'off'>,
  saveOneShots: switchSetting('SVC_SAVE_ONE_SHOTS', 'keep one-shot answers (svc chat "question" without --session or --continue) as saved conversations: on or off'),
};

export type SettingName = keyof typeof settingDefinitions;

/** The values a setting takes from a fixed set, for completion of `svc config set KEY <Tab>` (a switch: on, off). */
export const SETTING_CHOICES: Partial<Record<SettingName, readonly string[]>> = {
  preview: PREVIEW_CHOICES,
  render: RENDER_MODES,
  ...Object.fromEntries(Object.entries(settingDefinitions).filter(([, definition]) => definition.stores === 'switch').map(([name]) => [name, ON_OFF])),
};
export type SettingValue<N extends SettingName> = ReturnType<(typeof settingDefinitions)[N]['parse']>;
/** What a setting resolves to: never undefined when it has a default (only baseUrl has none). */
export type ResolvedValue<N extends SettingName> = undefined extends (typeof settingDefinitions)[N]['defaultValue'] ? SettingValue<N> | undefined : SettingValue<N>;

export const settingNames = Object.keys(settingDefinitions) as SettingName[];

export function isSettingName(name: string): name is SettingName {
  return Object.hasOwn(settingDefinitions, name);
}
