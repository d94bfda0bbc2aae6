/**
 * Operating-system errors (ENOSPC, EACCES, EBADF…) in plain words for messages: "no space left on
 * device (ENOSPC)" rather than Node's "ENOSPC: no space left on device, write '/x/.svc-1.part'".
 */

/** Words for the codes a user meets when writing, where Node's own message has none (sockets say just "write EPIPE"). */
const WORDS: Record<string, string> = {
  EACCES: 'permission denied',
  EBADF: 'the descriptor is not open for writing',
  EDQUOT: 'disk quota exceeded',
  EEXIST: 'the name exists',
  EFBIG: 'file too large',
  EIO: 'input/output error',
  EISDIR: 'it is a folder',
  ENAMETOOLONG: 'the name is too long',
  ENOENT: 'no such file or folder',
  ENOSPC: 'no space left on device',
  ENOTDIR: 'a part of the path is not a folder',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
};

export function errnoCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** `error` in words, with its code in brackets when it has one: "read-only file system (EROFS)". */
export function describeSystemError(error: unknown): string {
  const code = errnoCode(error);
  const message = error instanceof Error ? error.message : String(error);
  const words = (code && WORDS[code]) ?? /^[A-Z0-9_]+: ([^,]+)/.exec(message)?.[1] ?? message;
  return code && /^E[A-Z0-9]+$/.test(code) ? `${words} (${code})` : words;
}
