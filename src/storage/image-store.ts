/**
 * Images a conversation refers to, each kept once under its content hash in svc's data folder:
 * `<data>/images/<sha256>.<ext>`. A conversation's file names the hash, never holds the bytes,
 * so an image sent in every turn of a long conversation, or in two conversations, is one file.
 *
 * Written whole or not at all (replace-file.ts), owner-only (a picture a user shows a model is
 * theirs); keeping the same bytes again finds the file and writes nothing. Read back by hash,
 * with the hash checked: a missing, damaged or unreadable file is an ImageStoreError naming it.
 * `dataDir` is the caller's (settings/paths.ts): storage knows no settings.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SvcError } from '../core/errors.js';
import { describeSystemError, errnoCode } from '../core/system-errors.js';
import { replaceFile } from './replace-file.js';

/** The extensions an image is kept under (attachments/image-input.ts IMAGE_EXTENSION: what its bytes are). */
export const KEPT_EXTENSIONS = ['png', 'jpg', 'webp', 'gif'] as const;
export type KeptExtension = (typeof KEPT_EXTENSIONS)[number];

/** The media type of an image kept under `ext`, for its `data:` URL. */
export const KEPT_MIME: Readonly<Record<KeptExtension, string>> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif' };

/** An image kept: its hash and extension (what a conversation records), and where it is. */
export interface KeptImage {
  sha256: string;
  ext: KeptExtension;
  path: string;
  bytes: number;
}

/** An image that cannot be kept or read back; the message names the file. */
export class ImageStoreError extends SvcError {}

/** The folder of kept images in svc's data folder. */
export function imagesDir(dataDir: string): string {
  return join(dataDir, 'images');
}

const SHA256 = /^[0-9a-f]{64}$/;

/**
 * Where the image of `sha256` and `ext` is kept. Both are checked, since they come from a
 * conversation's file, which a user may edit: a name like `../../x` never becomes a path.
 */
export function keptImagePath(dataDir: string, sha256: string, ext: string): string {
  if (!SHA256.test(sha256) || !(KEPT_EXTENSIONS as readonly string[]).includes(ext)) {
    throw new ImageStoreError(`not an image svc keeps: ${JSON.stringify(`${sha256}.${ext}`.slice(0, 80))}`);
  }
  return join(imagesDir(dataDir), `${sha256}.${ext}`);
}

// node:crypto is loaded only when an image is kept or read back: conversations read this module's
// names on every listing, which must not pay for it.
const hashOf = (bytes: Uint8Array): string => process.getBuiltinModule('node:crypto').createHash('sha256').update(bytes).digest('hex');

/** The file's bytes, or undefined when there is none; other failures go up. */
function readIfThere(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Keep `bytes` (an image whose bytes are of kind `ext`) and say where. The same bytes kept before
 * are found and not written again; a file of that name whose bytes no longer match (damaged on
 * disk) is replaced.
 */
export function keepImage(dataDir: string, bytes: Uint8Array, ext: KeptExtension): KeptImage {
  const sha256 = hashOf(bytes);
  const path = keptImagePath(dataDir, sha256, ext);
  try {
    const there = readIfThere(path);
    if (there === undefined || hashOf(there) !== sha256) {
      // New folders owner-only; the data folder is svc's own, made the same way by the conversation store.
      mkdirSync(imagesDir(dataDir), { recursive: true, mode: 0o700 });
      replaceFile(path, bytes, 0o600);
    }
  } catch (error) {
    throw new ImageStoreError(`cannot keep the image as ${path}: ${describeSystemError(error)}`, { cause: error });
  }
  return { sha256, ext, path, bytes: bytes.length };
}

/** The bytes of the image kept as `sha256`.`ext`, checked against the hash. */
export function readKeptImage(dataDir: string, sha256: string, ext: string): Buffer {
  const path = keptImagePath(dataDir, sha256, ext);
  let bytes: Buffer | undefined;
  try {
    bytes = readIfThere(path);
  } catch (error) {
    throw new ImageStoreError(`cannot read the kept image ${path}: ${describeSystemError(error)}`, { cause: error });
  }
  if (bytes === undefined) {
    throw new ImageStoreError(`the kept image ${path} is missing`, { hint: 'it was removed from svc\'s data folder; attach the picture again (-f, /file)' });
  }
  if (hashOf(bytes) !== sha256) {
    throw new ImageStoreError(`the kept image ${path} is damaged: its bytes do not match its name`, { hint: 'attach the picture again (-f, /file)' });
  }
  return bytes;
}

/** The `data:` URL of image bytes kept under `ext`, as a message sends it. */
export function keptImageDataUrl(bytes: Buffer, ext: KeptExtension): string {
  return `data:${KEPT_MIME[ext]};base64,${bytes.toString('base64')}`;
}
