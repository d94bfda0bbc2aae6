/**
 * What domain code (settings, conversations) needs of the process to find its files and report a
 * problem with them: the environment, and stderr. Declared here, structurally, so the shell's IO
 * object passes as it is while the domain never imports the shell (test/architecture/layers).
 */
export interface Reporter {
  /** The environment the command sees (XDG folders, SVC_* variables). */
  readonly env: Record<string, string | undefined>;
  readonly stderr: { write(text: string): unknown };
  readonly stderrIsTTY: boolean;
  /** `svc: warning: …` (terminal/io.ts IO.warn). */
  warn(text: string, hint?: string): void;
  /** `svc: …` (IO.note). */
  note(text: string, hint?: string): void;
  /** A line of its own shape, neutralised (IO.say). */
  say(text: string): void;
}
