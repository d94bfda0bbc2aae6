/**
 * `svc sessions export <name>`: a conversation as Markdown, as one HTML page or as the messages
 * array, on stdout or in a file. A file is written whole or not at all, and an existing one is
 * kept unless --force, as `svc image` does (export-files.ts, loaded when it runs).
 */
import { statSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { Argument, Command, Option } from '@commander-js/extra-typings';
import { keptImageUrls, toMessages } from '../../conversations/model.js';
import { conversationStoreFor } from '../../conversations/store.js';
import { UsageError } from '../../core/errors.js';
import { forOutput } from '../../core/terminal-text.js';
import type { Factory } from '../../factory.js';
import { completes } from '../completion-hints.js';
import type { CommandContext } from '../context.js';

const EXPORT_FORMATS = ['md', 'html', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export function exportCommand(context: CommandContext) {
  return new Command('export')
    .description('Write a conversation as Markdown (a heading per message: who, the model, the time; images linked: /image ones and those sent with a message), as one self-contained HTML page (images embedded), or as the messages array of every turn (`sessions show --json` gives what is sent after /compact).')
    .addArgument(completes(new Argument('<name>', 'conversation name, or a beginning of it no other name shares (see `svc sessions list`)'), { kind: 'sessions' }))
    .addOption(completes(new Option('--format <format>', 'md, html or json (default: from the -o extension, else md)').choices(EXPORT_FORMATS), EXPORT_FORMATS))
    .addOption(completes(new Option('-o, --output <file>', 'write to this file (whole or not at all; - for stdout, the default)'), { kind: 'files' }))
    .option('--force', 'replace the file if it exists')
    .addOption(completes(new Option('--with-images <dir>', 'Markdown: copy the images into this folder and link them there (relative to the export)'), { kind: 'files' }))
    .addHelpText('after', '\nExamples:\n  $ svc sessions export work -o work.md\n  $ mkdir -p share && svc sessions export work -o share/work.md --with-images share/images\n  $ svc sessions export work -o work.html        # one file: images embedded, readable offline\n  $ svc sessions export work --format json | jq length')
    .action((name, options) => runExport(context.factory, name, options));
}

export interface ExportOptions {
  format?: string;
  output?: string;
  force?: boolean;
  /** Markdown: copy the images into this folder and link them there. */
  withImages?: string;
}

/** --format, else the extension of -o (.json is JSON, .html/.htm HTML), else Markdown. */
function formatOf(options: ExportOptions): ExportFormat {
  // commander has checked --format against EXPORT_FORMATS.
  if (options.format !== undefined) return options.format as ExportFormat;
  const ext = options.output === undefined ? '' : extname(options.output).toLowerCase();
  return ext === '.json' ? 'json' : ext === '.html' || ext === '.htm' ? 'html' : 'md';
}

const FORMAT_NAMES: Record<ExportFormat, string> = { md: 'Markdown', html: 'HTML', json: 'JSON' };

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** `svc sessions export NAME`: NAME may be a beginning of the name that no other shares (store.ts resolve). */
export async function runExport(factory: Factory, given: string, options: ExportOptions): Promise<void> {
  const { io } = factory;
  const format = formatOf(options);
  if (options.withImages !== undefined && format !== 'md') {
    throw new UsageError(`--with-images is for Markdown exports${format === 'html' ? ': an HTML export embeds its images' : ''}`, { hint: `svc sessions export ${given} -o ${given}.md --with-images images` });
  }
  const store = conversationStoreFor(io);
  const name = store.resolve(given);
  const conversation = store.read(name);
  const toStdout = options.output === undefined || options.output === '-';
  let path = toStdout ? undefined : resolve(io.cwd, options.output!);
  // `-o notes/` puts <name>.md in that folder, as cp and svc image do; with its slash it names a
  // folder even where none exists (then refused below, naming it), never a file to create.
  if (path !== undefined && (isFolder(path) || /[\\/]$/.test(options.output!))) path = join(path, `${name}.${format}`);
  // Image links are relative to where the export is read from: its folder, or here for stdout.
  const base = path === undefined ? io.cwd : dirname(path);
  const files = await import('./export-files.js');
  let text: string;
  if (format === 'json') text = `${JSON.stringify(toMessages(conversation, keptImageUrls(store.dataDir)), null, 2)}\n`;
  else if (format === 'html') text = await files.htmlExport(conversation, store.dataDir);
  else {
    const copies = options.withImages === undefined ? undefined : new files.ImageCopies(resolve(io.cwd, options.withImages), options.withImages);
    text = files.markdownExport(conversation, base, copies, store.dataDir);
    if (copies && copies.count > 0) io.note(`copied ${copies.count} ${copies.count === 1 ? 'image' : 'images'} to ${options.withImages!}`);
  }
  if (path === undefined) {
    // Model text on a terminal is neutralised; a pipe or a file gets it exactly.
    io.stdout.write(forOutput(text, io.stdoutIsTTY));
    return;
  }
  files.writeWhole(path, text, options.force === true, options.output!);
  io.note(`exported "${name}" (${conversation.turns.length} ${conversation.turns.length === 1 ? 'turn' : 'turns'}, ${FORMAT_NAMES[format]}) to ${path}`);
}
