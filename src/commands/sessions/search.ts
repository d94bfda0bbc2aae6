/** `svc sessions search <text>`: the saved conversations that mention something, with the lines. */
import { lineInContext, searchConversations, searchEach, type SearchHit } from '../../conversations/search.js';
import { LineOutput } from '../../terminal/streams.js';
import { conversationStoreFor } from '../../conversations/store.js';
import { SilentExit, UsageError } from '../../core/errors.js';
import type { Factory } from '../../factory.js';
import { forOutput } from '../../core/terminal-text.js';
import { jsonForOutput } from '../../core/json.js';

/** Lines shown per conversation in the listing (--json has them all). */
const SHOWN_LINES = 3;

function describeHit(hit: SearchHit, clean: (text: string) => string): string {
  const count = hit.matches.length;
  const lines = [`${hit.name}\t${hit.updated.slice(0, 16).replace('T', ' ')}\t${count} matching ${count === 1 ? 'line' : 'lines'}`];
  for (const match of hit.matches.slice(0, SHOWN_LINES)) lines.push(`  ${match.role}: ${clean(lineInContext(match.line, match.index))}`);
  if (count > SHOWN_LINES) lines.push(`  … ${count - SHOWN_LINES} more (svc sessions show ${hit.name})`);
  return lines.join('\n');
}

export async function runSearch(factory: Factory, words: string[], json: boolean): Promise<void> {
  const { io } = factory;
  const text = words.join(' ');
  if (text.trim() === '') throw new UsageError('nothing to search for', { hint: 'svc sessions search <text>' });
  if (text.includes('\n')) throw new UsageError('the search text is one line: lines are searched one by one');
  const store = conversationStoreFor(io);
  const clean = (line: string): string => forOutput(line, io.stdoutIsTTY);
  let found = 0;
  if (json) {
    const hits = searchConversations(store, text);
    found = hits.length;
    io.stdout.write(jsonForOutput(hits, io.stdoutIsTTY));
  } else {
    // Each conversation printed as it is found: a reader that has had enough (`| head`) stops
    // the search, instead of it reading every file for lines nobody will see.
    const out = new LineOutput(io.stdout);
    for (const hit of searchEach(store, text)) {
      found += 1;
      if (!(await out.add(`${describeHit(hit, clean)}\n`))) break;
    }
    await out.close();
  }
  if (found === 0) {
    // As grep: exit 1 when nothing is found, so a script can test for it.
    io.stderr.write(`no saved conversation contains "${forOutput(text, io.stderrIsTTY)}"\n`);
    throw new SilentExit(1);
  }
}
