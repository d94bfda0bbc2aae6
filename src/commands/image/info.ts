/**
 * `svc image info FILE...`: the provenance svc wrote into each image (images/provenance.ts), with
 * the format, pixel size and bytes read from the file itself, as a short block per file, or
 * `--json`. A file without svc's record, or one that cannot be read, is one line on stderr and
 * exit 1 (the others are still shown). What the file says is neutralised on a terminal:
 * anyone can write an XMP packet. Declared here for --help; the reader loads when it runs.
 */
import { resolve } from 'node:path';
import { Command } from '@commander-js/extra-typings';
import { formatBytes } from '../../core/byte-size.js';
import { SilentExit, ExitCode, SvcError, UsageError } from '../../core/errors.js';
import { jsonForOutput } from '../../core/json.js';
import { describeSystemError } from '../../core/system-errors.js';
import { forOutput } from '../../core/terminal-text.js';
import type { Factory } from '../../factory.js';
import type { ImageFacts } from '../../images/metadata-reader.js';
import type { CommandContext } from '../context.js';

const EXAMPLES = `
Examples:
  $ svc image info lighthouse.png
  $ svc image info *.png --json | jq -r '.[] | "\\(.seed) \\(.path)"'`;

export function infoCommand(context: CommandContext) {
  return new Command('info')
    .summary('show the prompt, model and seed saved in image files')
    .description('Print the provenance svc wrote into each image (prompt, revised prompt, negative prompt, model, seed, aspect), with the format, pixel size and bytes read from the file. Exit 1 when a file has none; exit 2, nothing read, when a name is not an image file.')
    .argument('<file...>', 'image files svc saved (.png, .jpg, .jpeg, .webp)')
    .option('--json', 'print a JSON array, one object a file')
    .addHelpText('after', EXAMPLES)
    .action(async (files, flags, command) => {
      checkImageFileNames('info', files);
      // Commander reads image's --json wherever it is on the line: it is image's, not info's.
      await runImageInfo(context.factory, files, flags.json === true || command.parent?.opts().json === true);
    });
}

/** An image file's name, as `svc image info` and `again` take them: what svc saves. */
const IMAGE_FILE = /\.(png|jpe?g|webp)$/i;

/** `words` as one double-quoted shell word. */
function quoted(words: string[]): string {
  return `"${words.join(' ').replace(/["\\$`]/g, '\\$&')}"`;
}

/**
 * Every word after `svc image info` or `again` must name an image file: a typo (`koi.jpgg`), or a
 * prompt that starts with the word (`svc image info graphic of a bee`), is exit 2 naming it, and
 * nothing is read or sent. Words that look like no file name at all get how to quote a prompt.
 */
export function checkImageFileNames(command: 'info' | 'again', files: string[]): void {
  const wrong = files.find((file) => !IMAGE_FILE.test(file));
  if (wrong === undefined) return;
  const fileLike = /\.[A-Za-z0-9]{1,5}$|[/\\]/.test(wrong);
  throw new UsageError(`svc image ${command}: ${wrong} is not an image file (.png, .jpg, .jpeg, .webp); nothing was sent`, {
    hint: fileLike ? `svc image ${command} reads files svc saved` : `to make an image of these words, quote them: svc image ${quoted([command, ...files])}`,
  });
}

/** The facts of `file`, or an error naming it. The reader loads here, as a file is read, never when the command is declared. */
export async function factsOf(cwd: string, file: string): Promise<ImageFacts> {
  const { readImageFacts } = await import('../../images/metadata-reader.js');
  try {
    return readImageFacts(resolve(cwd, file));
  } catch (error) {
    throw new SvcError(`cannot read ${file}: ${describeSystemError(error)}`);
  }
}

/** The words svc says of a file without a record. */
export function noRecordMessage(file: string, facts: ImageFacts): string {
  const what = facts.format === undefined ? 'is not a PNG, JPEG or WebP image' : 'has no svc metadata (saved with --no-metadata, or not by svc)';
  return `${file} ${what}`;
}

function block(file: string, facts: ImageFacts): string[] {
  const record = facts.record!;
  const size = facts.size ? `${facts.size.width}×${facts.size.height}, ` : '';
  const rows: Array<[string, string | undefined]> = [
    ['prompt', record.prompt],
    ['revised prompt', record.revisedPrompt],
    ['negative', record.negativePrompt],
    ['model', record.model],
    ['seed', record.seed === undefined ? undefined : String(record.seed)],
    ['aspect', record.aspectRatio],
    ['format', `${facts.format ?? record.format} (${size}${formatBytes(facts.bytes)})`],
    ['made', `${record.createdAt} by svc ${record.svcVersion}`],
  ];
  return [file, ...rows.filter(([, value]) => value !== undefined && value !== '').map(([name, value]) => `  ${name.padEnd(15)} ${value}`)];
}

function jsonOf(file: string, facts: ImageFacts): Record<string, unknown> {
  const record = facts.record!;
  return {
    path: file,
    format: facts.format ?? null,
    width: facts.size?.width ?? null,
    height: facts.size?.height ?? null,
    bytes: facts.bytes,
    prompt: record.prompt,
    revised_prompt: record.revisedPrompt ?? null,
    negative_prompt: record.negativePrompt ?? null,
    model: record.model,
    seed: record.seed ?? null,
    aspect_ratio: record.aspectRatio ?? null,
    created_at: record.createdAt,
    svc_version: record.svcVersion,
  };
}

async function runImageInfo(factory: Factory, files: string[], json: boolean): Promise<void> {
  const { io } = factory;
  let missing = 0;
  const found: Array<[string, ImageFacts]> = [];
  for (const file of files) {
    let facts: ImageFacts;
    try {
      facts = await factsOf(io.cwd, file);
    } catch (error) {
      // A file that cannot be read is named, like one without a record; the others are shown.
      if (!(error instanceof SvcError)) throw error;
      missing += 1;
      io.note(`error: ${error.message}`);
      continue;
    }
    if (facts.record) found.push([file, facts]);
    else {
      missing += 1;
      io.note(noRecordMessage(file, facts));
    }
  }
  if (json) io.stdout.write(jsonForOutput(found.map(([file, facts]) => jsonOf(file, facts)), io.stdoutIsTTY));
  else if (found.length > 0) io.stdout.write(`${found.map(([file, facts]) => forOutput(block(file, facts).join('\n'), io.stdoutIsTTY)).join('\n\n')}\n`);
  if (missing > 0) throw new SilentExit(ExitCode.failure);
}
