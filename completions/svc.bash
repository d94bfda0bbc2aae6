# bash completion for svc (generated from the program: svc completion bash)
# Install: source this file from ~/.bashrc, or copy it to
# ~/.local/share/bash-completion/completions/svc

_svc() {
  local cur prev path word i line
  # cur and prev from the line itself: bash splits words at ":" (COMP_WORDBREAKS), which would
  # cut an aspect ratio such as 16:9 in three.
  line="${COMP_LINE:0:COMP_POINT}"
  cur="${line##*[[:space:]]}"
  line="${line%"$cur"}"
  line="${line%"${line##*[![:space:]]}"}"
  prev="${line##*[[:space:]]}"
  # The command path typed so far ("auth login"): words that name a command, skipping flags
  # and the values of flags that take one.
  path=""
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="${COMP_WORDS[i]}"
    case " --profile -m --model -s --system -f --file --image-detail --var --role --max-tokens -t --temperature --top-p --stop --presence-penalty --frequency-penalty --user --session --param --tools --allow --max-steps --base-url --timeout --max-retries -o --output --aspect --format --seed -n --count --negative --preview --prompts --concurrency --images-dir --limit --since --at --with-images --prompt --url --env --header --cwd --port --host --api-key --block --delay --fail --cut-after --latency --record --cassette --replay --context " in
      *" $word "*) ((i++)); continue ;;
    esac
    [[ "$word" == -* ]] && continue
    case "|chat|image|image info|image again|batch|sessions|sessions list|sessions show|sessions fork|sessions search|sessions export|sessions rename|sessions delete|roles|roles list|roles show|roles set|roles edit|roles delete|models|render|auth|auth login|auth logout|auth status|config|config get|config set|config unset|config list|config path|profiles|profiles list|profiles use|profiles delete|mcp|mcp add|mcp list|mcp remove|mcp tools|mcp import|emulator|completion|help|" in
      *"|${path:+$path }$word|"*) path="${path:+$path }$word" ;;
    esac
  done
  COMPREPLY=()
  _svc_complete_path
  # Candidates with a colon: bash will only replace the part after the last colon of cur.
  if [[ "$cur" == *:* ]]; then
    local keep="${cur%"${cur##*:}"}"
    COMPREPLY=("${COMPREPLY[@]#"$keep"}")
  fi
  # A key that goes on after its dot (prices.MODEL): no space after it.
  if [[ ${#COMPREPLY[@]} -eq 1 && "${COMPREPLY[0]}" == *. ]]; then compopt -o nospace 2>/dev/null; fi
}

_svc_complete_path() {
  case "$path" in
    '')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-v --version --plain --profile -h --help' -- "$cur")); return; fi
      compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W 'chat image batch sessions roles models render auth config profiles mcp emulator completion help' -- "$cur"))
      ;;
    'chat')
      case "$prev" in
        -m|--model) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc config choices model 2>/dev/null)" -- "$cur")); return ;;
        -s|--system) compopt +o default 2>/dev/null; return ;;
        -f|--file) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --image-detail) compopt +o default 2>/dev/null; return ;;
        --var) compopt +o default 2>/dev/null; return ;;
        --role) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc roles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
        --max-tokens) compopt +o default 2>/dev/null; return ;;
        -t|--temperature) compopt +o default 2>/dev/null; return ;;
        --top-p) compopt +o default 2>/dev/null; return ;;
        --stop) compopt +o default 2>/dev/null; return ;;
        --presence-penalty) compopt +o default 2>/dev/null; return ;;
        --frequency-penalty) compopt +o default 2>/dev/null; return ;;
        --user) compopt +o default 2>/dev/null; return ;;
        --session) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc sessions list --for-completion 2>/dev/null | cut -f1)" -- "$cur")); return ;;
        --param) compopt +o default 2>/dev/null; return ;;
        --tools) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc mcp list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
        --allow) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc mcp list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
        --max-steps) compopt +o default 2>/dev/null; return ;;
        --base-url) compopt +o default 2>/dev/null; return ;;
        --timeout) compopt +o default 2>/dev/null; return ;;
        --max-retries) compopt +o default 2>/dev/null; return ;;
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-m --model -s --system -f --file --image-detail --var --role --max-tokens -t --temperature --top-p --stop --presence-penalty --frequency-penalty --user --no-stream --json -x --extract --extract-last --raw --usage --show-reasoning --no-stdin -i --interactive -c --continue --session --compact --no-save --list --dry-run --param --tools --no-tools --allow --max-steps --base-url --timeout --max-retries --plain --profile -h --help' -- "$cur")); return; fi
      :
      ;;
    'image')
      case "$prev" in
        -o|--output) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --aspect) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W '1:1 16:9 9:16 4:3 3:4 21:9' -- "$cur")); return ;;
        --format) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W 'png jpeg webp' -- "$cur")); return ;;
        --seed) compopt +o default 2>/dev/null; return ;;
        -n|--count) compopt +o default 2>/dev/null; return ;;
        --negative) compopt +o default 2>/dev/null; return ;;
        -m|--model) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc config choices imageModel 2>/dev/null)" -- "$cur")); return ;;
        --preview) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W 'auto kitty iterm sixel blocks none' -- "$cur")); return ;;
        --param) compopt +o default 2>/dev/null; return ;;
        --base-url) compopt +o default 2>/dev/null; return ;;
        --timeout) compopt +o default 2>/dev/null; return ;;
        --max-retries) compopt +o default 2>/dev/null; return ;;
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-o --output --aspect --format --seed -n --count --negative -m --model --preview --open --force --no-metadata --json --dry-run --param --base-url --timeout --max-retries --plain --profile -h --help' -- "$cur")); return; fi
      compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W 'info again' -- "$cur"))
      ;;
    'image info')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--json --plain --profile -h --help' -- "$cur")); return; fi
      :
      ;;
    'image again')
      case "$prev" in
        -o|--output) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --aspect) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W '1:1 16:9 9:16 4:3 3:4 21:9' -- "$cur")); return ;;
        --format) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W 'png jpeg webp' -- "$cur")); return ;;
        --seed) compopt +o default 2>/dev/null; return ;;
        -n|--count) compopt +o default 2>/dev/null; return ;;
        --negative) compopt +o default 2>/dev/null; return ;;
        -m|--model) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc config choices imageModel 2>/dev/null)" -- "$cur")); return ;;
        --preview) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W 'auto kitty iterm sixel blocks none' -- "$cur")); return ;;
        --param) compopt +o default 2>/dev/null; return ;;
        --base-url) compopt +o default 2>/dev/null; return ;;
        --timeout) compopt +o default 2>/dev/null; return ;;
        --max-retries) compopt +o default 2>/dev/null; return ;;
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-o --output --aspect --format --seed -n --count --negative -m --model --preview --open --force --no-metadata --json --dry-run --param --base-url --timeout --max-retries --plain --profile -h --help' -- "$cur")); return; fi
      :
      ;;
    'batch')
      case "$prev" in
        --prompts) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        -o|--output) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --concurrency) compopt +o default 2>/dev/null; return ;;
        --images-dir) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        -m|--model) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc config choices model 2>/dev/null)" -- "$cur")); return ;;
        -s|--system) compopt +o default 2>/dev/null; return ;;
        --max-tokens) compopt +o default 2>/dev/null; return ;;
        -t|--temperature) compopt +o default 2>/dev/null; return ;;
        --top-p) compopt +o default 2>/dev/null; return ;;
        --stop) compopt +o default 2>/dev/null; return ;;
        --presence-penalty) compopt +o default 2>/dev/null; return ;;
        --frequency-penalty) compopt +o default 2>/dev/null; return ;;
        --user) compopt +o default 2>/dev/null; return ;;
        --aspect) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W '1:1 16:9 9:16 4:3 3:4 21:9' -- "$cur")); return ;;
        --format) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W 'png jpeg webp' -- "$cur")); return ;;
        --seed) compopt +o default 2>/dev/null; return ;;
        --negative) compopt +o default 2>/dev/null; return ;;
        --role) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc roles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
        --var) compopt +o default 2>/dev/null; return ;;
        --param) compopt +o default 2>/dev/null; return ;;
        --base-url) compopt +o default 2>/dev/null; return ;;
        --timeout) compopt +o default 2>/dev/null; return ;;
        --max-retries) compopt +o default 2>/dev/null; return ;;
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--prompts -o --output --concurrency --retry-failed --images-dir -m --model -s --system --max-tokens -t --temperature --top-p --stop --presence-penalty --frequency-penalty --user --aspect --format --seed --negative --role --var --no-metadata --json -x --extract --extract-last --dry-run --param --base-url --timeout --max-retries --plain --profile -h --help' -- "$cur")); return; fi
      COMPREPLY=($(compgen -f -- "$cur"))
      ;;
    'sessions')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--plain --profile -h --help' -- "$cur")); return; fi
      compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W 'list show fork search export rename delete' -- "$cur"))
      ;;
    'sessions list')
      case "$prev" in
        -n|--limit) compopt +o default 2>/dev/null; return ;;
        --since) compopt +o default 2>/dev/null; return ;;
        --model) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc config choices model 2>/dev/null)" -- "$cur")); return ;;
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-n --limit --since --model --json --usage --plain --profile -h --help' -- "$cur")); return; fi
      :
      ;;
    'sessions show')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--json --all --usage --plain --profile -h --help' -- "$cur")); return; fi
      compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc sessions list --for-completion 2>/dev/null | cut -f1)" -- "$cur"))
      ;;
    'sessions fork')
      case "$prev" in
        --at) compopt +o default 2>/dev/null; return ;;
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--at --plain --profile -h --help' -- "$cur")); return; fi
      compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc sessions list --for-completion 2>/dev/null | cut -f1)" -- "$cur"))
      ;;
    'sessions search')
      case "$prev" in
        -n|--limit) compopt +o default 2>/dev/null; return ;;
        --since) compopt +o default 2>/dev/null; return ;;
        --model) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc config choices model 2>/dev/null)" -- "$cur")); return ;;
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-n --limit --since --model --json --plain --profile -h --help' -- "$cur")); return; fi
      :
      ;;
    'sessions export')
      case "$prev" in
        --format) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W 'md html json' -- "$cur")); return ;;
        -o|--output) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --with-images) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--format -o --output --force --with-images --plain --profile -h --help' -- "$cur")); return; fi
      compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc sessions list --for-completion 2>/dev/null | cut -f1)" -- "$cur"))
      ;;
    'sessions rename')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--plain --profile -h --help' -- "$cur")); return; fi
      compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc sessions list --for-completion 2>/dev/null | cut -f1)" -- "$cur"))
      ;;
    'sessions delete')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-y --yes --plain --profile -h --help' -- "$cur")); return; fi
      compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc sessions list --for-completion 2>/dev/null | cut -f1)" -- "$cur"))
      ;;
    'roles')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--plain --profile -h --help' -- "$cur")); return; fi
      compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W 'list show set edit delete' -- "$cur"))
      ;;
    'roles list')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--json --plain --profile -h --help' -- "$cur")); return; fi
      :
      ;;
    'roles show')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--plain --profile -h --help' -- "$cur")); return; fi
      compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc roles list 2>/dev/null | cut -f1)" -- "$cur"))
      ;;
    'roles set')
      case "$prev" in
        -s|--system) compopt +o default 2>/dev/null; return ;;
        -m|--model) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc config choices model 2>/dev/null)" -- "$cur")); return ;;
        --prompt) compopt +o default 2>/dev/null; return ;;
        --param) compopt +o default 2>/dev/null; return ;;
        --max-tokens) compopt +o default 2>/dev/null; return ;;
        -t|--temperature) compopt +o default 2>/dev/null; return ;;
        --top-p) compopt +o default 2>/dev/null; return ;;
        --stop) compopt +o default 2>/dev/null; return ;;
        --presence-penalty) compopt +o default 2>/dev/null; return ;;
        --frequency-penalty) compopt +o default 2>/dev/null; return ;;
        --user) compopt +o default 2>/dev/null; return ;;
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-s --system -m --model --prompt --param --max-tokens -t --temperature --top-p --stop --presence-penalty --frequency-penalty --user --plain --profile -h --help' -- "$cur")); return; fi
      compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc roles list 2>/dev/null | cut -f1)" -- "$cur"))
      ;;
    'roles edit')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--plain --profile -h --help' -- "$cur")); return; fi
      compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc roles list 2>/dev/null | cut -f1)" -- "$cur"))
      ;;
    'roles delete')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-y --yes --plain --profile -h --help' -- "$cur")); return; fi
      compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc roles list 2>/dev/null | cut -f1)" -- "$cur"))
      ;;
    'models')
      case "$prev" in
        --base-url) compopt +o default 2>/dev/null; return ;;
        --timeout) compopt +o default 2>/dev/null; return ;;
        --max-retries) compopt +o default 2>/dev/null; return ;;
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--json --cached --base-url --timeout --max-retries --plain --profile -h --help' -- "$cur")); return; fi
      :
      ;;
    'render')
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-h --help' -- "$cur")); return; fi
      :
      ;;
    'auth')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--plain --profile -h --help' -- "$cur")); return; fi
      compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W 'login logout status' -- "$cur"))
      ;;
    'auth login')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--with-key --offline --plain --profile -h --help' -- "$cur")); return; fi
      :
      ;;
    'auth logout')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--plain --profile -h --help' -- "$cur")); return; fi
      :
      ;;
    'auth status')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--offline --plain --profile -h --help' -- "$cur")); return; fi
      :
      ;;
    'config')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--plain --profile -h --help' -- "$cur")); return; fi
      compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W 'get set unset list path' -- "$cur"))
      ;;
    'config get')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--stored --plain --profile -h --help' -- "$cur")); return; fi
      compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc config choices 2>/dev/null)" -- "$cur"))
      ;;
    'config set')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--plain --profile -h --help' -- "$cur")); return; fi
      compopt +o default 2>/dev/null; local values; values="$(svc config choices "$prev" 2>/dev/null)"; if [[ -n "$values" && "$prev" != set ]]; then COMPREPLY=($(compgen -W "$values" -- "$cur")); else COMPREPLY=($(compgen -W "$(svc config choices 2>/dev/null)" -- "$cur")); fi
      ;;
    'config unset')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--plain --profile -h --help' -- "$cur")); return; fi
      compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc config choices 2>/dev/null)" -- "$cur"))
      ;;
    'config list')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--plain --profile -h --help' -- "$cur")); return; fi
      :
      ;;
    'config path')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--plain --profile -h --help' -- "$cur")); return; fi
      :
      ;;
    'profiles')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--plain --profile -h --help' -- "$cur")); return; fi
      compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W 'list use delete' -- "$cur"))
      ;;
    'profiles list')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--json --plain --profile -h --help' -- "$cur")); return; fi
      :
      ;;
    'profiles use')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--plain --profile -h --help' -- "$cur")); return; fi
      compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur"))
      ;;
    'profiles delete')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-y --yes --plain --profile -h --help' -- "$cur")); return; fi
      compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur"))
      ;;
    'mcp')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--plain --profile -h --help' -- "$cur")); return; fi
      compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W 'add list remove tools import' -- "$cur"))
      ;;
    'mcp add')
      case "$prev" in
        --url) compopt +o default 2>/dev/null; return ;;
        --env) compopt +o default 2>/dev/null; return ;;
        --header) compopt +o default 2>/dev/null; return ;;
        --cwd) compopt +o default 2>/dev/null; return ;;
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--url --env --header --cwd --force --plain --profile -h --help' -- "$cur")); return; fi
      :
      ;;
    'mcp list')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--json --plain --profile -h --help' -- "$cur")); return; fi
      :
      ;;
    'mcp remove')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-y --yes --plain --profile -h --help' -- "$cur")); return; fi
      compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc mcp list 2>/dev/null | cut -f1)" -- "$cur"))
      ;;
    'mcp tools')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--json --plain --profile -h --help' -- "$cur")); return; fi
      compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc mcp list 2>/dev/null | cut -f1)" -- "$cur"))
      ;;
    'mcp import')
      case "$prev" in
        --profile) compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W "$(svc profiles list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--force --plain --profile -h --help' -- "$cur")); return; fi
      COMPREPLY=($(compgen -f -- "$cur"))
      ;;
    'emulator')
      case "$prev" in
        --port) compopt +o default 2>/dev/null; return ;;
        --host) compopt +o default 2>/dev/null; return ;;
        --api-key) compopt +o default 2>/dev/null; return ;;
        --block) compopt +o default 2>/dev/null; return ;;
        --delay) compopt +o default 2>/dev/null; return ;;
        --model) compopt +o default 2>/dev/null; return ;;
        --fail) compopt +o default 2>/dev/null; return ;;
        --cut-after) compopt +o default 2>/dev/null; return ;;
        --latency) compopt +o default 2>/dev/null; return ;;
        --record) compopt +o default 2>/dev/null; return ;;
        --cassette) compopt +o default 2>/dev/null; return ;;
        --replay) compopt +o default 2>/dev/null; return ;;
        --context) compopt +o default 2>/dev/null; return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--port --host --api-key --block --delay --model --fail --cut-after --latency --record --cassette --replay --replay-timing --text-only --context -h --help' -- "$cur")); return; fi
      :
      ;;
    'completion')
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-h --help' -- "$cur")); return; fi
      compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W 'bash zsh fish' -- "$cur"))
      ;;
    'help')
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-h --help' -- "$cur")); return; fi
      compopt +o default 2>/dev/null; COMPREPLY=($(compgen -W 'chat image batch sessions roles models render auth config profiles mcp emulator completion' -- "$cur"))
      ;;
  esac
}
complete -o default -F _svc svc
