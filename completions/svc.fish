# fish completion for svc (generated from the program: svc completion fish)
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
        if contains -- $word '-m' '--model' '-s' '--system' '--max-tokens' '-t' '--temperature' '--top-p' '--stop' '--presence-penalty' '--frequency-penalty' '--user' '--session' '--base-url' '--timeout' '--max-retries' '-o' '--output' '--aspect' '--format' '--seed' '--negative' '--preview' '--port' '--host' '--api-key' '--block' '--delay'
            set skip 1
            continue
        end
        string match -q -- '-*' $word; and continue
        set -l candidate (string join ' ' $path $word)
        if contains -- "$candidate" 'chat' 'image' 'sessions' 'sessions list' 'sessions show' 'sessions delete' 'auth' 'auth login' 'auth logout' 'auth status' 'config' 'config get' 'config set' 'config unset' 'config list' 'config path' 'emulator' 'completion' 'help'
            set path $path $word
        end
    end
    string join ' ' $path
end

# True when the command path typed so far is exactly the words given.
function __svc_at
    set -l path (__svc_path)
    test "$path" = "$argv"
end

complete -c svc -f
complete -c svc -n '__svc_at' -f -a 'chat' -d 'ask a question (one-shot) or chat'
complete -c svc -n '__svc_at' -f -a 'image' -d 'generate an image from a prompt'
complete -c svc -n '__svc_at' -f -a 'sessions' -d 'list, show or delete saved conversations'
complete -c svc -n '__svc_at' -f -a 'auth' -d 'store, remove or check the API key'
complete -c svc -n '__svc_at' -f -a 'config' -d 'read and change stored settings'
complete -c svc -n '__svc_at' -f -a 'emulator' -d 'run a local stand-in for the service'
complete -c svc -n '__svc_at' -f -a 'completion' -d 'print the shell completion script'
complete -c svc -n '__svc_at' -f -a 'help' -d 'show help for a command'
complete -c svc -n '__svc_at' -s v -l version -d 'print the version'
complete -c svc -n '__svc_at' -s h -l help -d 'show help'
complete -c svc -n '__svc_at chat' -s m -l model -x -d 'chat model (env SVC_MODEL; default svc-pro)'
complete -c svc -n '__svc_at chat' -s s -l system -x -d 'system message sent before the prompt'
complete -c svc -n '__svc_at chat' -l max-tokens -x -d 'most tokens in the reply (whole number, 1 or more)'
complete -c svc -n '__svc_at chat' -s t -l temperature -x -d 'randomness from 0 to 2 (service default 1)'
complete -c svc -n '__svc_at chat' -l top-p -x -d 'nucleus sampling from 0 to 1 (service default 1)'
complete -c svc -n '__svc_at chat' -l stop -x -d 'stop the reply at this text (repeatable, up to 4 times)'
complete -c svc -n '__svc_at chat' -l presence-penalty -x -d 'penalise tokens already present, -2 to 2'
complete -c svc -n '__svc_at chat' -l frequency-penalty -x -d 'penalise frequent tokens, -2 to 2'
complete -c svc -n '__svc_at chat' -l user -x -d 'end-user id passed to the service for tracking'
complete -c svc -n '__svc_at chat' -l no-stream -d 'wait for the whole reply instead of streaming it'
complete -c svc -n '__svc_at chat' -l json -d 'print the whole completion as JSON (service-api.md 2.2) instead of text'
complete -c svc -n '__svc_at chat' -l usage -d 'print token counts to stderr'
complete -c svc -n '__svc_at chat' -l no-stdin -d 'never read stdin, even when it is a pipe'
complete -c svc -n '__svc_at chat' -s i -l interactive -d 'after the prompt (words or piped stdin), go on talking from the terminal'
complete -c svc -n '__svc_at chat' -s c -l continue -d 'continue the conversation changed last'
complete -c svc -n '__svc_at chat' -l session -x -a '(svc sessions list 2>/dev/null | cut -f1)' -d 'continue the conversation of this name (created if new)'
complete -c svc -n '__svc_at chat' -l no-save -d 'keep nothing: no saved conversation, no input history'
complete -c svc -n '__svc_at chat' -l list -d 'list saved conversations (same as `svc sessions list`)'
complete -c svc -n '__svc_at chat' -l base-url -x -d 'service base URL; /v1/... is appended (env SVC_BASE_URL)'
complete -c svc -n '__svc_at chat' -l timeout -x -d 'longest silence allowed from the service (env SVC_TIMEOUT; default 120)'
complete -c svc -n '__svc_at chat' -l max-retries -x -d 'retries for connection failures, 408, 409, 429, 5xx (env SVC_MAX_RETRIES; default 2)'
complete -c svc -n '__svc_at chat' -s h -l help -d 'show help'
complete -c svc -n '__svc_at image' -s o -l output -r -F -d 'file to write (.png, .jpg, .jpeg, .webp), a folder to save in, or - for stdout; default: named from the prompt'
complete -c svc -n '__svc_at image' -l aspect -x -a '1:1 16:9 9:16 4:3 3:4 21:9' -d 'aspect ratio: 1:1, 16:9, 9:16, 4:3, 3:4, 21:9 (service default 1:1)'
complete -c svc -n '__svc_at image' -l format -x -a 'png jpeg webp' -d 'image format: png, jpeg, webp (default: from -o, else png)'
complete -c svc -n '__svc_at image' -l seed -x -d 'seed for a reproducible image (whole number 0 to 4294967295)'
complete -c svc -n '__svc_at image' -l negative -x -d 'what must not appear in the image'
complete -c svc -n '__svc_at image' -s m -l model -x -d 'image model (env SVC_IMAGE_MODEL; default svc-vision)'
complete -c svc -n '__svc_at image' -l preview -x -a 'auto kitty iterm sixel blocks none' -d 'preview on a terminal: auto, kitty, iterm, sixel, blocks, none (env SVC_PREVIEW; default auto)'
complete -c svc -n '__svc_at image' -l open -d 'open the saved file in the system\'s viewer (xdg-open, open, start)'
complete -c svc -n '__svc_at image' -l force -d 'replace an existing file'
complete -c svc -n '__svc_at image' -l json -d 'print {created, images: [{path, revised_prompt, bytes}], usage} instead'
complete -c svc -n '__svc_at image' -l base-url -x -d 'service base URL; /v1/... is appended (env SVC_BASE_URL)'
complete -c svc -n '__svc_at image' -l timeout -x -d 'longest silence allowed from the service (env SVC_TIMEOUT; default 120)'
complete -c svc -n '__svc_at image' -l max-retries -x -d 'retries for connection failures, 408, 409, 429, 5xx (env SVC_MAX_RETRIES; default 2)'
complete -c svc -n '__svc_at image' -s h -l help -d 'show help'
complete -c svc -n '__svc_at sessions' -f -a 'list' -d 'One line each, newest first: name, last change, turns, first line.'
complete -c svc -n '__svc_at sessions' -f -a 'show' -d 'Print a conversation as a transcript, or its messages array with --json.'
complete -c svc -n '__svc_at sessions' -f -a 'delete' -d 'Delete a saved conversation.'
complete -c svc -n '__svc_at sessions' -s h -l help -d 'show help'
complete -c svc -n '__svc_at sessions list' -l json -d 'print a JSON array instead'
complete -c svc -n '__svc_at sessions list' -s h -l help -d 'show help'
complete -c svc -n '__svc_at sessions show' -f -a '(svc sessions list 2>/dev/null | cut -f1)'
complete -c svc -n '__svc_at sessions show' -l json -d 'the messages array, as the service expects it'
complete -c svc -n '__svc_at sessions show' -s h -l help -d 'show help'
complete -c svc -n '__svc_at sessions delete' -f -a '(svc sessions list 2>/dev/null | cut -f1)'
complete -c svc -n '__svc_at sessions delete' -s h -l help -d 'show help'
complete -c svc -n '__svc_at auth' -f -a 'login' -d 'Store the API key (owner-only file in the config folder).'
complete -c svc -n '__svc_at auth' -f -a 'logout' -d 'Remove the stored API key.'
complete -c svc -n '__svc_at auth' -f -a 'status' -d 'Show whether a key is set, where it comes from (masked), and the base URL in use. Exit 3 when no key is set.'
complete -c svc -n '__svc_at auth' -s h -l help -d 'show help'
complete -c svc -n '__svc_at auth login' -l with-key -d 'read the key from stdin instead of prompting'
complete -c svc -n '__svc_at auth login' -s h -l help -d 'show help'
complete -c svc -n '__svc_at auth logout' -s h -l help -d 'show help'
complete -c svc -n '__svc_at auth status' -s h -l help -d 'show help'
complete -c svc -n '__svc_at config' -f -a 'get' -d 'Print a stored value (exit 1 when it is not set).'
complete -c svc -n '__svc_at config' -f -a 'set' -d 'Check and store a value.'
complete -c svc -n '__svc_at config' -f -a 'unset' -d 'Remove a stored value, so the default applies.'
complete -c svc -n '__svc_at config' -f -a 'list' -d 'Print every setting as key<TAB>value<TAB>source, where source is flag, env, stored or default.'
complete -c svc -n '__svc_at config' -f -a 'path' -d 'Print the path of the settings file.'
complete -c svc -n '__svc_at config' -s h -l help -d 'show help'
complete -c svc -n '__svc_at config get' -f -a 'baseUrl timeout maxRetries model imageModel preview'
complete -c svc -n '__svc_at config get' -s h -l help -d 'show help'
complete -c svc -n '__svc_at config set' -f -a 'baseUrl timeout maxRetries model imageModel preview'
complete -c svc -n '__svc_at config set' -s h -l help -d 'show help'
complete -c svc -n '__svc_at config unset' -f -a 'baseUrl timeout maxRetries model imageModel preview'
complete -c svc -n '__svc_at config unset' -s h -l help -d 'show help'
complete -c svc -n '__svc_at config list' -s h -l help -d 'show help'
complete -c svc -n '__svc_at config path' -s h -l help -d 'show help'
complete -c svc -n '__svc_at emulator' -l port -x -d 'port to listen on; 0 picks a free one'
complete -c svc -n '__svc_at emulator' -l host -x -d 'address to listen on'
complete -c svc -n '__svc_at emulator' -l api-key -x -d 'accepted API key (repeatable; default: one random key, printed)'
complete -c svc -n '__svc_at emulator' -l block -x -d 'add a term to the built-in blacklist (repeatable)'
complete -c svc -n '__svc_at emulator' -l delay -x -d 'pause between streamed tokens, in milliseconds'
complete -c svc -n '__svc_at emulator' -s h -l help -d 'show help'
complete -c svc -n '__svc_at completion' -f -a 'bash zsh fish'
complete -c svc -n '__svc_at completion' -s h -l help -d 'show help'
complete -c svc -n '__svc_at help' -f -a 'chat image sessions auth config emulator completion'
complete -c svc -n '__svc_at help' -s h -l help -d 'show help'
