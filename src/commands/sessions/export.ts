/**
 * `svc sessions export <name>`: a conversation as Markdown or as the messages array, on stdout or
 * in a file. A file is written whole or not at all (a temporary file in the same folder, then
 * renamed), and an existing one is kept unless --force, as `svc image` does.
 */
import { randomBytes } from 'node:crypto';
import { rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { toMarkdown } from '../../conversations/markdown.js';
import { toMessages } from '../../conversations/model.js';
import { conversationStoreFor } from '../../conversations/store.js';
import { SvcError } from '../../core/errors.js';
import type { Factory } from '../../factory.js';
import { describeSystemError, errnoCode } from '../../core/system-errors.js';
import { forOutput } from '../../core/terminal-text.js';
import { nameTaken } from '../../images/file-names.js';
import { commitFile, existsBeforeStart } from '../../images/save.js';
import { checkFolder } from '../image-target.js';

export type ExportFormat = 'md' | 'json';

export interface ExportOptions {
  format?: string;
  output?: string;
  force?: boolean;
}

/** --format, else the extension of -o (.json is JSON), else Markdown. */
function formatOf(options: ExportOptions): ExportFormat {
  // commander has checked --format against EXPORT_FORMATS.
  if (options.format !== undefined) return options.format as ExportFormat;
  return options.output !== undefined && extname(options.output).toLowerCase() === '.json' ? 'json' : 'md';
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Write `text` to `path` whole or not at all; an existing file is replaced only with `force`.
 * A missing folder and a taken name are found first, as usage errors (exit 2), as for svc image.
 */
function writeWhole(path: string, text: string, force: boolean, shownAs: string): void {
  checkFolder(dirname(path), `-o ${shownAs}`);
  if (!force && nameTaken(path)) throw existsBeforeStart(path, 'nothing was written');
  const temp = join(dirname(path), `.svc-${process.pid}-${randomBytes(4).toString('hex')}.part`);
  try {
    writeFileSync(temp, text, { flag: 'wx' });
  } catch (error) {
    rmSync(temp, { force: true });
    const missing = errnoCode(error) === 'ENOENT' ? ' (the folder does not exist)' : '';
    throw new SvcError(`cannot write ${path}: ${describeSystemError(error)}${missing}; nothing was written`, { hint: 'choose another file or folder with -o', cause: error });
  }
  try {
    commitFile(temp, path, force);
  } finally {
    rmSync(temp, { force: true });
  }
}

export async function runExport(factory: Factory, name: string, options: ExportOptions): Promise<void> {
  const { io } = factory;
  const format = formatOf(options);
  const conversation = conversationStoreFor(io).read(name);
  const text = format === 'json' ? `${JSON.stringify(toMessages(conversation), null, 2)}\n` : toMarkdown(conversation);
  if (options.output === undefined || options.output === '-') {
    // Model text on a terminal is neutralised; a pipe or a file gets it exactly.
    io.stdout.write(forOutput(text, io.stdoutIsTTY));
    return;
  }
  let path = resolve(io.cwd, options.output);
  // `-o notes/` puts <name>.md in that folder, as cp and svc image do.
  if (isFolder(path)) path = join(path, `${name}.${format}`);
  writeWhole(path, text, options.force === true, options.output);
  io.stderr.write(`svc: exported "${name}" (${conversation.turns.length} ${conversation.turns.length === 1 ? 'turn' : 'turns'}, ${format === 'md' ? 'Markdown' : 'JSON'}) to ${forOutput(path, io.stderrIsTTY)}\n`);
}
