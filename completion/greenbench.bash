# bash completion for greenbench(1): its commands, each command's options,
# the values of --profile, --languages, --algorithms, --orders and --energy
# (the lists item by item after each comma), folders and files for paths.
# Works with or without the bash-completion package; both --opt value and
# --opt=value. The test docs/completion (tests/docs/completion_check.py)
# keeps the options and values in step with `greenbench <command> --help`.

# The words of the command line with bash's "=" and ":" splits joined back
# ("--energy" "=" "au" is "--energy=au"): sets _gb_words, _gb_cword (the
# current word's index) and _gb_strip (how many leading characters of the
# current word bash does not replace, those before its last "=" or ":").
_greenbench_words() {
  _gb_words=()
  _gb_cword=0
  local i w
  for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
    w=${COMP_WORDS[i]}
    if ((i > 0)) && [[ $w == [=:] || ${COMP_WORDS[i - 1]} == [=:] ]]; then
      _gb_words[${#_gb_words[@]} - 1]+=$w
    else
      _gb_words+=("$w")
    fi
    ((i == COMP_CWORD)) && _gb_cword=$((${#_gb_words[@]} - 1))
  done
  ((i == COMP_CWORD)) && { _gb_words+=(""); _gb_cword=$((${#_gb_words[@]} - 1)); }
  local own=${COMP_WORDS[COMP_CWORD]}
  [[ $own == [=:] ]] && own=""
  _gb_strip=$((${#_gb_words[_gb_cword]} - ${#own}))
}

# Sets COMPREPLY to the candidates (full words) that start with cur, less
# the _gb_strip characters bash keeps.
_greenbench_reply() {
  local cur=$1 c
  shift
  COMPREPLY=()
  for c in "$@"; do
    [[ $c == "$cur"* ]] && COMPREPLY+=("${c:_gb_strip}")
  done
}

# Completes cur, a comma list of items (the earlier items kept, the ones
# already in it left out), each candidate prefixed with pre ("--opt=" or "").
_greenbench_list() {
  local pre=$1 cur=$2 head item
  shift 2
  head=""
  [[ $cur == *,* ]] && head=${cur%,*},
  local cands=()
  for item in "$@"; do
    [[ ,$head == *,"$item",* ]] || cands+=("$pre$head$item")
  done
  _greenbench_reply "$pre$cur" "${cands[@]}"
  # More items may follow a comma.
  [[ ${#COMPREPLY[@]} -gt 0 ]] && compopt -o nospace 2>/dev/null
  return 0
}

# Folders (kind -d) or files (-f) for the text after any "=".
_greenbench_path() {
  compopt -o filenames 2>/dev/null
  mapfile -t COMPREPLY < <(compgen "$1" -- "$2")
}

# The values of option opt for the word pre+cur; returns 1 when opt takes
# no value completed here.
_greenbench_value() {
  local opt=$1 pre=$2 cur=$3
  case $opt in
  --profile) _greenbench_reply "$pre$cur" "${pre}smoke" "${pre}study" ;;
  --energy) _greenbench_reply "$pre$cur" "${pre}auto" "${pre}on" "${pre}off" ;;
  --power-estimator) _greenbench_reply "$pre$cur" "${pre}paired" "${pre}study" ;;
  --languages) _greenbench_list "$pre" "$cur" c python node ;;
  --algorithms) _greenbench_list "$pre" "$cur" bubble insertion quick ;;
  --orders) _greenbench_list "$pre" "$cur" random sorted reversed nearly ;;
  --resume | --builddir) _greenbench_path -d "$cur" ;;
  --out) # report and pack write a file; run and the suite a folder
    if [[ $_gb_command == report || $_gb_command == pack ]]; then _greenbench_path -f "$cur"; else _greenbench_path -d "$cur"; fi ;;
  --junit | --chart | --summary | --python | --node | --state | --progress-log | --suite)
    _greenbench_path -f "$cur"
    ;;
  --sizes | --runs | --warmups | --target-ms | --cpus | --machine-label | --campaign-label | \
    --seed | --order-seed | --timeout-s | --resamples | --equivalence-margin | --carbon | \
    --carbon-intensity | --check-case | --timeout)
    COMPREPLY=()
    ;;
  *) return 1 ;;
  esac
  return 0
}

# Completes the current word among options (and values of the option before
# it, or after its "="); positional names the compgen kind of a bare word.
_greenbench_options() {
  local positional=$1
  shift
  local cur=${_gb_words[_gb_cword]} prev=""
  ((_gb_cword > 0)) && prev=${_gb_words[_gb_cword - 1]}
  if [[ $cur == --*=* ]]; then
    _greenbench_value "${cur%%=*}" "${cur%%=*}=" "${cur#*=}" || COMPREPLY=()
    return
  fi
  local o
  for o in "$@"; do
    if [[ $o == "$prev" ]] && _greenbench_value "$prev" "" "$cur"; then
      return
    fi
  done
  if [[ $cur == -* || -z $positional ]]; then
    _greenbench_reply "$cur" "$@"
  else
    _greenbench_path "$positional" "$cur"
  fi
}

_greenbench() {
  local _gb_words _gb_cword _gb_strip _gb_command
  _greenbench_words
  local i command=""
  for ((i = 1; i < _gb_cword; i++)); do
    [[ ${_gb_words[i]} != -* ]] && { command=${_gb_words[i]}; break; }
  done
  _gb_command=$command
  case $command in
  "")
    _greenbench_reply "${_gb_words[_gb_cword]}" check run report compare pack suite --help --version
    ;;
  check)
    _greenbench_options "" --cpus --python --node --json --version --help
    ;;
  run)
    _greenbench_options "" --profile --languages --algorithms --orders --sizes --runs \
      --warmups --target-ms --energy --cpus --machine-label --seed --order-seed --timeout-s \
      --python --node --out --resume --suite --dry-run --quiet --version --help
    ;;
  report)
    _greenbench_options -d --out --junit --chart --summary --no-datapackage --resamples \
      --seed --equivalence-margin --power-estimator --allow-partial --quiet --startup-fixed --carbon \
      --carbon-intensity --version --help
    ;;
  compare)
    _greenbench_options -d --out --campaign-label --resamples --seed --equivalence-margin \
      --allow-partial --version --help
    ;;
  pack)
    _greenbench_options -d --out --version --help
    ;;
  suite) # suite check FILE [options]
    if [[ " ${_gb_words[*]:1:_gb_cword-1} " == *" check "* ]]; then
      _greenbench_options -f --builddir --timeout --seed --version --help
    else
      _greenbench_reply "${_gb_words[_gb_cword]}" check --help
    fi
    ;;
  *) COMPREPLY=() ;;
  esac
}
complete -F _greenbench greenbench
