#!/usr/bin/env bash
# Mutation testing with mutmut: how many deliberate small changes of the rules do a ruleset's own tests catch?
#
#   scripts/mutation.sh [TARGET...]        TARGET: presja, levald, fimbulfrost, pwge or dice (default: all five)
#   scripts/mutation.sh --background ...   the same, detached; logs and scores in .mutation/
#
# Each target runs in its own copy of the work tree (.mutation/TARGET/), mutating the ruleset's rules.py and
# state.py (or dice/) and running only that target's own tests: goldens, harness and other rulesets' tests are left
# out, so a mutant counts as killed only when a test of that ruleset fails. The score is killed / (all mutants that
# ran), printed per target and appended to .mutation/scores.tsv. Needs mutmut (pip install mutmut).
set -euo pipefail
[[ "$(nice)" -ge 19 ]] || exec nice -n 19 "$0" "$@"   # a long run yields the machine to everyone else
cd "$(dirname "$0")/.."
ROOT=$(pwd)
PY=${PYTHON:-$ROOT/.venv/bin/python}
if [[ "${1:-}" == "--background" ]]; then
  shift
  mkdir -p .mutation
  nohup "$0" "$@" > .mutation/run.log 2>&1 &
  echo "mutation testing runs in the background (pid $!): tail -f .mutation/run.log; scores in .mutation/scores.tsv"
  exit 0
fi
TARGETS=("$@")
[[ ${#TARGETS[@]} -gt 0 ]] || TARGETS=(presja levald fimbulfrost pwge dice)
"$PY" -c "import mutmut" 2>/dev/null || { echo "mutmut is not installed: $PY -m pip install mutmut"; exit 2; }
mkdir -p .mutation
for spec in "${TARGETS[@]}"; do
  target=${spec%%:*}; module=${spec#*:}; [[ "$module" != "$spec" ]] || module=""
  case "$target" in
    dice)
      if [[ -n "$module" ]]; then paths="[\"src/konflikt/dice/$module.py\"]"; else paths='["src/konflikt/dice/*"]'; fi
      tests='["tests/core/test_dice.py", "tests/core/test_dice_expression.py", "tests/cli/test_dice_cli.py", "tests/dice/"]' ;;
    presja|levald|fimbulfrost|pwge)
      if [[ -n "$module" ]]; then paths="[\"src/konflikt/rulesets/$target/$module.py\"]"
      else paths="[\"src/konflikt/rulesets/$target/rules.py\", \"src/konflikt/rulesets/$target/state.py\"]"; fi
      tests="[\"tests/rulesets/$target/\"]" ;;
    *) echo "unknown target '$target' (presja, levald, fimbulfrost, pwge, dice; optionally TARGET:MODULE)"; exit 2 ;;
  esac
  [[ -z "${MUTATION_TESTS:-}" ]] || tests=$MUTATION_TESTS
  work=.mutation/${spec/:/-}
  rm -rf "$work" && mkdir -p "$work"
  git ls-files -z | xargs -0 cp -a --parents -t "$work"/
  cat >> "$work/pyproject.toml" <<TOML

[tool.mutmut]
source_paths = ["src"]
only_mutate = $paths
pytest_add_cli_args_test_selection = $tests
pytest_add_cli_args = ["-p", "no:xdist", "-p", "no:cacheprovider"]
TOML
  echo "== $target: mutating $paths against $tests"
  (cd "$work" && "$PY" -m mutmut run --max-children "${MUTMUT_CHILDREN:-2}" > run.log 2>&1 || true)
  (cd "$work" && "$PY" -m mutmut results --all true > results.txt 2>&1 || true)
  "$PY" - "$work/results.txt" "$target" <<'PY'
import collections, sys, time
counts = collections.Counter(line.rsplit(":", 1)[1].strip() for line in open(sys.argv[1]) if ":" in line)
ran = counts["killed"] + counts["survived"] + counts["timeout"] + counts["suspicious"]
score = (counts["killed"] + counts["timeout"]) / ran if ran else 0.0
print(f"{sys.argv[2]}: {score:.1%} killed ({dict(counts)})")
with open(".mutation/scores.tsv", "a") as out:
    out.write(f"{time.strftime('%Y-%m-%d')}\t{sys.argv[2]}\t{score:.4f}\t{dict(counts)}\n")
PY
done
