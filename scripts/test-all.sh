#!/usr/bin/env bash
# `npm test`: every tier, in order of speed. A tier that fails does not stop the
# others; the last line is the total across tiers: "N passed, N failed, N skipped".
set -uo pipefail
cd "$(dirname "$0")/.."
export NEXT_TELEMETRY_DISABLED=1
# Two test files (and two pytest runs) run at once, each with servers whose jobs believe
# they own both CPUs; torch's OpenMP threads then spin-wait against each other. Measured
# with two 2-thread torch processes on 2 CPUs: 10,750 iterations in 12 s together with the
# default wait policy, 34,300 with PASSIVE (one alone: 33,450). Alone, PASSIVE is slower
# (18,700), so the product's jobs keep the default: the worker never books more CPUs than
# a computer has, which two test servers on one machine do.
export OMP_WAIT_POLICY=PASSIVE
export TRAINYARD_TEST_ENVS_DIR="${TRAINYARD_TEST_ENVS_DIR:-$PWD/.tmp/envs}"
results=.tmp/test-results
rm -rf "$results" && mkdir -p "$results"
# Every temporary folder a tier makes (test data homes, sshd configs, pytest's tmp_path,
# scratch exports) lives under one folder that is emptied after each tier, so repeated
# runs cannot fill the disk with what a killed or failed test left behind.
TMPDIR="$(mktemp -d "${TMPDIR:-/tmp}/trainyard-tests-XXXXXX")" && export TMPDIR
trap 'rm -rf "$TMPDIR" "${environments_tmp:-}"' EXIT

bash scripts/check-prereqs.sh || exit 1

declare -a tier_names=() tier_status=()
run_tier() { # name, command...
  local name=$1; shift
  echo; echo "=== $name ==="
  local started=$SECONDS
  "$@"
  local code=$?
  find "$TMPDIR" -mindepth 1 -maxdepth 1 -exec rm -rf {} + 2>/dev/null
  tier_names+=("$name"); tier_status+=("$code")
  echo "=== $name: exit $code in $((SECONDS - started)) s ==="
}

# tsc and ESLint each use one CPU: run them side by side, each tier's output printed whole.
run_tier_beside() { # name, command... (in the background; finish_tier_beside records it)
  local name=$1; shift
  beside_name=$name beside_started=$SECONDS
  "$@" >"$results/$name.log" 2>&1 &
  beside_pid=$!
}
finish_tier_beside() {
  wait "$beside_pid"
  local code=$?
  echo; echo "=== $beside_name (beside the tier above) ==="
  cat "$results/$beside_name.log"
  tier_names+=("$beside_name"); tier_status+=("$code")
  echo "=== $beside_name: exit $code in $((SECONDS - beside_started)) s ==="
}
# Every recipe environment, test venv and test model is built (or found) beside the tiers
# that need none, as one background step; the pytest tier then finds them built (measured
# from nothing on 2 CPUs: typecheck, lint and unit 124 s, the environments 112 s, one after
# the other 236 s; side by side 186 s). A failed build is the pytest tier's to report: it
# builds what is missing again and says why.
# Its own temporary folder: pip unpacks there, and each tier's end empties $TMPDIR.
environments_tmp="$(mktemp -d "$(dirname "$TMPDIR")/trainyard-environments-XXXXXX")"
TMPDIR="$environments_tmp" python3 training/tools/run_pytests.py --build-only >"$results/environments.log" 2>&1 &
environments_pid=$!

run_tier_beside typecheck npx tsc --noEmit
run_tier lint npx eslint .
finish_tier_beside
run_tier worker-bundle node scripts/build-worker.mjs
run_tier unit npx vitest run --project unit --reporter=default --reporter=json --outputFile.json="$results/unit.json"
# pytest first among the slow tiers, once the environments built beside the tiers above
# (in TRAINYARD_TEST_ENVS_DIR) are ready; the integration and browser tests share them.
wait "$environments_pid"
rm -rf "$environments_tmp"
echo; echo "=== environments (built beside the tiers above) ==="; cat "$results/environments.log"
run_tier pytest python3 training/tools/run_pytests.py -q --junitxml="$PWD/$results/pytest.xml"
# The README's first run on a copy of this tree without build outputs: `npm start`, then
# `npx trainyard train` on penguins to a verified export (shares node_modules and the
# recipe environments pytest just built; about 3 minutes, most of it the web build).
run_tier fresh-clone node tests/fresh-clone/fresh-clone.mjs --junit "$PWD/$results/fresh-clone.xml"
run_tier web-build node bin/trainyard.mjs build
run_tier integration npx vitest run --project integration --maxWorkers=2 --reporter=default --reporter=json --outputFile.json="$results/integration.json"
TRAINYARD_E2E_REPORT="$PWD/$results/e2e.json" run_tier e2e npx playwright test

node scripts/test-totals.mjs "$results" "${tier_names[*]}" "${tier_status[*]}"
