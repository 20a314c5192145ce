# The budgets of scripts/bench.sh, which sources this file. A budget with a peer or a
# floor measured in the same run (ajv-cli, a cgo hello world) is a ratio to it, so that the
# machine's speed falls on both sides; one without is the figure itself.
#
# A smoke run (BENCH_SMOKE=1: scripts/test.sh runs a small N beside builds and tests)
# judges nothing. Its figures say the script works; what was over budget is printed for
# information, and only a full run on a quiet machine says met or MISSED.
missed=()

# verdict VALUE BUDGET: "met" when VALUE is at most BUDGET, else "MISSED"; in a smoke run
# "within" or "over".
verdict() {
  local ok=1
  awk -v v="$1" -v b="$2" 'BEGIN { exit !(v <= b) }' || ok=0
  if [[ ${BENCH_SMOKE:-} == 1 ]]; then
    ((ok)) && echo within || echo over
  else
    ((ok)) && echo met || echo MISSED
  fi
}

# at_least VALUE BUDGET: verdict for a figure that must reach BUDGET (a ratio to a peer).
at_least() { verdict "-$1" "-$2"; }

# note VERDICT WHAT: WHAT goes into the summary unless VERDICT is met (or within).
note() {
  case $1 in met | within) ;; *) missed+=("$2") ;; esac
}

# summary ALL: the budgets' verdicts, ALL naming them when every one is met.
summary() {
  local m
  if [[ ${BENCH_SMOKE:-} == 1 ]]; then
    echo "== budgets: not judged (a smoke run beside other work; scripts/bench.sh on a quiet machine judges them)"
    for m in "${missed[@]}"; do echo "over in this run, for information: $m"; done
    return
  fi
  echo "== budgets"
  if ((${#missed[@]} == 0)); then
    echo "all met: $1"
  else
    for m in "${missed[@]}"; do echo "MISSED $m"; done
  fi
}
