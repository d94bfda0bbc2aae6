/**
 * Replies shaped by the system message, as a real model follows its instructions: one asking
 * for a single shell command (svc's built-in `shell` role, shell_gpt's, aichat's) gets one
 * plausible command line and nothing else; one asking for a commit message gets a subject line
 * and a body written from the diff; one asking to explain gets prose, never a code block; one
 * asking to translate gets the translation alone (a small phrase book, else the text as it was);
 * one asking to summarise a conversation (svc's /compact) gets what each user message was about.
 * Deterministic: the same messages give the same reply, at any temperature.
 */
import { keywords } from './keywords.js';
import { sentenceList } from './templates.js';
import type { ChatMessage } from '../../core/chat/messages.js';

export type SystemAsk = 'shell-command' | 'commit-message' | 'explanation' | 'translation' | 'conversation-summary';

/** What the system message asks the replies to be, if it is one of the asks above. */
export function systemAskOf(messages: readonly ChatMessage[]): SystemAsk | undefined {
  const system = messages.filter((message) => message.role === 'system').map((message) => message.content.toLowerCase()).join('\n');
  if (system === '') return undefined;
  if (/summari[sz]e a conversation/.test(system)) return 'conversation-summary';
  if (/shell command|command line/.test(system) && /single|only|nothing else|one line|no explanation/.test(system)) return 'shell-command';
  if (/commit message/.test(system)) return 'commit-message';
  if (/\btranslat/.test(system) && /\binto\b/.test(system)) return 'translation';
  if (/\bexplain/.test(system)) return 'explanation';
  return undefined;
}

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** Words naming a kind of file, as the extension `find -name` needs. */
const FILE_KINDS: Record<string, string> = {
  python: 'py', javascript: 'js', typescript: 'ts', markdown: 'md', text: 'txt', log: 'log', json: 'json', yaml: 'yml',
  csv: 'csv', pdf: 'pdf', image: 'jpg', jpeg: 'jpg', png: 'png', html: 'html', css: 'css', shell: 'sh', go: 'go', rust: 'rs',
};

const SIZE_UNITS: Record<string, string> = { k: 'k', kb: 'k', kib: 'k', m: 'M', mb: 'M', mib: 'M', g: 'G', gb: 'G', gib: 'G', t: 'T', tb: 'T', tib: 'T' };

/** `find` tests for the size, kind, age and name the ask mentions. */
function findTests(ask: string): string[] {
  const tests: string[] = [];
  const size = /\b(over|larger than|bigger than|more than|above|greater than|under|smaller than|less than|below)\s+(\d+(?:\.\d+)?)\s*(kib|mib|gib|tib|kb|mb|gb|tb|k|m|g|t)\b/.exec(ask);
  if (size) {
    const sign = /under|smaller|less|below/.test(size[1]!) ? '-' : '+';
    const amount = Number(size[2]);
    const unit = SIZE_UNITS[size[3]!]!;
    // find's -size takes whole units: 1.5G is written as 1536M.
    const whole = Number.isInteger(amount) ? `${amount}${unit}` : `${Math.round(amount * 1024)}${unit === 'G' ? 'M' : unit === 'T' ? 'G' : 'k'}`;
    tests.push(`-size ${sign}${whole}`);
  }
  const extension = /\*\.(\w+)|\.(\w+) files?\b/.exec(ask);
  const kind = Object.keys(FILE_KINDS).find((word) => new RegExp(`\\b${word} files?\\b`).test(ask));
  const ext = extension?.[1] ?? extension?.[2] ?? (kind ? FILE_KINDS[kind] : undefined);
  if (ext) tests.push(`-name ${quote(`*.${ext}`)}`);
  const age = /(?:last|past)\s+(\d+)\s+days?/.exec(ask) ?? (/\b(today)\b/.test(ask) ? ['', '1'] : undefined);
  if (age) tests.push(`-mtime -${age[1]}`);
  return tests;
}

/** The words after "for" / "containing" in a search ask: `search for "TODO" in src`. */
function searchedText(ask: string): string | undefined {
  const match = /(?:for|containing|contain|with the text|mentioning)\s+["'`]?([^"'`]+?)["'`]?(?:\s+in\s+|\s*$)/i.exec(ask);
  return match?.[1]?.trim();
}

/** One plausible command line for the request, from the most telling words of it. */
export function shellCommandFor(request: string): string {
  // Matched in lower case; text the command quotes (a search, a replacement) keeps its case.
  const asked = request.replace(/[?!.]+$/, '').trim();
  const ask = asked.toLowerCase();
  const port = /\bport\s+(\d+)/.exec(ask);
  if (port) return `lsof -i :${port[1]}`;
  if (/disk (usage|space)|biggest (folders|directories)|largest (folders|directories)|what takes (up )?space/.test(ask)) return 'du -sh -- * | sort -rh | head -n 10';
  if (/free space|disk free|space left/.test(ask)) return 'df -h';
  if (/(memory|cpu)/.test(ask) && /process/.test(ask)) return `ps aux --sort=-%${/cpu/.test(ask) ? 'cpu' : 'mem'} | head -n 10`;
  if (/ip address/.test(ask)) return 'ip -brief address';
  if (/current branch/.test(ask)) return 'git branch --show-current';
  if (/undo (the )?last commit/.test(ask)) return 'git reset --soft HEAD~1';
  const replace = /replace\s+["'`]?(.+?)["'`]?\s+with\s+["'`]?(.+?)["'`]?(?:\s+in\s+(\S+))?$/i.exec(asked);
  if (replace) return `sed -i ${quote(`s/${replace[1]}/${replace[2]}/g`)} ${replace[3] ?? '*.txt'}`;
  if (/\b(extract|unpack|untar|unzip)\b/.test(ask)) return /\bzip\b/.test(ask) ? 'unzip archive.zip' : 'tar -xzf archive.tar.gz';
  if (/\b(compress|archive|tar)\b/.test(ask)) {
    const folder = /\b(?:folder|directory|dir)\s+(\S+)/.exec(ask)?.[1] ?? 'folder';
    return `tar -czf ${folder}.tar.gz ${folder}`;
  }
  const tests = findTests(ask);
  if (/count (the )?lines/.test(ask)) return tests.length > 0 ? `find . -type f ${tests.join(' ')} -exec cat {} + | wc -l` : 'wc -l *';
  const searched = searchedText(asked);
  if (searched && /\b(search|grep|look|containing|contain|mentioning)\b/.test(ask)) return `grep -rn ${quote(searched)} .`;
  if (/\bkill\b/.test(ask)) return `pkill -f ${quote(keywords(ask.replace(/\bkill\b/, ''), 1)[0] ?? 'name')}`;
  if (tests.length > 0 || /\bfiles?\b/.test(ask)) {
    const remove = /\b(delete|remove)\b/.test(ask) ? ' -delete' : '';
    return `find . -type f${tests.length > 0 ? ` ${tests.join(' ')}` : ''}${remove}`;
  }
  if (/\blist\b/.test(ask)) return 'ls -lah';
  // Otherwise: look for what the ask is about, which is at least harmless.
  return `grep -rni ${quote(keywords(ask, 1)[0] ?? ask.split(/\s+/)[0] ?? 'text')} .`;
}

interface FileChange {
  path: string;
  kind: 'add' | 'remove' | 'rename' | 'update';
  added: number;
  removed: number;
}

/** The files a unified diff (git diff) changes, with their added and removed line counts. */
export function diffChanges(diff: string): FileChange[] {
  const changes: FileChange[] = [];
  let current: FileChange | undefined;
  for (const line of diff.split('\n')) {
    const header = /^diff --git a\/(\S+) b\/(\S+)/.exec(line);
    if (header) {
      current = { path: header[2]!, kind: 'update', added: 0, removed: 0 };
      changes.push(current);
    } else if (!current) continue;
    else if (line.startsWith('new file mode')) current.kind = 'add';
    else if (line.startsWith('deleted file mode')) current.kind = 'remove';
    else if (line.startsWith('rename from')) current.kind = 'rename';
    else if (line.startsWith('+') && !line.startsWith('+++')) current.added++;
    else if (line.startsWith('-') && !line.startsWith('---')) current.removed++;
  }
  return changes;
}

const VERBS: Record<FileChange['kind'], string> = { add: 'Add', remove: 'Remove', rename: 'Rename', update: 'Update' };
const baseName = (path: string): string => path.split('/').at(-1) ?? path;

function subjectFor(changes: FileChange[], ask: string): string {
  if (changes.length === 0) {
    const words = keywords(ask, 3);
    return words.length > 0 ? `Update ${words.join(', ')}` : 'Update files';
  }
  const kinds = new Set(changes.map((change) => change.kind));
  const verb = kinds.size === 1 ? VERBS[changes[0]!.kind] : 'Update';
  const names = changes.map((change) => baseName(change.path));
  const subject = `${verb} ${sentenceList(names)}`;
  if (subject.length <= 72) return subject;
  const folders = new Set(changes.map((change) => change.path.split('/').slice(0, -1).join('/')));
  const [folder] = folders;
  return folders.size === 1 && folder ? `${verb} ${changes.length} files in ${folder}` : `${verb} ${changes.length} files`;
}

/** A commit message for the diff in `ask`: a subject of at most 72 characters, a blank line, a body. */
export function commitMessageFor(ask: string): string {
  const changes = diffChanges(ask);
  const subject = subjectFor(changes, ask);
  if (changes.length === 0) return `${subject}\n\nDescribe the change here: no diff was given, so the files are not known.`;
  const lines = changes.slice(0, 10).map((change) => `- ${change.path}: ${change.kind === 'update' ? '' : `${change.kind}, `}+${change.added} -${change.removed}`);
  if (changes.length > 10) lines.push(`- and ${changes.length - 10} more files`);
  const added = changes.reduce((sum, change) => sum + change.added, 0);
  const removed = changes.reduce((sum, change) => sum + change.removed, 0);
  const plural = (n: number): string => `${n} line${n === 1 ? '' : 's'}`;
  return `${subject}\n\n${lines.join('\n')}\n\nIn all, ${plural(added)} added and ${plural(removed)} removed.`;
}

/** What the emulator can translate: a few phrases, in a few languages. */
const PHRASES: Record<string, Record<string, string>> = {
  'good morning': { french: 'Bonjour', german: 'Guten Morgen', spanish: 'Buenos días', italian: 'Buongiorno', dutch: 'Goedemorgen' },
  'thank you': { french: 'Merci', german: 'Danke', spanish: 'Gracias', italian: 'Grazie', dutch: 'Dank je' },
  hello: { french: 'Bonjour', german: 'Hallo', spanish: 'Hola', italian: 'Ciao', dutch: 'Hallo' },
  goodbye: { french: 'Au revoir', german: 'Auf Wiedersehen', spanish: 'Adiós', italian: 'Arrivederci', dutch: 'Tot ziens' },
};

/**
 * The translation of `text` into the language the system message names ("into French"), and
 * nothing else: a phrase it knows, else the text as it came (a model keeps what it cannot translate).
 */
export function translationFor(messages: readonly ChatMessage[], text: string): string {
  const system = messages.filter((message) => message.role === 'system').map((message) => message.content).join('\n');
  const language = /\binto\s+([A-Za-z]+)/.exec(system)?.[1]?.toLowerCase() ?? 'english';
  const known = PHRASES[text.trim().replace(/[.!?]+$/, '').toLowerCase()]?.[language];
  return known ?? text.trim();
}

/**
 * A summary of the transcript in `transcript` (`User:` and `Assistant:` blocks, and an earlier
 * summary first, as svc's /compact sends them): what each user message was about, in order.
 */
export function conversationSummaryFor(transcript: string): string {
  const topics = [...transcript.matchAll(/^User:\n([\s\S]*?)(?=\n\nAssistant[^\n]*:\n|\n\nUser:\n|$(?![\s\S]))/gm)]
    .map((match) => keywords(match[1] ?? '', 2).join(' '))
    .filter((topic) => topic !== '');
  const earlier = /^Summary of the conversation before these turns:\n([\s\S]*?)(?=\n\nUser:\n|$(?![\s\S]))/m.exec(transcript)?.[1];
  const before = earlier === undefined ? [] : [`Before that: ${earlier.trim().split('\n')[0]}`];
  if (topics.length === 0) return [...before, 'The user and the assistant exchanged a few words.'].join(' ');
  return [...before, `The user asked about ${sentenceList(topics)}; the assistant answered each in turn.`].join(' ');
}
