/**
 * Pass-through fields (`--param KEY=VALUE` on chat, image and batch): a request body field that
 * no option names, sent as given. VALUE is read as JSON when it is JSON (`--param n=2`,
 * `--param 'logit_bias={"50256": -100}'`), else taken as a string; a dotted key builds objects
 * (`--param response_format.type=json_object`). A field an option already sets is refused,
 * naming that option, so there is one way to set each. Values parsed from text, like
 * parse-values.ts, read by the `params` setting, a role's `params:` and every command that sends.
 */
import { UsageError } from './errors.js';

export type RequestParams = Record<string, unknown>;

const KEY = /^[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*$/;

function valueOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Put `value` at the dotted `path` of `target`, making objects on the way. */
function setPath(target: Record<string, unknown>, path: string[], value: unknown, raw: string): void {
  let place = target;
  for (const part of path.slice(0, -1)) {
    const next = place[part];
    if (next === undefined) place = place[part] = {};
    else if (next !== null && typeof next === 'object' && !Array.isArray(next)) place = next as Record<string, unknown>;
    else throw new UsageError(`--param ${raw}: ${part} was given a value already, so it cannot hold fields`);
  }
  place[path.at(-1)!] = value;
}

/**
 * The fields of the `--param` values. `owned` maps the body fields options set to the option that
 * sets them (`temperature` → `-t/--temperature`).
 */
export function parseParams(values: readonly string[], owned: Readonly<Record<string, string>>): RequestParams {
  const params: RequestParams = {};
  for (const raw of values) {
    const equals = raw.indexOf('=');
    const key = equals === -1 ? raw : raw.slice(0, equals);
    if (equals === -1 || !KEY.test(key)) {
      throw new UsageError(`--param "${raw}" is not KEY=VALUE (a field name, dotted for objects)`, { hint: "e.g. --param seed=7 --param response_format.type=json_object --param 'logit_bias={\"50256\": -100}'" });
    }
    const top = key.split('.')[0]!;
    const option = owned[top];
    if (option !== undefined) throw new UsageError(`--param ${key}: ${top} is set with ${option}`);
    setPath(params, key.split('.'), valueOf(raw.slice(equals + 1)), raw);
  }
  return params;
}

/**
 * `body` with the params merged in, objects merged field by field. With `keepExisting` (a batch
 * line's own fields), a field the body has wins over the param.
 */
export function withParams<T extends object>(body: T, params: RequestParams, keepExisting = false): T {
  const merge = (target: Record<string, unknown>, source: Record<string, unknown>): Record<string, unknown> => {
    const result = { ...target };
    for (const [key, value] of Object.entries(source)) {
      const current = result[key];
      const bothObjects = value !== null && typeof value === 'object' && !Array.isArray(value) && current !== null && typeof current === 'object' && !Array.isArray(current);
      if (bothObjects) result[key] = merge(current as Record<string, unknown>, value as Record<string, unknown>);
      else if (!keepExisting || current === undefined) result[key] = value;
    }
    return result;
  };
  return Object.keys(params).length === 0 ? body : (merge(body as Record<string, unknown>, params) as T);
}

/** Deep-merge layers of params, later layers over earlier ones (profile, role, flags). */
export function mergeParams(...layers: ReadonlyArray<RequestParams | undefined>): RequestParams {
  return layers.reduce<RequestParams>((merged, layer) => (layer ? withParams(merged, layer) : merged), {});
}

/**
 * The params of a chat request: the `params` setting (a profile's, JSON text), then a role's,
 * then --param, each later one over the earlier field by field.
 */
export function chatParams(stored: string | undefined, role: RequestParams | undefined, flags: RequestParams | undefined): RequestParams {
  return mergeParams(stored === undefined ? undefined : (JSON.parse(stored) as RequestParams), role, flags);
}

/**
 * Params written as one JSON object (a role's `params:` line, the `params` setting): checked
 * like `--param`, each top-level field against the options that own it. `source` names where.
 */
export function parseParamsObject(text: string, source: string, owned: Readonly<Record<string, string>>): RequestParams {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    throw new UsageError(`${source} must be a JSON object of request fields, e.g. {"service_tier": "flex"}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError(`${source} must be a JSON object of request fields, e.g. {"service_tier": "flex"}`);
  }
  for (const key of Object.keys(value)) {
    const option = owned[key];
    if (option !== undefined) throw new UsageError(`${source}: ${key} is set with ${option}, not as a param`);
  }
  return value as RequestParams;
}

/** The chat body fields svc's options set, and the option for each. */
export const CHAT_OWNED: Readonly<Record<string, string>> = {
  model: '-m/--model',
  messages: 'the prompt (words, stdin, -s, -f)',
  max_tokens: '--max-tokens',
  temperature: '-t/--temperature',
  top_p: '--top-p',
  stop: '--stop',
  presence_penalty: '--presence-penalty',
  frequency_penalty: '--frequency-penalty',
  user: '--user',
  stream: '--no-stream',
  stream_options: '--no-stream',
};

/** The image body fields svc's options set, and the option for each. */
export const IMAGE_OWNED: Readonly<Record<string, string>> = {
  prompt: 'the prompt words',
  model: '-m/--model',
  aspect_ratio: '--aspect',
  output_format: '--format',
  seed: '--seed',
  negative_prompt: '--negative',
};
