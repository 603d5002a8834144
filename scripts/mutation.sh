#!/usr/bin/env bash
# Mutation testing with mutmut: how many deliberate small changes of the rules do a ruleset's own tests catch?
#
#   scripts/mutation.sh [TARGET...]        TARGET: presja, levald, fimbulfrost, pwge or dice (default: all five)
#   scripts/mutation.sh --background ...   the same, detached; logs and scores in .mutation/
#   scripts/mutation.sh --again TARGET     the last run's survivors against the target's test files changed since that
#                                          run (MUTATION_AGAIN_ALL=1: all its test_*.py but the slow ones)
#   TARGET:MODULE (presja:rules, dice:expression) mutates one module only
#   MUTATION_SAMPLE=N [MUTATION_SEED=S] with TARGET:MODULE runs a seeded random sample of N of its mutants
#   (scripts/mutation_sample.py); the score line then gives the sample's standard error
#   MUTATION_TESTS='["tests/…", …]' other tests; MUTATION_NICE=N niceness (default 19); MUTMUT_CHILDREN (default 2)
#
# Tests marked `slow` or `mutation_slow` are left out of every run (pytest -m 'not slow and not mutation_slow'):
# mutmut runs, for each mutant, every selected test that reaches the mutated function, and a State's functions are
# reached by nearly every test, so one whole simulation or exact-odds walk in the selection is paid by nearly every
# mutant (presja: its kernel-against-reference tests, 100 s a pass; its compact model's pinned fractions, 15 s, and
# the kernel against them, 8 s; its play-to-the-end simulations, 4 s; a mutant that lengthens a conflict then costs
# up to mutmut's timeout, 30 times the selection). The score is the score by the fast rule tests: a lower bound.
# Module-level memos must be cleared before each test (tests/rulesets/presja/conftest.py): mutmut forks each mutant
# after a pass over the tests, and a memo that pass filled hides every mutant of the code that fills it.
#
# Each target runs in its own copy of the work tree (.mutation/TARGET/), mutating the ruleset's rules.py and
# state.py (or dice/) and running only that target's own tests: goldens, harness and other rulesets' tests are left
# out, so a mutant counts as killed only when a test of that ruleset fails. The score is killed / (all mutants that
# ran), printed per target and appended to .mutation/scores.tsv. Needs mutmut (pip install -e '.[mutation]').
set -euo pipefail
# A long run yields the machine to everyone else (nice 19); MUTATION_NICE=N sets another niceness (0: as started).
NICENESS=${MUTATION_NICE:-19}
[[ "$(nice)" -ge "$NICENESS" ]] || exec nice -n "$(( NICENESS - $(nice) ))" "$0" "$@"
cd "$(dirname "$0")/.."
ROOT=$(pwd)
PY=${PYTHON:-$ROOT/.venv/bin/python}
AGAIN=0
if [[ "${1:-}" == "--background" ]]; then
  shift
  mkdir -p .mutation
  nohup "$0" "$@" > .mutation/run.log 2>&1 &
  echo "mutation testing runs in the background (pid $!): tail -f .mutation/run.log; scores in .mutation/scores.tsv"
  exit 0
fi
if [[ "${1:-}" == "--again" ]]; then AGAIN=1; shift; fi
TARGETS=("$@")
[[ ${#TARGETS[@]} -gt 0 ]] || TARGETS=(presja levald fimbulfrost pwge dice)
"$PY" -c "import mutmut" 2>/dev/null || { echo "mutmut is not installed: $PY -m pip install -e '.[mutation]'"; exit 2; }
mkdir -p .mutation
for spec in "${TARGETS[@]}"; do
  target=${spec%%:*}; module=${spec#*:}; [[ "$module" != "$spec" ]] || module=""
  case "$target" in
    dice)
      if [[ -n "$module" ]]; then paths="[\"src/konflikt/dice/$module.py\"]"; else paths='["src/konflikt/dice/*"]'; fi
      tests='["tests/core/test_dice.py", "tests/core/test_dice_expression.py", "tests/core/test_faces.py", "tests/cli/test_dice_cli.py", "tests/dice/"]' ;;
    presja|levald|fimbulfrost|pwge)
      if [[ -n "$module" ]]; then paths="[\"src/konflikt/rulesets/$target/$module.py\"]"
      else paths="[\"src/konflikt/rulesets/$target/rules.py\", \"src/konflikt/rulesets/$target/state.py\"]"; fi
      tests="[\"tests/rulesets/$target/\"]" ;;
    *) echo "unknown target '$target' (presja, levald, fimbulfrost, pwge, dice; optionally TARGET:MODULE)"; exit 2 ;;
  esac
  [[ -z "${MUTATION_TESTS:-}" ]] || tests=$MUTATION_TESTS
  work=.mutation/${spec/:/-}
  if (( AGAIN )); then
    # The last run's survivors against its target's test files changed since that run, each mutant switched on in the
    # mutants' copy as mutmut does (scripts/mutation_again.py). The code under mutation must not have changed since,
    # so the killed stay killed; a survivor that a new test fails becomes killed.
    [[ -f "$work/results.txt" ]] || { echo "no earlier run of $spec in $work: run it without --again first"; exit 2; }
    git ls-files -z --cached --others --exclude-standard tests | xargs -0 cp -a --parents -t "$work/mutants"/
    if [[ "$target" == dice ]]; then glob=tests/dice; else glob=tests/rulesets/$target; fi
    # MUTATION_AGAIN_ALL=1: against all the target's test files (test_*.py, without the slow ones), e.g. after a
    # conftest changed how the first run's tests ran
    if [[ -z "${MUTATION_AGAIN_ALL:-}" ]]; then  # copied with their times (cp -a): newer than the run's results
      mapfile -t news < <(cd "$work/mutants" && find "$glob" -maxdepth 1 -name 'test_*.py' -newer "../results.txt" | sort)
    else
      mapfile -t news < <(cd "$work/mutants" && ls "$glob"/test_*.py 2>/dev/null)
    fi
    echo "== $spec: again, the survivors against ${news[*]:-no new tests}"
    began=$(date +%s)
    [[ ${#news[@]} -eq 0 ]] || "$PY" scripts/mutation_again.py "$work" "${news[@]}"
    "$PY" scripts/mutation_score.py "$work/results.txt" "$spec" "$(( ($(date +%s) - began + 30) / 60 ))"
    continue
  else
    rm -rf "$work" && mkdir -p "$work"
    git ls-files -z | xargs -0 cp -a --parents -t "$work"/
    cat >> "$work/pyproject.toml" <<TOML

[tool.mutmut]
source_paths = ["src"]
also_copy = ["examples", "docs"]
only_mutate = $paths
pytest_add_cli_args_test_selection = $tests
pytest_add_cli_args = ["-p", "no:xdist", "-p", "no:cacheprovider", "-m", "not slow and not mutation_slow"]
TOML
    echo "== $spec: mutating $paths against $tests"
  fi
  names=()
  if [[ -n "${MUTATION_SAMPLE:-}" ]]; then
    [[ -n "$module" ]] || { echo "MUTATION_SAMPLE needs TARGET:MODULE"; exit 2; }
    source=$(echo "$paths" | tr -d '[]"')
    mapfile -t names < <(cd "$work" && "$PY" "$ROOT/scripts/mutation_sample.py" "$source" "$MUTATION_SAMPLE" "${MUTATION_SEED:-1}")
    echo "   a sample of ${#names[@]} mutants (seed ${MUTATION_SEED:-1})"
  fi
  began=$(date +%s)
  (cd "$work" && "$PY" -m mutmut run --max-children "${MUTMUT_CHILDREN:-2}" "${names[@]}" > run.log 2>&1 || true)
  (cd "$work" && "$PY" -m mutmut results --all true > results.txt 2>&1 || true)
  "$PY" scripts/mutation_score.py "$work/results.txt" "$spec" "$(( ($(date +%s) - began + 30) / 60 ))"
done
