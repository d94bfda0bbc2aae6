/**
 * The commander program read as what the shell completions need: every command path, its
 * flags with descriptions, and what values complete where. Generated, so a flag added to a
 * command is in the completions the moment it is declared.
 */
import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import { completionOf, isGlobal, WITHOUT_GLOBALS, type ValueSource } from '../completion-hints.js';

export interface CompletionFlag {
  /** The flag's spellings: ['-m', '--model'], or just ['--json']. */
  names: string[];
  description: string;
  takesValue: boolean;
  values: ValueSource | undefined;
}

export interface CompletionCommand {
  /** Words after `svc`: [] for the root, ['auth', 'login'] for `svc auth login`. */
  path: string[];
  description: string;
  flags: CompletionFlag[];
  subcommands: Array<{ name: string; description: string }>;
  /** What the first positional argument completes to, if anything. */
  argument: ValueSource | undefined;
}

/** The subcommands a person is offered: not the hidden ones (`svc config choices`, for completion itself). */
function visible(command: Command): Command[] {
  return command.commands.filter((sub) => (sub as unknown as { _hidden?: boolean })._hidden !== true);
}

function describe(command: Command): string {
  return command.summary() || command.description().split('\n')[0] || '';
}

export function completionModel(program: Command): CompletionCommand[] {
  const commands: CompletionCommand[] = [];
  // Global options (--profile) are offered after every command, as they are accepted there.
  const globals = program.options.filter(isGlobal);
  const visit = (command: Command, path: string[]): void => {
    // Hidden spellings (-V beside -v) work but are not offered.
    const options = [...command.options, ...(path.length > 0 && !WITHOUT_GLOBALS.has(path[0]!) ? globals : [])];
    const flags: CompletionFlag[] = options.filter((option) => !option.hidden).map((option) => ({
      names: [option.short, option.long].filter((name): name is string => Boolean(name)),
      description: option.description,
      takesValue: option.required || option.optional,
      values: completionOf(option),
    }));
    flags.push({ names: ['-h', '--help'], description: 'show help', takesValue: false, values: undefined });
    const argument = command.registeredArguments[0];
    commands.push({
      path,
      description: describe(command),
      flags,
      subcommands: visible(command).map((sub) => ({ name: sub.name(), description: describe(sub) })),
      argument: argument ? completionOf(argument) : undefined,
    });
    for (const sub of visible(command)) visit(sub, [...path, sub.name()]);
  };
  visit(program, []);
  return commands;
}

/** Every command path below the root, as typed: 'chat', 'auth login', ... */
export function commandPaths(commands: CompletionCommand[]): string[] {
  return commands.filter((command) => command.path.length > 0).map((command) => command.path.join(' '));
}

/** Each spelling of every flag that takes a value, once (a shell must skip the value after it). */
export function valueFlagNames(commands: CompletionCommand[]): string[] {
  return [...new Set(commands.flatMap((command) => command.flags.filter((flag) => flag.takesValue).flatMap((flag) => flag.names)))];
}
