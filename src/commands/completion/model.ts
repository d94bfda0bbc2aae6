/**
 * The commander program read as what the shell completions need: every command path, its
 * flags with descriptions, and what values complete where. Generated, so a flag added to a
 * command is in the completions the moment it is declared.
 */
import type { Command } from 'commander';
import { completionOf, type ValueSource } from '../completion-hints.js';

export interface CompletionFlag {
  short: string | undefined;
  long: string | undefined;
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

function describe(command: Command): string {
  return command.summary() || command.description().split('\n')[0] || '';
}

export function completionModel(program: Command): CompletionCommand[] {
  const commands: CompletionCommand[] = [];
  const visit = (command: Command, path: string[]): void => {
    const flags: CompletionFlag[] = command.options.map((option) => ({
      short: option.short,
      long: option.long,
      description: option.description,
      takesValue: option.required || option.optional,
      values: completionOf(option),
    }));
    flags.push({ short: '-h', long: '--help', description: 'show help', takesValue: false, values: undefined });
    const argument = command.registeredArguments[0];
    commands.push({
      path,
      description: describe(command),
      flags,
      subcommands: command.commands.map((sub) => ({ name: sub.name(), description: describe(sub) })),
      argument: argument ? completionOf(argument) : undefined,
    });
    for (const sub of command.commands) visit(sub, [...path, sub.name()]);
  };
  visit(program, []);
  return commands;
}
