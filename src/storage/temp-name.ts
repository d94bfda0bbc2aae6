/**
 * The hidden name a file is written under before it takes its real one: `.svc-<pid>-<8 hex
 * digits>.part`, in the folder it ends up in (so the final rename or link never crosses file
 * systems), and a pattern that matches svc's own such names and nothing else.
 *
 * Every caller creates the file exclusively ('wx'), so the random part only has to keep two
 * writers of one process from picking the same name, not be unguessable: Math.random rather than
 * node:crypto, which nothing else a one-shot chat does needs, and which costs start-up to load.
 */
import { join } from 'node:path';

/** svc's own temporary names, and nothing else: what a clean-up may remove. */
export const TEMP_NAME = /^\.svc-\d+-[0-9a-f]{8}\.part$/;

/**
 * 8 random hex digits from Math.random (which V8 seeds from the system's entropy in every
 * process): for names and ids that must not collide, not be unguessable (batch/records.ts too).
 */
export function randomHex8(): string {
  return Math.floor(Math.random() * 0x1_0000_0000).toString(16).padStart(8, '0');
}

/** A fresh temporary path in `dir`. */
export function tempPathIn(dir: string): string {
  return join(dir, `.svc-${process.pid}-${randomHex8()}.part`);
}
