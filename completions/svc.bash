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
    case " -m --model -s --system --max-tokens -t --temperature --top-p --stop --presence-penalty --frequency-penalty --user --session --base-url --timeout --max-retries -o --output --aspect --format --seed --negative --preview --port --host --api-key --block --delay " in
      *" $word "*) ((i++)); continue ;;
    esac
    [[ "$word" == -* ]] && continue
    case "|chat|image|sessions|sessions list|sessions show|sessions delete|auth|auth login|auth logout|auth status|config|config get|config set|config unset|config list|config path|emulator|completion|help|" in
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
}

_svc_complete_path() {
  case "$path" in
    '')
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-v --version -h --help' -- "$cur")); return; fi
      COMPREPLY=($(compgen -W 'chat image sessions auth config emulator completion help' -- "$cur"))
      ;;
    'chat')
      case "$prev" in
        -m|--model) return ;;
        -s|--system) return ;;
        --max-tokens) return ;;
        -t|--temperature) return ;;
        --top-p) return ;;
        --stop) return ;;
        --presence-penalty) return ;;
        --frequency-penalty) return ;;
        --user) return ;;
        --session) COMPREPLY=($(compgen -W "$(svc sessions list 2>/dev/null | cut -f1)" -- "$cur")); return ;;
        --base-url) return ;;
        --timeout) return ;;
        --max-retries) return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-m --model -s --system --max-tokens -t --temperature --top-p --stop --presence-penalty --frequency-penalty --user --no-stream --json --usage --no-stdin -i --interactive -c --continue --session --no-save --list --base-url --timeout --max-retries -h --help' -- "$cur")); return; fi
      :
      ;;
    'image')
      case "$prev" in
        -o|--output) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --aspect) COMPREPLY=($(compgen -W '1:1 16:9 9:16 4:3 3:4 21:9' -- "$cur")); return ;;
        --format) COMPREPLY=($(compgen -W 'png jpeg webp' -- "$cur")); return ;;
        --seed) return ;;
        --negative) return ;;
        -m|--model) return ;;
        --preview) COMPREPLY=($(compgen -W 'auto kitty iterm sixel blocks none' -- "$cur")); return ;;
        --base-url) return ;;
        --timeout) return ;;
        --max-retries) return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-o --output --aspect --format --seed --negative -m --model --preview --open --force --json --base-url --timeout --max-retries -h --help' -- "$cur")); return; fi
      :
      ;;
    'sessions')
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-h --help' -- "$cur")); return; fi
      COMPREPLY=($(compgen -W 'list show delete' -- "$cur"))
      ;;
    'sessions list')
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--json -h --help' -- "$cur")); return; fi
      :
      ;;
    'sessions show')
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--json -h --help' -- "$cur")); return; fi
      COMPREPLY=($(compgen -W "$(svc sessions list 2>/dev/null | cut -f1)" -- "$cur"))
      ;;
    'sessions delete')
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-h --help' -- "$cur")); return; fi
      COMPREPLY=($(compgen -W "$(svc sessions list 2>/dev/null | cut -f1)" -- "$cur"))
      ;;
    'auth')
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-h --help' -- "$cur")); return; fi
      COMPREPLY=($(compgen -W 'login logout status' -- "$cur"))
      ;;
    'auth login')
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--with-key -h --help' -- "$cur")); return; fi
      :
      ;;
    'auth logout')
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-h --help' -- "$cur")); return; fi
      :
      ;;
    'auth status')
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-h --help' -- "$cur")); return; fi
      :
      ;;
    'config')
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-h --help' -- "$cur")); return; fi
      COMPREPLY=($(compgen -W 'get set unset list path' -- "$cur"))
      ;;
    'config get')
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-h --help' -- "$cur")); return; fi
      COMPREPLY=($(compgen -W 'baseUrl timeout maxRetries model imageModel preview' -- "$cur"))
      ;;
    'config set')
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-h --help' -- "$cur")); return; fi
      COMPREPLY=($(compgen -W 'baseUrl timeout maxRetries model imageModel preview' -- "$cur"))
      ;;
    'config unset')
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-h --help' -- "$cur")); return; fi
      COMPREPLY=($(compgen -W 'baseUrl timeout maxRetries model imageModel preview' -- "$cur"))
      ;;
    'config list')
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-h --help' -- "$cur")); return; fi
      :
      ;;
    'config path')
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-h --help' -- "$cur")); return; fi
      :
      ;;
    'emulator')
      case "$prev" in
        --port) return ;;
        --host) return ;;
        --api-key) return ;;
        --block) return ;;
        --delay) return ;;
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '--port --host --api-key --block --delay -h --help' -- "$cur")); return; fi
      :
      ;;
    'completion')
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-h --help' -- "$cur")); return; fi
      COMPREPLY=($(compgen -W 'bash zsh fish' -- "$cur"))
      ;;
    'help')
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W '-h --help' -- "$cur")); return; fi
      COMPREPLY=($(compgen -W 'chat image sessions auth config emulator completion' -- "$cur"))
      ;;
  esac
}
complete -o default -F _svc svc
