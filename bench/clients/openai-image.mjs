// The openai package's images.generate, then Buffer.from(b64, 'base64') and a write.
import { writeFileSync } from 'node:fs';
import OpenAI from 'openai';
const client = new OpenAI({ baseURL: `${process.env.SVC_BASE_URL}/v1`, apiKey: process.env.SVC_API_KEY, maxRetries: 0 });
const result = await client.images.generate({ model: 'svc-vision', prompt: 'bench' });
writeFileSync(process.argv[2], Buffer.from(result.data[0].b64_json, 'base64'));
