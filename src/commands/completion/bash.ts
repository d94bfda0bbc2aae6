/** The bash completion script, rendered from the completion model. */
import { modelSetting, type ValueSource } from '../completion-hints.js';
import { commandPaths, valueFlagNames, type CompletionCommand } from './model.js';

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** Shell words that produce the candidates for a value source. */
function candidates(source: ValueSource | undefined): string {
  if (!source) return '';
  switch (source.kind) {
    case 'list':
      return `COMPREPLY=($(compgen -W ${quote(source.values.join(' '))} -- "$cur"))`;
    case 'sessions':
      return `COMPREPLY=($(compgen -W "$(svc sessions list --for-completion 2>/dev/null | cut -f1)" -- "$cur"))`;
    case 'profiles':
      return `COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur"))`;
    case 'roles':
      return `COMPREPLY=($(compgen -W "$(svc roles list 2>/dev/null | cut -f1)" -- "$cur"))`;
    case 'mcp-servers':
      return `COMPREPLY=($(compgen -W "$(svc mcp list 2>/dev/null | cut -f1)" -- "$cur"))`;
    case 'models':
      return `COMPREPLY=($(compgen -W "$(svc config choices ${modelSetting(source)} 2>/dev/null)" -- "$cur"))`;
    case 'files':
      return `COMPREPLY=($(compgen -f -- "$cur"))`;
    case 'settings':
      // After a setting's name, the values it takes; else the names.
      return `local values; values="$(svc config choices "$prev" 2>/dev/null)"; if [[ -n "$values" && "$prev" != set ]]; then COMPREPLY=($(compgen -W "$values" -- "$cur")); else COMPREPLY=($(compgen -W "$(svc config choices 2>/dev/null)" -- "$cur")); fi`;
    case 'setting-names':
      return `COMPREPLY=($(compgen -W "$(svc config choices 2>/dev/null)" -- "$cur"))`;
  }
}

/**
 * The script is registered with `-o default`, so that a file argument gets bash's own file
 * completion; for a value that is not a file (a model id, a session, a system message), an
 * empty answer must stay empty rather than fall back to file names.
 */
const NO_FILES = 'compopt +o default 2>/dev/null';

function flagNames(command: CompletionCommand): string[] {
  return command.flags.flatMap((flag) => flag.names);
}

export function renderBash(commands: CompletionCommand[]): string {
  const paths = commandPaths(commands);
  const valueFlags = valueFlagNames(commands);
  const cases = commands.map((command) => {
    const key = command.path.join(' ');
    const valueCases = command.flags
      .filter((flag) => flag.takesValue)
      .map((flag) => {
        const names = flag.names.join('|');
        const action = candidates(flag.values);
        const noFiles = flag.values?.kind === 'files' ? '' : `${NO_FILES}; `;
        return `        ${names}) ${noFiles}${action ? `${action}; ` : ''}return ;;`;
      });
    const listed = command.subcommands.length > 0 ? `COMPREPLY=($(compgen -W ${quote(command.subcommands.map((sub) => sub.name).join(' '))} -- "$cur"))` : candidates(command.argument);
    // A list of names (subcommands, sessions, roles...) offers those or nothing, never files.
    const positional = listed && command.argument?.kind !== 'files' ? `${NO_FILES}; ${listed}` : listed;
    return [
      `    ${quote(key)})`,
      valueCases.length > 0 ? `      case "$prev" in\n${valueCases.join('\n')}\n      esac` : '',
      `      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W ${quote(flagNames(command).join(' '))} -- "$cur")); return; fi`,
      positional ? `      ${positional}` : '      :',
      '      ;;',
    ]
      .filter(Boolean)
      .join('\n');
  });
  return `# bash completion for svc (generated from the program: svc completion bash)
# Install: source this file from ~/.bashrc, or copy it to
# ~/.local/share/bash-completion/completions/svc

_svc() {
  local cur prev path word i line
  # cur and prev from the line itself: bash splits words at ":" (COMP_WORDBREAKS), which would
  # cut an aspect ratio such as 16:9 in three.
  line="\${COMP_LINE:0:COMP_POINT}"
  cur="\${line##*[[:space:]]}"
  line="\${line%"$cur"}"
  line="\${line%"\${line##*[![:space:]]}"}"
  prev="\${line##*[[:space:]]}"
  # The command path typed so far ("auth login"): words that name a command, skipping flags
  # and the values of flags that take one.
  path=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    case " ${valueFlags.join(' ')} " in
      *" $word "*) ((i++)); continue ;;
    esac
    [[ "$word" == -* ]] && continue
    case "|${paths.join('|')}|" in
      *"|\${path:+$path }$word|"*) path="\${path:+$path }$word" ;;
    esac
  done
  COMPREPLY=()
  _svc_complete_path
  # Candidates with a colon: bash will only replace the part after the last colon of cur.
  if [[ "$cur" == *:* ]]; then
    local keep="\${cur%"\${cur##*:}"}"
    COMPREPLY=("\${COMPREPLY[@]#"$keep"}")
  fi
  # A key that goes on after its dot (prices.MODEL): no space after it.
  if [[ \${#COMPREPLY[@]} -eq 1 && "\${COMPREPLY[0]}" == *. ]]; then compopt -o nospace 2>/dev/null; fi
}

_svc_complete_path() {
  case "$path" in
${cases.join('\n')}
  esac
}
complete -o default -F _svc svc
`;
}
