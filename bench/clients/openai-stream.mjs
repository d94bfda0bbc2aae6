// The openai package's streaming loop, writing the same deltas svc writes.
import OpenAI from 'openai';
const client = new OpenAI({ baseURL: `${process.env.SVC_BASE_URL}/v1`, apiKey: process.env.SVC_API_KEY, maxRetries: 0 });
const stream = await client.chat.completions.create({ model: 'svc-pro', stream: true, messages: [{ role: 'user', content: 'stream' }] });
for await (const chunk of stream) {
  const text = chunk.choices[0]?.delta?.content;
  if (text) process.stdout.write(text);
}
process.stdout.write('\n');
