/** The fish completion script, rendered from the completion model. */
import { modelSetting, type ValueSource } from '../completion-hints.js';
import { commandPaths, valueFlagNames, type CompletionCommand } from './model.js';

const quote = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

function values(source: ValueSource | undefined): string {
  if (!source) return '';
  switch (source.kind) {
    case 'list':
      return ` -a ${quote(source.values.join(' '))}`;
    case 'sessions':
      // Each name with its first line, which fish shows as the description.
      return ` -a '(svc sessions list --for-completion 2>/dev/null)'`;
    case 'profiles':
      return ` -a '(svc profiles list 2>/dev/null | cut -f1)'`;
    case 'roles':
      return ` -a '(svc roles list 2>/dev/null | cut -f1)'`;
    case 'mcp-servers':
      return ` -a '(svc mcp list 2>/dev/null | cut -f1)'`;
    case 'models':
      return ` -a '(svc config choices ${modelSetting(source)} 2>/dev/null)'`;
    case 'files':
      return ' -F';
    case 'settings':
      return ` -a '(__svc_setting_choices)'`;
    case 'setting-names':
      return ` -a '(svc config choices 2>/dev/null)'`;
  }
}

export function renderFish(commands: CompletionCommand[]): string {
  const paths = commandPaths(commands);
  const uniqueValueFlags = valueFlagNames(commands);
  const lines: string[] = [];
  for (const command of commands) {
    const when = `-n ${quote(['__svc_at', ...command.path].join(' '))}`;
    for (const sub of command.subcommands) lines.push(`complete -c svc ${when} -f -a ${quote(sub.name)} -d ${quote(sub.description)}`);
    if (command.subcommands.length === 0 && command.argument) {
      // -f (no files) with -F (files) is an error in fish ("invalid option combination"): an
      // argument that is a file gets -F alone.
      const noFiles = command.argument.kind === 'files' ? '' : ' -f';
      lines.push(`complete -c svc ${when}${noFiles}${values(command.argument)}`);
    }
    for (const flag of command.flags) {
      const names = flag.names.map((name) => (name.startsWith('--') ? ` -l ${name.slice(2)}` : ` -s ${name.slice(1)}`)).join('');
      const takes = flag.takesValue ? (flag.values?.kind === 'files' ? ' -r' : ' -x') : '';
      lines.push(`complete -c svc ${when}${names}${takes}${values(flag.values)} -d ${quote(flag.description)}`);
    }
  }
  return `# fish completion for svc (generated from the program: svc completion fish)
# Install: copy to ~/.config/fish/completions/svc.fish

# The command path typed so far ("auth login"): words that name a command, skipping flags and
# the values of flags that take one.
function __svc_path
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l path
    set -l skip 0
    for word in $tokens
        if test $skip -eq 1
            set skip 0
            continue
        end
        if contains -- $word ${uniqueValueFlags.map(quote).join(' ')}
            set skip 1
            continue
        end
        string match -q -- '-*' $word; and continue
        set -l candidate (string join ' ' $path $word)
        if contains -- "$candidate" ${paths.map(quote).join(' ')}
            set path $path $word
        end
    end
    string join ' ' $path
end

# svc config set: the setting names, then the values the name before takes.
function __svc_setting_choices
    set -l prev (commandline -opc)[-1]
    set -l values
    test "$prev" != set; and set values (svc config choices $prev 2>/dev/null)
    if test (count $values) -gt 0
        printf '%s\n' $values
    else
        svc config choices 2>/dev/null
    end
end

# True when the command path typed so far is exactly the words given.
function __svc_at
    set -l path (__svc_path)
    test "$path" = "$argv"
end

complete -c svc -f
${lines.join('\n')}
`;
}
