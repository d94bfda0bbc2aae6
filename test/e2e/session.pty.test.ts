/**
 * The interactive session in a real terminal (tmux): typing, streaming, paste, Ctrl-C mid-reply,
 * slash commands, Ctrl-D, --continue. Replies come from a scripted server that holds a reply
 * open until the test has seen what it needs on the screen (no race against a token delay),
 * or from the emulator where its answer is all that matters.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConversationStore } from '../../src/conversations/store.js';
import { promptWithRole, roleToUse } from '../../src/roles/fill-role.js';
import { roleFilePath } from '../../src/roles/store.js';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';
import { SVC_BIN } from '../helpers/run-svc.js';
import { chunk, reply, useScriptedServer, type Handler } from '../helpers/scripted-server.js';
import { startTmux, tmuxAvailable, type TmuxSession } from '../helpers/tmux.js';

const KEY = 'pty-key-0123456789abcdef';
const hasTmux = await tmuxAvailable();
if (!hasTmux && process.env.CI) throw new Error('CI must have tmux for the terminal tests (.ci/run installs it)');

const svcLine = (args: string) => `node "${SVC_BIN}" ${args}`;

const setup = useEmulatorSandbox(KEY);
const scripted = useScriptedServer();

/** A promise and the function that resolves it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/**
 * A reply that streams until svc hangs up (it goes on for seconds, paced, so Ctrl-C meets it
 * mid-stream); `closed` tells whether the connection closed before the reply was finished.
 */
function endlessReply(): { handler: Handler; closedEarly: Promise<boolean> } {
  let closed: (early: boolean) => void = () => {};
  const closedEarly = new Promise<boolean>((resolve) => (closed = resolve));
  const handler: Handler = async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.on('close', () => closed(!res.writableEnded));
    for (let i = 0; i < 200 && !res.destroyed; i++) {
      res.write(chunk(`word${i} `));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (!res.destroyed) res.end('data: [DONE]\n\n');
  };
  return { handler, closedEarly };
}

describe.skipIf(!hasTmux)('svc chat, interactive, in a terminal', () => {
  it('streams, pastes, survives Ctrl-C, runs slash commands, saves, and resumes', async () => {
    // The first reply stops half-way until the test has seen its first half on the screen.
    const firstHalfSeen = gate();
    const firstReply: Handler = async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk('Lighthouses guide ships '));
      await firstHalfSeen.opened;
      res.end(`${chunk('past the rocks.', 'stop')}data: [DONE]\n\n`);
    };
    const answer = (text: string) => reply.sse([chunk(text, 'stop'), 'data: [DONE]\n\n']);
    const story = endlessReply();
    scripted.server.script(firstReply, answer('Three lines received.'), story.handler, answer('Three lines, once more.'));
    const env = { ...setup.sandbox.env, SVC_BASE_URL: scripted.server.baseUrl };
    const term: TmuxSession = await startTmux(svcLine('chat'), env, setup.sandbox.home);
    try {
      await term.waitFor('/help for commands');

      // A message; the reply streams in: part of it is on screen before the next prompt is.
      await term.type('tell me about lighthouses', true);
      const during = await term.waitFor(/lighthouses\n[^\n]*Lighthouses guide ships/);
      expect(during.split('› ').length - 1).toBe(1);
      firstHalfSeen.open();
      await term.waitFor(/past the rocks\.\n\n› $/m);

      // A pasted block of three lines is one message.
      await term.paste('line one\nline two\nline three');
      await term.press('Enter');
      await term.waitFor(/line three[\s\S]*Three lines received\.\n\n› /);
      expect(await term.count('› ')).toBe(3);

      // Ctrl-C in the middle of a reply stops it, closes its connection, and returns to the prompt.
      await term.type('write a very long story about the sea', true);
      await term.waitFor(/sea[^\n]*\n[^\n]*word0 word1 /);
      await term.press('C-c');
      await term.waitFor('(reply interrupted');
      expect(await story.closedEarly).toBe(true);
      await term.type('/help', true);
      await term.waitFor('/retry');
      await term.type('/undo', true);
      await term.waitFor('(dropped: "write a very long story about the sea"');
      await term.type('/retry', true);
      await term.waitFor(/\(dropped[\s\S]*\n› [\s\S]*Three lines, once more\.\n\n› $/m);
      // The retry sent the conversation up to the pasted message again, without the dropped turn.
      expect(JSON.parse(scripted.server.requests[3]!.body).messages).toEqual([
        { role: 'user', content: 'tell me about lighthouses' },
        { role: 'assistant', content: 'Lighthouses guide ships past the rocks.' },
        { role: 'user', content: 'line one\nline two\nline three' },
      ]);
      const saved = join(setup.sandbox.home, 'saved.json');
      await term.type(`/save ${saved}`, true);
      await term.waitFor('(saved 4 messages');
      await term.type('/nosuch', true);
      await term.waitFor('unknown command /nosuch');
      await term.press('C-d');
      const end = await term.waitFor('[exit 0]');
      expect(end).toContain('saved as');

      const messages = JSON.parse(readFileSync(saved, 'utf8'));
      expect(messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
      expect(messages[0].content).toBe('tell me about lighthouses');
      const store = new ConversationStore(setup.sandbox.env);
      const conversation = store.read(store.latest()!);
      expect(conversation.turns.map((turn) => turn.user)).toEqual(['tell me about lighthouses', 'line one\nline two\nline three']);
    } finally {
      await term.kill();
    }

    // --continue picks it up again.
    const again = await startTmux(svcLine('chat --continue'), env, setup.sandbox.home);
    try {
      await again.waitFor('(2 turns)');
      await again.type('/exit', true);
      await again.waitFor('[exit 0]');
    } finally {
      await again.kill();
    }
  });

  it('Ctrl-C on an empty prompt once hints, twice leaves; Up recalls earlier inputs across sessions', async () => {
    // An earlier session whose last input was /exit (this test does not lean on the others).
    const earlier = await startTmux(svcLine('chat'), setup.sandbox.env, setup.sandbox.home);
    try {
      await earlier.waitFor('/help for commands');
      await earlier.type('/exit', true);
      await earlier.waitFor('[exit 0]');
    } finally {
      await earlier.kill();
    }
    const term = await startTmux(svcLine('chat'), setup.sandbox.env, setup.sandbox.home);
    try {
      await term.waitFor('/help for commands');
      await term.press('Up');
      await term.waitFor(/› \/exit/);
      await term.press('C-u', 'C-c');
      await term.waitFor('press Ctrl-C again');
      await term.press('C-c');
      await term.waitFor('[exit 0]');
    } finally {
      await term.kill();
    }
  });

  it('cat notes | svc chat -i sends the notes, then talks on from the terminal', async () => {
    // A short reply: this case is about where the prompt comes from, not about streaming.
    const notes = join(setup.sandbox.home, 'notes.txt');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(notes, 'my notes about rivers\nsecond line\n');
    const term = await startTmux(`cat "${notes}" | ${svcLine('chat -i --max-tokens 10 "summarise"')}`, setup.sandbox.env, setup.sandbox.home);
    try {
      await term.waitFor('(sent the prompt: 4 lines');
      await term.waitFor(/\n› $/m, 15_000);
      await term.type('/exit', true);
      await term.waitFor('[exit 0]');
      const store = new ConversationStore(setup.sandbox.env);
      expect(store.read(store.latest()!).turns[0]?.user).toBe('summarise\n\nmy notes about rivers\nsecond line');
    } finally {
      await term.kill();
    }
  });

  it('cat notes | svc chat -i --role R sends the notes in the role\'s template, as one-shot chat would (roles/fill-role.ts)', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(dirname(roleFilePath(setup.sandbox.env, 'brief')), { recursive: true });
    writeFileSync(roleFilePath(setup.sandbox.env, 'brief'), '---\nprompt: "Answer in {{lang}} ({{style:briefly}}):"\n---\nYou are terse.\n');
    const notes = join(setup.sandbox.home, 'notes.txt');
    writeFileSync(notes, 'good morning\n');
    const term = await startTmux(`cat "${notes}" | ${svcLine("chat -i --session templated --max-tokens 10 --role brief --var 'lang={{input}}'")}`, setup.sandbox.env, setup.sandbox.home);
    try {
      await term.waitFor('(sent the prompt: 3 lines');
      await term.waitFor(/\n› $/m, 15_000);
      await term.type('/exit', true);
      await term.waitFor('[exit 0]');
      const store = new ConversationStore(setup.sandbox.env);
      const expected = promptWithRole(roleToUse(setup.sandbox.env, 'brief', { lang: '{{input}}' }), 'good morning');
      expect(expected).toBe('Answer in {{input}} (briefly):\n\ngood morning');
      expect(store.read('templated').turns[0]?.user).toBe(expected);
    } finally {
      await term.kill();
    }
  });
});

describe.skipIf(!hasTmux)('what the session sends', () => {
  it('the whole message array goes with every turn, with -s first', async () => {
    scripted.server.script(reply.sse([chunk('first answer', 'stop'), 'data: [DONE]\n\n']));
    const env = { ...setup.sandbox.env, SVC_BASE_URL: scripted.server.baseUrl, XDG_STATE_HOME: join(setup.sandbox.home, 'state-no-save') };
    const term = await startTmux(svcLine('chat --no-save -s "be brief" -t 0.3'), env, setup.sandbox.home);
    try {
      await term.waitFor('/help for commands');
      await term.type('question one', true);
      await term.waitFor(/first answer\n\n› /);
      scripted.server.script(reply.sse([chunk('second answer', 'stop'), 'data: [DONE]\n\n']));
      await term.type('question two', true);
      await term.waitFor(/second answer\n\n› /);
      await term.press('C-d');
      await term.waitFor('[exit 0]');
      const second = JSON.parse(scripted.server.requests[1]?.body ?? '{}');
      expect(second.messages).toEqual([
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'question one' },
        { role: 'assistant', content: 'first answer' },
        { role: 'user', content: 'question two' },
      ]);
      expect(second.temperature).toBe(0.3);
      expect(existsSync(join(env.XDG_STATE_HOME!, 'svc', 'input-history.jsonl'))).toBe(false);
    } finally {
      await term.kill();
    }
  });

  it('Ctrl-C closes the connection of the reply it stops', async () => {
    const { handler, closedEarly } = endlessReply();
    scripted.server.script(handler);
    const env = { ...setup.sandbox.env, SVC_BASE_URL: scripted.server.baseUrl };
    const term = await startTmux(svcLine('chat --no-save'), env, setup.sandbox.home);
    try {
      await term.waitFor('/help for commands');
      await term.type('go', true);
      await term.waitFor('word5 ');
      await term.press('C-c');
      await term.waitFor('(reply interrupted');
      expect(await closedEarly).toBe(true);
      await term.press('C-d');
      await term.waitFor('[exit 0]');
    } finally {
      await term.kill();
    }
  });
});
