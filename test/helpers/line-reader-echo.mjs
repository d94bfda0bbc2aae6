// The session's line reader alone, in a terminal: each line read is printed back as
// `sent "<JSON>"`, so a test can compare what the screen showed with what would be sent.
// Run from the built tree (dist/), as the svc binary is.
import { LineReader } from '../../dist/commands/chat/interactive/line-reader.js';
import { InputHistory } from '../../dist/conversations/input-history.js';

const reader = new LineReader({ stream: process.stdin, fd: 0 }, process.stdout, InputHistory.memory());
for (;;) {
  const result = await reader.read('› ');
  if (result.kind === 'eof') break;
  if (result.kind === 'line') process.stdout.write(`sent ${JSON.stringify(result.text)}\n`);
}
reader.close();
