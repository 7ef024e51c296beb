# fish completion for gw. Generated from the commander program by `npm run completions`: do not edit.
# Use: copy to ~/.config/fish/completions/gw.fish.

complete -c gw -n '__fish_use_subcommand' -f -a 'serve' -d 'run the gateway (default http://127.0.0.1:8080)'
complete -c gw -n '__fish_use_subcommand' -f -a 'teams' -d 'Create and list teams (every key belongs to one)'
complete -c gw -n '__fish_use_subcommand' -f -a 'keys' -d 'Create, list and revoke virtual keys (sk-gw-…)'
complete -c gw -n '__fish_use_subcommand' -f -a 'settings' -d 'Show and change gateway settings'
complete -c gw -n '__fish_use_subcommand' -f -a 'providers' -d 'Add, list, remove and test upstream providers'
complete -c gw -n '__fish_use_subcommand' -f -a 'audit' -d 'inspect the hash-chained audit trail'
complete -c gw -n '__fish_use_subcommand' -f -a 'completion' -d 'print the shell completion script for bash, zsh or fish'
complete -c gw -n '__fish_use_subcommand' -f -a 'help' -d 'display help for command'
complete -c gw -s V -l version -d 'output the version number'
complete -c gw -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from serve' -l host -r -d 'address to listen on (GW_HOST; default 127.0.0.1)'
complete -c gw -n '__fish_seen_subcommand_from serve' -l port -r -d 'port to listen on (GW_PORT; default 8080)'
complete -c gw -n '__fish_seen_subcommand_from serve' -l home -r -d 'state folder (GW_HOME; default the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from serve' -l tls-cert -r -d 'PEM certificate, to terminate TLS in gw itself'
complete -c gw -n '__fish_seen_subcommand_from serve' -l tls-key -r -d 'PEM private key for --tls-cert'
complete -c gw -n '__fish_seen_subcommand_from serve' -l log-level -r -d 'pino log level (GW_LOG_LEVEL; default info)'
complete -c gw -n '__fish_seen_subcommand_from serve' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from teams; and not __fish_seen_subcommand_from create list help' -f -a 'create' -d 'Create a team'
complete -c gw -n '__fish_seen_subcommand_from teams; and not __fish_seen_subcommand_from create list help' -f -a 'list' -d 'List teams'
complete -c gw -n '__fish_seen_subcommand_from teams; and not __fish_seen_subcommand_from create list help' -f -a 'help' -d 'display help for command'
complete -c gw -n '__fish_seen_subcommand_from teams' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from teams; and __fish_seen_subcommand_from create' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from teams; and __fish_seen_subcommand_from create' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from teams; and __fish_seen_subcommand_from list' -l json -d 'print JSON'
complete -c gw -n '__fish_seen_subcommand_from teams; and __fish_seen_subcommand_from list' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from teams; and __fish_seen_subcommand_from list' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from teams; and __fish_seen_subcommand_from help' -f -a 'create list'

complete -c gw -n '__fish_seen_subcommand_from keys; and not __fish_seen_subcommand_from create list revoke help' -f -a 'create' -d 'Create a key; it is printed once and stored only as a hash'
complete -c gw -n '__fish_seen_subcommand_from keys; and not __fish_seen_subcommand_from create list revoke help' -f -a 'list' -d 'List keys (never their secrets)'
complete -c gw -n '__fish_seen_subcommand_from keys; and not __fish_seen_subcommand_from create list revoke help' -f -a 'revoke' -d 'Revoke a key by its id (vk_…); a running gateway refuses it within a second'
complete -c gw -n '__fish_seen_subcommand_from keys; and not __fish_seen_subcommand_from create list revoke help' -f -a 'help' -d 'display help for command'
complete -c gw -n '__fish_seen_subcommand_from keys' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from create' -l team -r -d 'team the key belongs to'
complete -c gw -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from create' -l name -r -d 'a label to recognise the key by'
complete -c gw -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from create' -l expires -r -d 'lifetime such as 30d, 12h, 90m, 2w or 45s (default: never)'
complete -c gw -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from create' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from create' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from list' -l team -r -d 'only this team\'s keys'
complete -c gw -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from list' -l json -d 'print JSON'
complete -c gw -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from list' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from list' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from revoke' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from revoke' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from help' -f -a 'create list revoke'

complete -c gw -n '__fish_seen_subcommand_from settings; and not __fish_seen_subcommand_from get set help' -f -a 'get' -d 'Show one setting, or all of them'
complete -c gw -n '__fish_seen_subcommand_from settings; and not __fish_seen_subcommand_from get set help' -f -a 'set' -d 'Change a setting; a running gateway picks it up within a second'
complete -c gw -n '__fish_seen_subcommand_from settings; and not __fish_seen_subcommand_from get set help' -f -a 'help' -d 'display help for command'
complete -c gw -n '__fish_seen_subcommand_from settings' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from settings; and __fish_seen_subcommand_from get' -l json -d 'print JSON'
complete -c gw -n '__fish_seen_subcommand_from settings; and __fish_seen_subcommand_from get' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from settings; and __fish_seen_subcommand_from get' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from settings; and __fish_seen_subcommand_from set' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from settings; and __fish_seen_subcommand_from set' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from settings; and __fish_seen_subcommand_from help' -f -a 'get set'

complete -c gw -n '__fish_seen_subcommand_from providers; and not __fish_seen_subcommand_from add list remove test help' -f -a 'add' -d 'Add a provider to state.json (it wins over the environment\'s provider of the same name)'
complete -c gw -n '__fish_seen_subcommand_from providers; and not __fish_seen_subcommand_from add list remove test help' -f -a 'list' -d 'List providers from state.json, the environment and the built-in mock (never their keys)'
complete -c gw -n '__fish_seen_subcommand_from providers; and not __fish_seen_subcommand_from add list remove test help' -f -a 'remove' -d 'Remove a provider from state.json'
complete -c gw -n '__fish_seen_subcommand_from providers; and not __fish_seen_subcommand_from add list remove test help' -f -a 'test' -d 'Send one small real request (the model list) and print status and latency'
complete -c gw -n '__fish_seen_subcommand_from providers; and not __fish_seen_subcommand_from add list remove test help' -f -a 'help' -d 'display help for command'
complete -c gw -n '__fish_seen_subcommand_from providers' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from add' -l kind -x -a 'openai anthropic gemini azure openai-compatible gateway' -d 'provider kind (default openai-compatible with --preset)'
complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from add' -l base-url -r -d 'API base URL as the provider\'s SDK takes it (default: the kind\'s or preset\'s)'
complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from add' -l api-key-env -r -d 'read the key from this environment variable of gw serve (stored as env:VARIABLE)'
complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from add' -l api-key -r -d 'store the key itself in state.json (0600); prefer --api-key-env'
complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from add' -l api-version -r -d 'Azure OpenAI api-version'
complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from add' -l preset -x -a 'ollama vllm llamacpp groq mistral deepseek openrouter together fireworks xai' -d 'OpenAI-compatible preset (its base URL is the default)'
complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from add' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from add' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from list' -l json -d 'print JSON'
complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from list' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from list' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from remove' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from remove' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from test' -l timeout -r -d 'give up after this long'
complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from test' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from test' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from help' -f -a 'add list remove test'

complete -c gw -n '__fish_seen_subcommand_from audit; and not __fish_seen_subcommand_from verify help' -f -a 'verify' -d 'check the audit trail for edits, inserts, deletes, reorders and a cut tail'
complete -c gw -n '__fish_seen_subcommand_from audit; and not __fish_seen_subcommand_from verify help' -f -a 'help' -d 'display help for command'
complete -c gw -n '__fish_seen_subcommand_from audit' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from audit; and __fish_seen_subcommand_from verify' -l file -r -d 'the trail to verify (default: <home>/audit/audit.jsonl)'
complete -c gw -n '__fish_seen_subcommand_from audit; and __fish_seen_subcommand_from verify' -l json -d 'print one JSON object'
complete -c gw -n '__fish_seen_subcommand_from audit; and __fish_seen_subcommand_from verify' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from audit; and __fish_seen_subcommand_from verify' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from audit; and __fish_seen_subcommand_from help' -f -a 'verify'

complete -c gw -n '__fish_seen_subcommand_from completion' -f -a 'bash zsh fish'
complete -c gw -n '__fish_seen_subcommand_from completion' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from help' -f -a 'serve teams keys settings providers audit completion'
