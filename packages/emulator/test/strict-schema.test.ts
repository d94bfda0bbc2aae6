/**
 * Schemas sent with `strict: true` (emulator/chat/strict-schema.ts): refused as OpenAI refuses
 * them when an object leaves out `additionalProperties: false` or a property from `required`,
 * in `response_format` and in a function's parameters; accepted when not strict.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { useSdkEmulator } from './helpers/sdk-emulator.js';

const sdk = useSdkEmulator();
const messages = [{ role: 'user' as const, content: 'Describe a customer as JSON' }];

const loose = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
const nested = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'address'],
  properties: {
    name: { type: 'string' },
    address: { type: 'object', additionalProperties: false, required: ['city'], properties: { city: { type: 'string' }, zip: { type: 'string' } } },
  },
};

async function refusal(request: Promise<unknown>): Promise<{ param: string | null | undefined; message: string }> {
  const error = await request.then(() => undefined, (thrown: unknown) => thrown);
  expect(error).toBeInstanceOf(OpenAI.BadRequestError);
  const { param, message } = error as InstanceType<typeof OpenAI.BadRequestError>;
  return { param, message };
}

const withFormat = (schema: object, strict: boolean) =>
  sdk.client.chat.completions.create({ model: 'svc-pro', messages, response_format: { type: 'json_schema', json_schema: { name: 'customer', schema: schema as Record<string, unknown>, strict } } });

describe('response_format json_schema with strict: true', () => {
  it("an object without additionalProperties: false is refused in OpenAI's words", async () => {
    expect(await refusal(withFormat(loose, true))).toEqual({
      param: 'response_format',
      message: "400 Invalid schema for response_format 'customer': In context=(), 'additionalProperties' is required to be supplied and to be false.",
    });
  });

  it('a property left out of required, deep in the schema, is named with where it is', async () => {
    expect(await refusal(withFormat(nested, true))).toEqual({
      param: 'response_format',
      message: "400 Invalid schema for response_format 'customer': In context=('properties', 'address'), 'required' is required to be supplied and to be an array including every key in properties. Missing 'zip'.",
    });
  });

  it('a root that is not an object is refused', async () => {
    const { message } = await refusal(withFormat({ type: 'array', items: { type: 'string' } }, true));
    expect(message).toContain('schema must be a JSON Schema of \'type: "object"\', got \'type: "array"\'');
  });

  it('the same schemas without strict are answered, and a strict one that keeps the rules too', async () => {
    const answered = async (schema: object): Promise<unknown> => JSON.parse((await withFormat(schema, false)).choices[0]?.message.content ?? '');
    expect(await answered(loose)).toEqual({ name: expect.any(String) });
    // Not strict, an optional property is still filled in, as the schema allows.
    expect(await answered(nested)).toEqual({ name: expect.any(String), address: { city: expect.any(String), zip: expect.any(String) } });
    const kept = { ...nested, properties: { ...nested.properties, address: { ...nested.properties.address, required: ['city', 'zip'] } } };
    const answer = await withFormat(kept, true);
    expect(JSON.parse(answer.choices[0]?.message.content ?? '')).toEqual({ name: expect.any(String), address: { city: expect.any(String), zip: expect.any(String) } });
  });
});

describe('a strict function', () => {
  it('is checked the same way, the function and the parameters named', async () => {
    const request = sdk.client.chat.completions.create({
      model: 'svc-pro',
      messages,
      tools: [{ type: 'function', function: { name: 'save_customer', strict: true, parameters: loose } }],
    });
    expect(await refusal(request)).toEqual({
      param: 'tools[0].function.parameters',
      message: "400 Invalid schema for function 'save_customer': In context=(), 'additionalProperties' is required to be supplied and to be false.",
    });
  });
});
