/**
 * The session's slash commands: what exists, one help line each, and parsing a typed line.
 * Pure, so a table test covers it.
 */
import { ASPECT_RATIOS, IMAGE_FORMATS } from '../../../api/images/formats.js';

export const SLASH_COMMANDS = {
  help: { usage: '/help', summary: 'list these commands and keys' },
  exit: { usage: '/exit', summary: 'leave (the conversation is saved)' },
  quit: { usage: '/quit', summary: 'leave, like /exit' },
  clear: { usage: '/clear', summary: 'start a new conversation (the old one stays saved)' },
  system: { usage: '/system [text|off]', summary: 'show, set or remove the system message' },
  model: { usage: '/model [id]', summary: 'show or change the model' },
  retry: { usage: '/retry', summary: 'ask again for the last reply' },
  undo: { usage: '/undo', summary: 'drop the last exchange' },
  rewind: { usage: '/rewind [N]', summary: 'drop the last N exchanges (default 1), after showing them' },
  compact: { usage: '/compact [N]', summary: 'summarise all but the last N turns (default 2); /rewind N+1 undoes it' },
  fork: { usage: '/fork [name]', summary: 'copy this conversation into a new one and go on there (this one stays)' },
  edit: { usage: '/edit [text]', summary: 'write the next message in $VISUAL / $EDITOR' },
  file: { usage: '/file [path...|last]', summary: 'attach files or last (the last /image) to the next message; clear drops' },
  role: { usage: '/role [name]', summary: 'show the role, or use a saved one (svc roles list)' },
  save: { usage: '/save <file.json>', summary: 'write the messages array as JSON (not overwriting a file)' },
  usage: { usage: '/usage', summary: 'tokens used in this session' },
  history: { usage: '/history', summary: 'show the conversation so far' },
  name: { usage: '/name', summary: 'show the conversation name (to resume it with --session)' },
  tools: { usage: '/tools [add|remove …]', summary: 'list the tools offered; add or remove NAME (a server) or NAME.TOOL' },
  copy: { usage: '/copy [code]', summary: 'copy the last reply, or its code, to the clipboard (OSC 52, system tool)' },
  image: { usage: '/image [prompt]', summary: 'make an image and see it here; no prompt: draw the last reply' },
} as const;

export type SlashCommandName = keyof typeof SLASH_COMMANDS;

export type ParsedInput =
  | { kind: 'message'; text: string }
  | { kind: 'command'; name: SlashCommandName; arg: string }
  | { kind: 'unknown'; name: string };

/**
 * A line starting with "/" is a command; "//" escapes a message that starts with a slash.
 * A message with several lines (a paste, a block) is never a command.
 */
export function parseInput(text: string): ParsedInput {
  if (!text.startsWith('/') || text.includes('\n')) return { kind: 'message', text };
  if (text.startsWith('//')) return { kind: 'message', text: text.slice(1) };
  const match = /^\/(\S*)\s*([\s\S]*)$/.exec(text.trimEnd());
  const name = (match?.[1] ?? '').toLowerCase();
  const arg = match?.[2] ?? '';
  if (Object.hasOwn(SLASH_COMMANDS, name)) return { kind: 'command', name: name as SlashCommandName, arg };
  return { kind: 'unknown', name };
}

/** /image's options, as `svc image` spells them (image-args.ts parses them). */
const IMAGE_OPTIONS_HELP = ['options: --aspect R  --format F  --seed N  -n N  --negative T  -o PATH', `R: ${ASPECT_RATIOS.join(' ')}   F: ${IMAGE_FORMATS.join(' ')}`];

/** The text of /help. */
export function helpText(): string {
  const width = Math.max(...Object.values(SLASH_COMMANDS).map((command) => command.usage.length));
  const commands = Object.values(SLASH_COMMANDS).map((command) => `  ${command.usage.padEnd(width)}  ${command.summary}`);
  return [
    'Commands:',
    ...commands,
    // Right under /image, the last row of the table.
    ...IMAGE_OPTIONS_HELP.map((line) => `  ${' '.repeat(width)}  ${line}`),
    '',
    'Keys:',
    '  Enter             send          Ctrl-C  stop the reply / clear the line / twice to leave',
    '  line ending in \\  go on typing on the next line',
    '  """ ... """       a block of several lines     a paste stays one message',
    '  Up / Down         earlier inputs (also from earlier sessions)   Ctrl-D  leave',
    '  //text            send a message that starts with "/"',
    '  Tab               completes commands, /image options, /file paths and last, /role names',
  ].join('\n');
}

/** A one-line hint for a command that does not exist. */
export function unknownCommandHint(name: string): string {
  const names = Object.keys(SLASH_COMMANDS);
  const close = names.find((candidate) => candidate.startsWith(name.slice(0, 2)) && name.length > 0);
  return `unknown command /${name}${close ? ` (did you mean /${close}?)` : ''}; /help lists them, //text sends a message starting with /`;
}
