import { imageOptionsText, timeline } from '../../conversations/timeline.js';
import { firstLine, toMessages } from '../../conversations/model.js';
import type { Factory } from '../../factory.js';
import { forOutput } from '../../core/terminal-text.js';
import { jsonForOutput } from '../../core/json.js';
import { LineOutput } from '../../terminal/streams.js';

export async function runList(factory: Factory, json: boolean): Promise<void> {
  const { io } = factory;
  const store = await factory.conversationStore();
  if (json) {
    const rows = store.list().map((s) => ({ name: s.name, updated: s.updated, turns: s.turns, first: firstLine(s.conversation, 200) }));
    io.stdout.write(jsonForOutput(rows, io.stdoutIsTTY));
    return;
  }
  // A line per conversation as it is read, the most recently written first: `| head` stops the
  // listing instead of it reading every file.
  const clean = (text: string): string => forOutput(text, io.stdoutIsTTY);
  const out = new LineOutput(io.stdout);
  let listed = 0;
  for (const s of store.each(undefined)) {
    listed += 1;
    if (!(await out.add(`${s.name}\t${s.updated.slice(0, 16).replace('T', ' ')}\t${s.turns}\t${clean(firstLine(s.conversation))}\n`))) break;
  }
  await out.close();
  if (listed === 0) io.stderr.write('no saved conversations yet\n');
}

export async function runShow(factory: Factory, name: string, json: boolean): Promise<void> {
  const { io } = factory;
  const store = await factory.conversationStore();
  const conversation = store.read(name);
  if (json) {
    io.stdout.write(jsonForOutput(toMessages(conversation), io.stdoutIsTTY));
    return;
  }
  const clean = (text: string): string => forOutput(text, io.stdoutIsTTY);
  const parts: string[] = [];
  if (conversation.system) parts.push(`[system]\n${clean(conversation.system)}`);
  for (const entry of timeline(conversation)) {
    if (entry.kind === 'image') {
      const { image } = entry;
      const options = imageOptionsText(image);
      parts.push(`[image${options === '' ? '' : ` ${clean(options)}`}]\n${clean(image.prompt)}\nsaved ${clean(image.path)}${image.revisedPrompt ? `\nrevised: ${clean(image.revisedPrompt)}` : ''}`);
      continue;
    }
    const { turn } = entry;
    parts.push(`[user]\n${clean(turn.user)}`);
    parts.push(`[assistant${turn.interrupted ? ', interrupted' : ''}]\n${clean(turn.assistant)}`);
  }
  io.stdout.write(parts.length > 0 ? `${parts.join('\n\n')}\n` : '');
}

export async function runDelete(factory: Factory, names: string[]): Promise<void> {
  const store = await factory.conversationStore();
  for (const name of names) {
    store.delete(name);
    factory.io.stderr.write(`deleted ${name}\n`);
  }
}
