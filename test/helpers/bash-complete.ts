/**
 * What bash offers on Tab for `line` (the cursor at its end), from the committed
 * completions/svc.bash, with `svc` running the built binary in `env`, from `cwd` (or `svc`, a
 * command that stands in for it).
 */
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { SVC_BIN } from './run-svc.js';

const COMPLETIONS = fileURLToPath(new URL('../../completions/svc.bash', import.meta.url));

export async function bashComplete(line: string, env: Record<string, string>, cwd: string, svc = `node "${SVC_BIN}"`): Promise<string[]> {
  const script = `
    svc() { ${svc} "$@"; }
    source "${COMPLETIONS}"
    COMP_LINE="$1"; COMP_POINT=\${#COMP_LINE}
    read -ra COMP_WORDS <<< "$COMP_LINE"
    [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$((\${#COMP_WORDS[@]} - 1))
    # As readline does for \`complete -o default\`: an empty answer falls back to file names,
    # unless the function turned that off with compopt (a builtin only while completing).
    compopt() { [[ "$1 $2" == "+o default" ]] && no_default=1; return 0; }
    _svc
    if [[ \${#COMPREPLY[@]} -eq 0 && -z "$no_default" ]]; then COMPREPLY=($(compgen -f -- "\${COMP_WORDS[COMP_CWORD]}")); fi
    printf '%s\\n' "\${COMPREPLY[@]}"`;
  const result = await execa('bash', ['-c', script, 'bash', line], { cwd, env, extendEnv: false });
  return result.stdout.split('\n').filter(Boolean);
}
