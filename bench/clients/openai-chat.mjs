// What a user would otherwise write: one non-streaming chat with the official openai package.
import OpenAI from 'openai';
const client = new OpenAI({ baseURL: `${process.env.SVC_BASE_URL}/v1`, apiKey: process.env.SVC_API_KEY, maxRetries: 0 });
const completion = await client.chat.completions.create({ model: 'svc-pro', temperature: 0, messages: [{ role: 'user', content: process.argv[2] ?? 'hello' }] });
process.stdout.write(`${completion.choices[0].message.content}\n`);
