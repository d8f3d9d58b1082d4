# bash completion for greenbench-suite(1): its own options (not Criterion's),
# the values of --profile, and --select's KEY= terms with their values (the
# lists item by item after each comma). It shares its helpers with the
# completion of greenbench, found beside this file (as greenbench.bash, or
# greenbench where bash-completion loads it by command name). The test
# docs/completion keeps the options in step with greenbench-suite --help.

if [[ $(type -t _greenbench_words) != function ]]; then
  for _gb_file in "${BASH_SOURCE[0]%/*}/greenbench.bash" "${BASH_SOURCE[0]%/*}/greenbench"; do
    # shellcheck source=/dev/null
    [[ -r $_gb_file ]] && { . "$_gb_file"; break; }
  done
  unset _gb_file
fi

# A --select term: KEY= first, then KEY's values.
_greenbench_suite_select() {
  local cur=$1
  if [[ $cur != *=* ]]; then
    _greenbench_reply "$cur" language= algorithm= order= size=
    compopt -o nospace 2>/dev/null
    return 0
  fi
  local key=${cur%%=*}
  case $key in
  language) _greenbench_list "$key=" "${cur#*=}" c python node ;;
  algorithm) _greenbench_list "$key=" "${cur#*=}" bubble insertion quick ;;
  order) _greenbench_list "$key=" "${cur#*=}" random sorted reversed nearly ;;
  *) COMPREPLY=() ;;
  esac
}

_greenbench_suite() {
  local _gb_words _gb_cword _gb_strip _gb_command=suite
  _greenbench_words
  local cur=${_gb_words[_gb_cword]} prev=""
  ((_gb_cword > 0)) && prev=${_gb_words[_gb_cword - 1]}
  if [[ $prev == --select ]]; then
    _greenbench_suite_select "$cur"
    return
  fi
  _greenbench_options "" --profile --select --out --junit --machine-label --list-cases \
    --campaign --state --progress-log --check-case --list-tests --suite --version --help
}
complete -F _greenbench_suite greenbench-suite
