/** The zsh completion script (#compdef), rendered from the completion model. */
import { modelSetting, type ValueSource } from '../completion-hints.js';
import type { CompletionCommand, CompletionFlag } from './model.js';

// The value helpers are named *_names: `_svc_<command>` is the function of that command
// (functionName), and `_svc_sessions` for both once made `--session` complete subcommands.

/**
 * Text inside a single-quoted _arguments spec: no quote, no unescaped brackets or colons.
 * _arguments' own escapes first, then the shell's single quotes: the other way round escaped the
 * backslash of the quote's '\'' and broke the script (a help text with "system's" did).
 */
const spec = (text: string): string => text.replace(/([[\]:\\])/g, '\\$1').replace(/'/g, `'\\''`);

function action(source: ValueSource | undefined): string {
  if (!source) return '';
  switch (source.kind) {
    case 'list':
      return `(${source.values.map((value) => value.replace(/([:\\ ()])/g, '\\$1')).join(' ')})`;
    case 'sessions':
      return '_svc_session_names';
    case 'profiles':
      return '_svc_profile_names';
    case 'roles':
      return '_svc_role_names';
    case 'mcp-servers':
      return '_svc_mcp_server_names';
    case 'models':
      return modelSetting(source) === 'imageModel' ? '_svc_image_model_names' : '_svc_chat_model_names';
    case 'files':
      return '_files';
    case 'settings':
      return '_svc_setting_choices';
    case 'setting-names':
      return '_svc_setting_names';
  }
}

function flagSpec(flag: CompletionFlag): string {
  const { names } = flag;
  const value = flag.takesValue ? `:value:${action(flag.values)}` : '';
  const description = `[${spec(flag.description)}]`;
  if (names.length === 1) return `'${names[0]}${description}${value}'`;
  return `'(${names.join(' ')})'{${names.join(',')}}'${description}${value}'`;
}

const functionName = (path: string[]): string => ['_svc', ...path].join('_').replace(/-/g, '_');

function renderCommand(command: CompletionCommand): string {
  const flags = command.flags.map((flag) => `    ${flagSpec(flag)}`);
  if (command.subcommands.length === 0) {
    const argument = command.argument ? `    '*:argument:${action(command.argument)}'` : `    '*::argument:'`;
    return `${functionName(command.path)}() {\n  _arguments -s \\\n${[...flags, argument].join(' \\\n')}\n}`;
  }
  const list = command.subcommands.map((sub) => `    '${spec(sub.name)}:${spec(sub.description)}'`).join('\n');
  const dispatch = command.subcommands.map((sub) => `        ${sub.name}) ${functionName([...command.path, sub.name])} ;;`).join('\n');
  return `${functionName(command.path)}() {
  local curcontext="$curcontext" state line
  local -a commands
  commands=(
${list}
  )
  _arguments -C -s \\
${flags.join(' \\\n')} \\
    '1: :->command' \\
    '*:: :->args'
  case $state in
    command) _describe -t commands 'svc command' commands ;;
    args)
      case $line[1] in
${dispatch}
      esac
      ;;
  esac
}`;
}

export function renderZsh(commands: CompletionCommand[]): string {
  return `#compdef svc
# zsh completion for svc (generated from the program: svc completion zsh)
# Install: put this file, named _svc, in a folder on $fpath (e.g. ~/.zfunc, with
# fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc).

_svc_session_names() {
  local -a names
  # name<TAB>first line, shown as the name and its description (a backslash in it kept as one)
  names=(\${(f)"$(svc sessions list --for-completion 2>/dev/null)"})
  names=("\${(@)\${(@)names//\\\\/\\\\\\\\}/$'\\t'/:}")
  _describe -t sessions 'saved conversation' names
}

_svc_profile_names() {
  local -a names
  names=(\${(f)"$(svc profiles list 2>/dev/null | cut -f1)"})
  _describe -t profiles 'profile' names
}

# The setting names and price keys; prices. goes on with a model id, so no space after it.
_svc_setting_names() {
  local -a keys open
  keys=(\${(f)"$(svc config choices 2>/dev/null)"})
  open=(\${(M)keys:#*.})
  keys=(\${keys:#*.})
  _describe -t settings 'setting' keys -- open -S ''
}

# svc config set: the setting names, then the values the name before takes.
_svc_setting_choices() {
  local -a values
  [[ $words[CURRENT-1] != set ]] && values=(\${(f)"$(svc config choices $words[CURRENT-1] 2>/dev/null)"})
  if (( $#values )); then
    values=("\${(@)values//:/\\:}")
    _describe -t values 'value' values
  else
    _svc_setting_names
  fi
}

_svc_role_names() {
  local -a names
  names=(\${(f)"$(svc roles list 2>/dev/null | cut -f1)"})
  _describe -t roles 'role' names
}

_svc_mcp_server_names() {
  local -a names
  names=(\${(f)"$(svc mcp list 2>/dev/null | cut -f1)"})
  _describe -t mcp-servers 'MCP server' names
}

# The models \`svc config choices model|imageModel\` names. A colon in an id (llama3:8b) is not a description.
_svc_chat_model_names() {
  local -a names
  names=(\${(f)"$(svc config choices model 2>/dev/null)"})
  names=("\${(@)names//:/\\:}")
  _describe -t models 'chat model' names
}

_svc_image_model_names() {
  local -a names
  names=(\${(f)"$(svc config choices imageModel 2>/dev/null)"})
  names=("\${(@)names//:/\\:}")
  _describe -t models 'image model' names
}

${commands.map(renderCommand).join('\n\n')}

_svc "$@"
`;
}
