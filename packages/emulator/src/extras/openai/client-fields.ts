/**
 * Chat request fields that ordinary OpenAI client code sends and that change nothing in the
 * emulator's reply: `store`, `metadata`, `service_tier`, `modalities`, `logit_bias`, `prediction`,
 * `prompt_cache_key`, `safety_identifier`. Each is checked as OpenAI checks it (a wrong type or
 * value is a 400 naming it) and then accepted, so a script that sends them runs here as it does
 * against OpenAI, and a misspelt one is still refused (core/chat/request.ts refuses unknown fields).
 *
 * Fields only some models take (`reasoning_effort` and `verbosity` for reasoning models,
 * `web_search_options` for search models) are accepted for a model named with `--model`, which
 * stands for whatever the client's code asks for, and refused for the emulator's own models, which
 * are none of those, with OpenAI's `unsupported_parameter`. Audio output and the deprecated
 * `functions` are never made here: refused with a message that says so.
 */
import { invalidParam } from '../../core/errors.js';
import { describe, isObject, isSet, optionalBoolean, optionalEnum, optionalString, type JsonObject } from '../../core/validate.js';

/** The fields this module reads; chat-request.ts has them accepted along with the service's. */
export const CLIENT_FIELDS = [
  'store', 'metadata', 'service_tier', 'modalities', 'logit_bias', 'prediction', 'prompt_cache_key',
  'safety_identifier', 'reasoning_effort', 'verbosity', 'web_search_options', 'audio', 'functions', 'function_call',
] as const;

/** Fields a reasoning or search model takes and the emulator's own models do not. */
const MODEL_SPECIFIC = ['reasoning_effort', 'verbosity', 'web_search_options'] as const;

const SERVICE_TIERS = ['auto', 'default', 'flex', 'scale', 'priority'] as const;
const REASONING_EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;
const VERBOSITIES = ['low', 'medium', 'high'] as const;

/** OpenAI's bounds on `metadata`: 16 pairs, keys up to 64 characters, values up to 512. */
const METADATA_PAIRS = 16;
const METADATA_KEY = 64;
const METADATA_VALUE = 512;

export interface ClientFields {
  /** The tier the answer reports (`service_tier` in it): the one asked for, `default` for `auto` or none. */
  serviceTier: string;
  /** The model-specific fields present, for the route to refuse on the emulator's own models. */
  modelSpecific: string[];
}

function checkMetadata(body: JsonObject): void {
  if (!isSet(body, 'metadata')) return;
  const value = body.metadata;
  if (!isObject(value)) throw invalidParam('metadata', `metadata must be an object of string values; got ${describe(value)}`, 'invalid_type');
  const entries = Object.entries(value);
  if (entries.length > METADATA_PAIRS) throw invalidParam('metadata', `metadata may hold at most ${METADATA_PAIRS} pairs; got ${entries.length}`, 'invalid_value');
  for (const [key, item] of entries) {
    if (key.length > METADATA_KEY) throw invalidParam('metadata', `metadata keys may be at most ${METADATA_KEY} characters; got one of ${key.length}`, 'invalid_value');
    if (typeof item !== 'string') throw invalidParam(`metadata.${key}`, `metadata values must be strings; got ${describe(item)}`, 'invalid_type');
    if (item.length > METADATA_VALUE) throw invalidParam(`metadata.${key}`, `metadata values may be at most ${METADATA_VALUE} characters; got one of ${item.length}`, 'invalid_value');
  }
}

/** `logit_bias`: token ids (as strings of digits) mapped to numbers from -100 to 100. */
function checkLogitBias(body: JsonObject): void {
  if (!isSet(body, 'logit_bias')) return;
  const value = body.logit_bias;
  if (!isObject(value)) throw invalidParam('logit_bias', `logit_bias must be an object mapping token ids to numbers from -100 to 100; got ${describe(value)}`, 'invalid_type');
  for (const [token, bias] of Object.entries(value)) {
    if (!/^\d+$/.test(token)) throw invalidParam('logit_bias', `logit_bias keys must be token ids (integers); got ${describe(token)}`, 'invalid_value');
    if (typeof bias !== 'number' || !Number.isFinite(bias) || bias < -100 || bias > 100) {
      throw invalidParam('logit_bias', `logit_bias values must be numbers from -100 to 100; got ${describe(bias)} for token ${token}`, typeof bias === 'number' ? 'invalid_value' : 'invalid_type');
    }
  }
}

/** `prediction`: `{type: "content", content}`, the content a string or an array of text parts. */
function checkPrediction(body: JsonObject): void {
  if (!isSet(body, 'prediction')) return;
  const value = body.prediction;
  if (!isObject(value) || value.type !== 'content') {
    throw invalidParam('prediction', `prediction must be {"type": "content", "content": ...}; got ${describe(value)}`, isObject(value) ? 'invalid_value' : 'invalid_type');
  }
  const content = value.content;
  const textParts = Array.isArray(content) && content.every((part) => isObject(part) && part.type === 'text' && typeof part.text === 'string');
  if (typeof content !== 'string' && !textParts) {
    throw invalidParam('prediction.content', `prediction.content must be a string or an array of text parts; got ${describe(content)}`, 'invalid_type');
  }
}

function checkModalities(body: JsonObject): void {
  if (!isSet(body, 'modalities')) return;
  const value = body.modalities;
  if (!Array.isArray(value) || value.length === 0 || !value.every((item) => item === 'text' || item === 'audio')) {
    throw invalidParam('modalities', `modalities must be a list of "text" and "audio"; got ${describe(value)}`, Array.isArray(value) ? 'invalid_value' : 'invalid_type');
  }
  if (value.includes('audio')) throw invalidParam('modalities', 'The emulator makes text only: audio output is not supported by its models.', 'unsupported_value');
}

/** Checks the client fields of a chat request (unknown fields were refused before). */
export function parseClientFields(body: JsonObject): ClientFields {
  optionalBoolean(body, 'store');
  checkMetadata(body);
  const serviceTier = optionalEnum(body, 'service_tier', SERVICE_TIERS);
  checkModalities(body);
  checkLogitBias(body);
  checkPrediction(body);
  optionalString(body, 'prompt_cache_key');
  optionalString(body, 'safety_identifier');
  if (isSet(body, 'audio')) throw invalidParam('audio', 'The emulator makes text only: audio output is not supported by its models.', 'unsupported_parameter');
  for (const name of ['functions', 'function_call']) {
    if (isSet(body, name)) {
      throw invalidParam(name, `Unsupported parameter: '${name}' (deprecated by OpenAI) is not answered by the emulator; send tools and tool_choice instead.`, 'unsupported_parameter');
    }
  }
  optionalEnum(body, 'reasoning_effort', REASONING_EFFORTS);
  optionalEnum(body, 'verbosity', VERBOSITIES);
  if (isSet(body, 'web_search_options') && !isObject(body.web_search_options)) {
    throw invalidParam('web_search_options', `web_search_options must be an object; got ${describe(body.web_search_options)}`, 'invalid_type');
  }
  return {
    serviceTier: serviceTier === undefined || serviceTier === 'auto' ? 'default' : serviceTier,
    modelSpecific: MODEL_SPECIFIC.filter((name) => isSet(body, name)),
  };
}

/** OpenAI's refusal of a field the model does not take, for the emulator's own models. */
export function unsupportedForModel(field: string): Error {
  return invalidParam(field, `Unsupported parameter: '${field}' is not supported with this model.`, 'unsupported_parameter');
}
