#!/usr/bin/env bash
# Longer libFuzzer runs of every target (or the named ones), one after the other at the lowest
# CPU priority: SECONDS each (default 300). New inputs go to a scratch directory; the seeds in
# tests/fuzz/corpus stay untouched. A crash leaves its input in build/asan/tests/fuzz/ (crash-*,
# leak-*, timeout-*) and fails the run; add it to the target's corpus once it is fixed, so every
# smoke run in CI replays it. Prints a Markdown table: target, seconds, inputs run, result.
#
# Usage: hack/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:-300}
shift || true
declare -A CORPUS=(
  [json_decode_fuzz]=json [api_types_fuzz]=api [admission_review_fuzz]=admission
  [kubeconfig_fuzz]=kubeconfig [overrides_fuzz]=overrides [watch_stream_fuzz]=watch
  [resource_yaml_fuzz]=resources [watch_consume_fuzz]=watch_consume [list_decoder_fuzz]=list)
TARGETS=("$@")
[[ ${#TARGETS[@]} -gt 0 ]] || TARGETS=(json_decode_fuzz api_types_fuzz admission_review_fuzz
  kubeconfig_fuzz overrides_fuzz watch_stream_fuzz resource_yaml_fuzz watch_consume_fuzz
  list_decoder_fuzz)

export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=true
cmake --preset asan >/dev/null
nice -n 19 cmake --build --preset asan --target "${TARGETS[@]}" | tail -n 1
OUT=build/asan/tests/fuzz
SCRATCH=$(mktemp -d /tmp/kubefed-cpp-fuzz.XXXXXX)
trap 'rm -rf "$SCRATCH"' EXIT

rows=()
failed=0
for target in "${TARGETS[@]}"; do
  corpus=${CORPUS[$target]:?unknown target $target}
  mkdir -p "$SCRATCH/$corpus"
  log=$SCRATCH/$target.log
  result=pass
  nice -n 19 "$OUT/$target" -max_total_time="$SECONDS_EACH" -max_len=4096 -timeout=25 \
    -artifact_prefix="$OUT/" -print_final_stats=1 "$SCRATCH/$corpus" "tests/fuzz/corpus/$corpus" \
    >"$log" 2>&1 || { result="FAIL (see $OUT/$target.log)"; failed=1; cp "$log" "$OUT/$target.log"; }
  runs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log")
  rows+=("| $target | $SECONDS_EACH | ${runs:-?} | $result |")
  echo "$target: ${runs:-?} inputs, $result" >&2
done
echo
echo "$(date +%F), $(nproc) cores, libFuzzer with ASan + UBSan (build/asan)"
echo
echo "| target | seconds | inputs run | result |"
echo "|---|---|---|---|"
printf '%s\n' "${rows[@]}"
exit "$failed"
