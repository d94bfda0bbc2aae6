import { imageOptionsText, timeline } from '../../conversations/timeline.js';
import { toMessages } from '../../conversations/model.js';
import type { Factory } from '../../factory.js';
import { forOutput } from '../../core/terminal-text.js';
import { jsonForOutput } from '../../core/json.js';

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
