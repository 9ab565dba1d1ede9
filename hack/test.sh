#!/usr/bin/env bash
# Runs every test from a fresh machine: installs system packages, builds (or finds cached) the
# Kubernetes binaries, runs the static checks (includes follow the layers, clang-format), then per
# preset builds the project and runs its tests:
#
#   asan  Clang 14, ASan + UBSan, -Werror: unit and end-to-end tests, the libFuzzer smoke runs,
#         and the node tests: the Helm chart with the image built from build/asan (the tests'
#         fixture builds and loads it) on local clusters with a real node
#   tsan  Clang 14, ThreadSanitizer, -Werror: the unit tests that start threads, the
#         integration tests
#   release  GCC 12, optimised, -Werror: the binaries the README's two demo commands run; its
#         "tests" are those commands, end to end: `hack/demo.sh` and `hack/demo.sh --helm`, each
#         checked (the workload in both members) and brought down
#   gcc   GCC 12, -Werror: GCC's warnings over every file (-fsyntax-only: nothing is built, so
#         it has no tests)
#
# Each preset builds only the tests it runs. The Kubernetes binaries the tests need
# (kube-apiserver, kube-controller-manager, helm; for the node tests kubelet, kube-scheduler and
# kube-proxy) build from source while the static checks run and the first preset builds. While
# one preset's tests run (they mostly wait on API servers), the next preset builds in the
# background at the lowest CPU priority. Each binary of cluster tests has its own local clusters
# (tests/integration/fixture), so they run side by side. clang-tidy runs over the non-test
# sources in the background while the first Clang preset's tests run. At the end a table shows
# where the time went, also when something failed.
#
# Usage: hack/test.sh [preset...]     (default: asan tsan release gcc)
set -euo pipefail
cd "$(dirname "$0")/.."

presets=("$@")
[[ ${#presets[@]} -gt 0 ]] || presets=(asan tsan release gcc)
# ctest -j: one slot per fixture's chain of cluster tests, the rest for unit tests.
CTEST_JOBS=${KF_CTEST_JOBS:-4}
# How long the staged-rollout node test checks that a failed run does not reach member2: the
# issue's 2 minutes when run by hand, shorter here.
export KF_ROLLOUT_HOLD_SECONDS=${KF_ROLLOUT_HOLD_SECONDS:-20}
LOG_DIR=$(mktemp -d /tmp/kubefed-cpp-test.XXXXXX)
T0=$SECONDS
TIMES=$LOG_DIR/times
failed=()

# timed NAME COMMAND...: runs the command, appends "NAME start seconds status" to the table.
timed() {
  local name=$1 start=$SECONDS status=0
  shift
  "$@" || status=$?
  printf '%s %d %d %d\n' "$name" $((start - T0)) $((SECONDS - start)) "$status" >>"$TIMES"
  return "$status"
}

print_table() {
  [[ -s $TIMES ]] || return 0
  {
    echo
    echo "=== where the time went (wall clock; a background build overlaps the tests beside it)"
    printf '%-28s %9s %9s  %s\n' phase 'start' took result
    while read -r name start took status; do
      printf '%-28s %6d:%02d %6d:%02d  %s\n' "$name" $((start / 60)) $((start % 60)) \
        $((took / 60)) $((took % 60)) "$([[ $status == 0 ]] && echo ok || echo "FAILED ($status)")"
    done <"$TIMES"
    printf '%-28s %9s %6d:%02d\n' total '' $(((SECONDS - T0) / 60)) $(((SECONDS - T0) % 60))
    local log
    for log in "$LOG_DIR"/*.ctest.log; do
      [[ -e $log ]] || continue
      printf '  %s: %s\n' "$(basename "$log" .ctest.log)" \
        "$(grep -h 'tests passed' "$log" || echo 'no summary (interrupted?)')"
    done
  } >&2
}
trap print_table EXIT

configure() { cmake --preset "$1" >/dev/null; }
# What a preset builds: everything it has, but for release only the demos' binaries.
build_targets() { [[ $1 != release ]] || echo --target controller-manager kubefedctl webhook; }
build() { cmake --build --preset "$1" -j "$(nproc)" $(build_targets "$1"); }
# Background builds log to a file (printed if they fail) and yield the CPU to the tests.
build_quietly() {
  nice -n 19 cmake --build --preset "$1" -j "$(nproc)" $(build_targets "$1") >"$LOG_DIR/$1.build.log" 2>&1
}
runs_node_tests() { [[ $1 == asan || $1 == dev || $1 == release ]]; }
has_tests() { [[ $1 != gcc ]]; }
background_build() { timed "$1:build(background)" build_quietly "$1"; }
# The Kubernetes binaries the test fixtures' clusters run (the server set; all, with the node set,
# when a preset runs the node tests: one Go build compiles what they share once), built in the
# background from the start, waited for before the first tests. Their directory goes to PATH.
start_test_binaries() {
  local set=server preset
  for preset in "${presets[@]}"; do runs_node_tests "$preset" && set=all; done
  timed setup:kubernetes-binaries hack/build-kube-binaries.sh "$set" \
    >"$LOG_DIR/kube-bin-dir" 2>"$LOG_DIR/kube-binaries.log" &
  test_binaries=$!
}
await_test_binaries() {
  [[ -n $test_binaries ]] || return 0
  if ! wait "$test_binaries"; then
    tail -n 50 "$LOG_DIR/kube-binaries.log" >&2
    echo "=== FAILED: building the Kubernetes binaries (log: $LOG_DIR/kube-binaries.log)" >&2
    exit 1
  fi
  test_binaries=
  PATH="$(cat "$LOG_DIR/kube-bin-dir"):$PATH"
  export PATH
}
# run_demo NAME [--helm]: the README's demo command, its run checked by the demo itself (the
# workload in both members, with their overrides), then its `down`, on run directories of its own
# so that a developer's running demo is left alone. Its output goes to a log; the lines showing
# what the members hold are printed, and the whole log when it failed.
run_demo() {
  local name=$1 status=0 run_dir=/dev/shm/kubefed-cpp-test-$1.$$
  shift
  KF_RUN_DIR=$run_dir hack/demo.sh "$@" >"$LOG_DIR/$name.log" 2>&1 || status=$?
  KF_RUN_DIR=$run_dir hack/demo.sh "$@" down >>"$LOG_DIR/$name.log" 2>&1 || { ((status != 0)) || status=1; }
  if ((status == 0)); then
    sed -n '/^=== member1 holds/,/^$/p' "$LOG_DIR/$name.log" | sed "s/^/[$name] /" >&2
  else
    sed "s/^/[$name] /" "$LOG_DIR/$name.log" >&2
    echo "=== $name FAILED (hack/demo.sh $*; log: $LOG_DIR/$name.log)" >&2
  fi
  return "$status"
}
# One after the other: each (re)configures and builds build/release, which two at once would race.
run_demos() {
  local status=0
  timed demo:process run_demo demo || status=1
  timed demo:helm run_demo demo-helm --helm || status=1
  return "$status"
}
run_tests() {
  [[ $1 != release ]] || { run_demos; return; }
  local status=0
  ctest --preset "$1" --timeout 900 -j "$CTEST_JOBS" 2>&1 | tee "$LOG_DIR/$1.ctest.log" || status=$?
  # CTest counts a skipped test as passed, and GoogleTest reports the tests of a suite whose
  # SetUpTestSuite failed as skipped: no test may be skipped here.
  if grep -E '^[[:space:]]*[0-9]+ - .*\((Skipped|Disabled|Not Run)\)' "$LOG_DIR/$1.ctest.log" >&2; then
    echo "=== preset $1: the tests above did not run" >&2
    status=1
  fi
  return "$status"
}

timed setup:packages hack/bootstrap.sh
start_test_binaries
# ccache (CMakePresets.json) keeps objects in ~/.cache/ccache; paths relative to the checkout let
# a fresh clone in another directory reuse them, and the sloppiness lets it cache files compiled
# with a precompiled header.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime

timed checks:layering hack/check-style.sh layering || failed+=(checks:layering)
timed checks:format hack/check-style.sh format || failed+=(checks:format)
for preset in "${presets[@]}"; do timed "$preset:configure" configure "$preset"; done

echo "=== preset ${presets[0]}: build" >&2
timed "${presets[0]}:build" build "${presets[0]}" || failed+=("${presets[0]}:build")
await_test_binaries
tidy=
for i in "${!presets[@]}"; do
  preset=${presets[i]}
  next=${presets[i + 1]:-}
  background=
  if [[ -n $next ]]; then
    background_build "$next" &
    background=$!
  fi
  # clang-tidy needs a Clang preset's compile commands and its built precompiled header.
  if [[ -z $tidy && $preset =~ ^(asan|tsan)$ && " ${failed[*]} " != *" $preset:build "* ]]; then
    timed checks:clang-tidy nice -n 19 hack/check-style.sh tidy "build/$preset" \
      >"$LOG_DIR/clang-tidy.log" 2>&1 &
    tidy=$!
  fi
  if has_tests "$preset" && [[ " ${failed[*]} " != *" $preset:build "* ]]; then
    echo "=== preset $preset: test" >&2
    timed "$preset:test" run_tests "$preset" || failed+=("$preset:test")
  fi
  if [[ -n $background ]]; then
    if ! wait "$background"; then
      failed+=("$next:build")
      echo "=== preset $next: build FAILED; its log:" >&2
      tail -n 100 "$LOG_DIR/$next.build.log" >&2
    fi
  fi
done

if [[ -n $tidy ]] && ! wait "$tidy"; then
  failed+=(checks:clang-tidy)
  echo "=== clang-tidy FAILED; its log:" >&2
  tail -n 100 "$LOG_DIR/clang-tidy.log" >&2
fi

if ((${#failed[@]} > 0)); then
  echo "=== FAILED: ${failed[*]} (logs in $LOG_DIR)" >&2
  exit 1
fi
echo "=== every preset passed: ${presets[*]}" >&2
