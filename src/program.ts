/**
 * The root commander program: global help and the commands. Each command is one module
 * (commands/<name>/<name>.ts: its flags, declaration and run function), imported here at once
 * for --help and completion; the heavy part of its work is imported when it runs (start-up must
 * not load the HTTP stack, prompts, spinners or the emulator).
 */
import { environmentHelp } from './core/environment.js';
import { Command, CommanderError, Option, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { authCommand } from './commands/auth/auth.js';
import { completes, global, WITHOUT_GLOBALS } from './commands/completion-hints.js';
import { UsageError } from './core/errors.js';
import { batchCommand } from './commands/batch/batch.js';
import { chatCommand } from './commands/chat/chat.js';
import { completionCommand } from './commands/completion/completion.js';
import { configCommand } from './commands/config/config.js';
import type { CommandContext } from './commands/context.js';
import { emulatorCommand } from './commands/emulator/emulator.js';
import { modelsCommand } from './commands/models/models.js';
import { helpCommand } from './commands/help/help.js';
import { mcpCommand } from './commands/mcp/mcp.js';
import { imageCommand } from './commands/image/image.js';
import { renderCommand } from './commands/render/render.js';
import { profilesCommand } from './commands/profiles/profiles.js';
import { rolesCommand } from './commands/roles/roles.js';
import { sessionsCommand } from './commands/sessions/sessions.js';
import { version } from './core/version.js';

const ROOT_HELP = `
Examples:
  $ svc chat "explain this error" < build.log
  $ git diff | svc chat "write a commit message"
  $ svc image "a lighthouse at dusk" --aspect 16:9 -o lighthouse.png
  $ svc emulator            # a local service to try svc offline
  $ svc chat --profile work "hello"   # another service's base URL, key and settings
  $ svc chat -f notes.md -f 'src/*.ts' "what is missing?"
  $ svc chat --role shell "find files over 1 GB"

Settings: flag > environment > stored in the profile in use > default. The profile in use:
  --profile, else SVC_PROFILE, else \`svc profiles use\`, else "default".

Environment:
${environmentHelp()}

Exit codes:
  0 success                 4 rejected by the service (4xx, disallowed content, unknown model)
  1 other failure           5 rate limited (429) after retries
  2 usage error             6 network: cannot connect, TLS, timeout, cut mid-response
  3 authentication          7 a tool call was declined: no terminal to approve it, no --allow
                            130 interrupted (Ctrl-C)`;

export function buildProgram(context: CommandContext): CommandUnknownOpts {
  const { io } = context.factory;
  const program = new Command('svc')
    .description('Chat with an AI service and generate images, from the terminal and from scripts.')
    // -v as npm, node and most tools spell it; -V (commander's default, svc's first spelling) stays.
    .version(version, '-v, --version', 'print the version')
    .addOption(new Option('-V', 'print the version').hideHelp())
    .helpOption('-h, --help', 'show help')
    .helpCommand(false)
    // --profile, given after a command too (`svc chat --profile work`): commander reads root
    // options anywhere on the line, and each command's help lists it under "Global Options".
    .addOption(global(new Option('--plain', 'no spinner, colour, cursor movement or preview; replies as text, a line at a time (env SVC_PLAIN=1, TERM=dumb)')))
    .addOption(global(completes(new Option('--profile <name>', 'use the base URL, key and settings of this profile (env SVC_PROFILE)'), { kind: 'profiles' })))
    .configureHelp({ showGlobalOptions: true })
    .showSuggestionAfterError(true)
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', ROOT_HELP)
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // commander's own messages ("error: unknown option '--x'") get svc's prefix like every other.
      outputError: (text, write) => write(text.startsWith('error:') ? `svc: ${text}` : text),
    })
    .exitOverride();
  // Before any command runs: a malformed --profile is a usage error whatever the command.
  program.hook('preAction', (_root, action) => {
    // --plain: a property of this run's IO, which every part asks; not written into the
    // environment, where the editor or a key command would inherit it.
    if (program.opts().plain === true) {
      io.plain = true;
      io.colorEnabled = false;
    }
    const profile = program.opts().profile;
    let top: CommandUnknownOpts = action;
    while (top.parent && top.parent !== program) top = top.parent as CommandUnknownOpts;
    if (profile !== undefined && WITHOUT_GLOBALS.has(top.name())) {
      throw new UsageError(`--profile does nothing for svc ${top.name()}: it reads no settings and no key`);
    }
    return context.factory.selectProfile(profile);
  });
  program.on('option:V', () => {
    io.stdout.write(`${version}\n`);
    throw new CommanderError(0, 'commander.version', version);
  });
  for (const command of [chatCommand(context), imageCommand(context), batchCommand(context), sessionsCommand(context), rolesCommand(context), modelsCommand(context), renderCommand(context), authCommand(context), configCommand(context), profilesCommand(context), mcpCommand(context), emulatorCommand(context), completionCommand(context, () => program)]) {
    program.addCommand(command);
  }
  program.addCommand(helpCommand(() => program, program.commands.map((command) => command.name())));
  // Subcommands inherit output and exit handling so their usage errors reach main as well.
  const inherit = (command: CommandUnknownOpts): void => {
    for (const sub of command.commands) {
      sub.copyInheritedSettings(command);
      sub.helpCommand(false); // `svc help auth` or `svc auth --help`; no `svc auth help`
      inherit(sub);
    }
  };
  inherit(program);
  // Their help lists no --profile: it would do nothing there.
  for (const command of program.commands) if (WITHOUT_GLOBALS.has(command.name())) command.configureHelp({ ...command.configureHelp(), showGlobalOptions: false });
  return program;
}
