/**
 * Output that cannot be written, with real descriptors (issue 10, item 17): stdout on /dev/full
 * (every write fails with ENOSPC) and stdout opened read-only (EBADF). Both go through paths an
 * in-process test cannot reach: the launcher's own --help and --version answers, and Node's
 * synchronous file streams. (A closed descriptor, `>&-`, cannot be tested this way: Node opens
 * /dev/null in its place before any JavaScript runs, so the output is discarded as with
 * `> /dev/null`, which svc cannot tell apart from a deliberate discard.)
 */
import { closeSync, existsSync, openSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasStackTrace, svc } from '../helpers/run-svc.js';
import { useEmulatorSandbox } from '../helpers/emulator-sandbox.js';

const targets: Array<[string, string, 'w' | 'r', RegExp]> = [
  ['a full disk', '/dev/full', 'w', /could not write to stdout: no space left on device \(ENOSPC\)/],
  ['a descriptor open only for reading', '/dev/null', 'r', /could not write to stdout: the descriptor is not open for writing \(EBADF\)/],
];

describe.skipIf(!existsSync('/dev/full'))('svc with a stdout that refuses writes', () => {
  const env = useEmulatorSandbox('sk-stdout-e2e');

  describe.each(targets)('stdout on %s', (_what, path, mode, message) => {
    let fd: number;
    beforeAll(() => {
      fd = openSync(path, mode);
    });
    afterAll(() => closeSync(fd));

    it.each([
      ['--help (answered by the launcher)', ['--help']],
      ['image --help (answered by the launcher)', ['image', '--help']],
      ['--version (answered by the launcher)', ['--version']],
      ['chat', ['chat', '--no-save', 'name three colours']],
      ['chat --json', ['chat', '--no-save', '--json', 'name three colours']],
      ['config path', ['config', 'path']],
      ['image -o -', ['image', '-o', '-', 'a kite']],
    ])('%s: exit 1 with a message', async (_name, args) => {
      // execa takes any descriptor number; its types name only the literals 3 to 9.
      const result = await svc(args, env.sandbox, { stdout: fd as 3 });
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(hasStackTrace(result.stderr)).toBe(false);
    });
  });
});
