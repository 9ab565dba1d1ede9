#!/usr/bin/env bash
# The static checks of the test command:
#   layering  includes follow DESIGN.md section 2 (hack/check-layering.py)
#   format    every C++ file is formatted by clang-format-14 with the repository's .clang-format
#   tidy      clang-tidy-14 with only the WarningsAsErrors checks of .clang-tidy (the gate: the
#             broad families would cost 2.5 times the time for warnings nobody reads in a CI log)
#             over the non-test sources (the unity files of BUILD_DIR's compile_commands.json, so
#             each header is parsed once per sixteen sources, with the precompiled header)
#   tidy-report  the same with every check family of .clang-tidy, its warnings printed to read
#
# Usage: hack/check-style.sh layering|format
#        hack/check-style.sh tidy|tidy-report BUILD_DIR  (BUILD_DIR built: unity files and PCH)
set -euo pipefail
cd "$(dirname "$0")/.."

cpp_files() { git ls-files --cached --others --exclude-standard -- '*.h' '*.cc'; }

case ${1:-} in
  layering)
    hack/check-layering.py
    ;;
  format)
    # --Werror turns "would be reformatted" into a failure naming the file and line.
    cpp_files | xargs -r clang-format-14 --dry-run --Werror
    ;;
  tidy | tidy-report)
    build=${2:?usage: $0 $1 BUILD_DIR}
    checks=
    if [[ $1 == tidy ]]; then
      # The WarningsAsErrors list of .clang-tidy, as a --checks value.
      checks="--checks=-*,$(sed -n '/^WarningsAsErrors:/,/^[A-Z]/{/^  /p}' .clang-tidy | tr -d ' \n')"
    fi
    mapfile -t units < <(python3 - "$build/compile_commands.json" <<'PY'
import json, sys
for entry in json.load(open(sys.argv[1])):
    f = entry["file"]
    # Library and binary sources only: tests, benchmarks and the PCH's own unit are left out.
    if "/Unity/" in f and not any(p in f for p in ("/tests/", "/bench/", "/CMakeFiles/kf_pch")):
        print(f)
PY
    )
    [[ ${#units[@]} -gt 0 ]] || { echo "no unity files in $build/compile_commands.json" >&2; exit 1; }
    # One clang-tidy per core; its output is kept per unit and printed when it found something.
    log=$(mktemp -d)
    trap 'rm -rf "$log"' EXIT
    printf '%s\n' "${units[@]}" | xargs -P "$(nproc)" -I{} sh -c \
      'clang-tidy-14 -p "$1" --quiet ${4:+"$4"} "$2" >"$3/$(echo "$2" | md5sum | cut -c1-12).log" 2>&1 || echo "$2" >>"$3/failed"' \
      _ "$build" {} "$log" "$checks"
    cat "$log"/*.log | grep -E 'warning:|error:' | sort -u || true
    if [[ -s $log/failed ]]; then
      echo "clang-tidy failed (WarningsAsErrors) in:" >&2
      cat "$log/failed" >&2
      exit 1
    fi
    echo "clang-tidy: ${#units[@]} units clean" >&2
    ;;
  *)
    echo "usage: $0 layering|format|tidy BUILD_DIR|tidy-report BUILD_DIR" >&2
    exit 2
    ;;
esac
