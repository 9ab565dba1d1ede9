#!/usr/bin/env bash
# Builds KubeFed v0.8.1's own kubefedctl and controller-manager from the Go module proxy, into a
# cache outside the repo keyed by the version, and prints their bin dir. A second run finds them
# and returns at once. They are the reference our outputs are compared with
# (hack/kubefed-compare.sh) and the controller manager ours is measured against.
#
# KubeFed's go.mod replaces github.com/googleapis/gnostic, and a replace applies only in the main
# module, so `go install sigs.k8s.io/kubefed/cmd/...@v0.8.1` refuses to build it: a small wrapper
# module requires KubeFed and repeats that replace. KubeFed's own packages stay at v0.8.1; Go's
# version selection keeps every other module at the version KubeFed's go.mod asks for, except:
#
#   github.com/modern-go/reflect2 v1.0.1 -> v1.0.2
#     v1.0.1 (via json-iterator v1.1.11, which the Kubernetes 0.21 libraries use for JSON)
#     reaches into the Go runtime's map iterator, whose layout changed in Go 1.18: every map it
#     encodes crashes with a nil pointer dereference in the runtime. v1.0.2 follows the new
#     layout and nothing else.
#
# The binaries are built with the Go on PATH (GOTOOLCHAIN=local): no toolchain is downloaded.
# They are stamped `v0.8.1` (kubefedctl version, controller-manager --version); the commit is
# left "unknown" (the module proxy does not say it).
#
# Usage: hack/build-kubefed.sh    builds what is missing, prints the bin dir (the last line)
# Env:   KUBEFED_CPP_CACHE (default ~/.cache/kubefed-cpp), shared with build-kube-binaries.sh
set -euo pipefail

KUBEFED_VERSION=0.8.1
RAISED=("github.com/modern-go/reflect2@v1.0.2")
TOOLS=(kubefedctl controller-manager)
CACHE_ROOT=${KUBEFED_CPP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubefed-cpp}
KUBEFED_DIR="$CACHE_ROOT/kubefed-v$KUBEFED_VERSION"

export GOTOOLCHAIN=local CGO_ENABLED=0
# As in build-kube-binaries.sh: the compiler collects garbage only near 3 GiB, fewer collections.
export GOGC=off GOMEMLIMIT=3GiB

log() { printf '[build-kubefed] %s\n' "$*" >&2; }

all_built() {
  local tool
  for tool in "${TOOLS[@]}"; do [[ -x "$KUBEFED_DIR/bin/$tool" ]] || return 1; done
}

write_wrapper_module() {
  {
    printf 'module local/kubefed-cpp-kubefed-reference\n\ngo 1.16\n\n'
    printf 'require sigs.k8s.io/kubefed v%s\n\n' "$KUBEFED_VERSION"
    # KubeFed's own replace, which does not apply outside its module.
    printf 'replace github.com/googleapis/gnostic => github.com/googleapis/gnostic v0.4.1\n'
  } >"$KUBEFED_DIR/src/go.mod"
  rm -f "$KUBEFED_DIR/src/go.sum"
}

version_ldflags() {
  local pkg=sigs.k8s.io/kubefed/pkg/version
  printf '%s' "-s -w -X $pkg.version=v$KUBEFED_VERSION -X $pkg.gitTreeState=clean" \
    " -X $pkg.buildDate=1970-01-01T00:00:00Z"
}

build() {
  log "building ${TOOLS[*]} of KubeFed v$KUBEFED_VERSION (first run: about 5 min)"
  mkdir -p "$KUBEFED_DIR/src" "$KUBEFED_DIR/bin"
  exec 9>"$KUBEFED_DIR/src.lock"
  flock 9
  all_built && return 0
  write_wrapper_module
  local out
  out=$(mktemp -d "$KUBEFED_DIR/bin/.build.XXXXXX")
  (
    cd "$KUBEFED_DIR/src"
    export GOFLAGS=-mod=mod
    go get "${RAISED[@]}"
    go build -trimpath -gcflags=all=-dwarf=false -ldflags "$(version_ldflags)" -o "$out/" \
      $(for tool in "${TOOLS[@]}"; do printf 'sigs.k8s.io/kubefed/cmd/%s ' "$tool"; done)
    # What was built against: KubeFed at its version, the raised modules at theirs.
    go list -m sigs.k8s.io/kubefed "${RAISED[@]%@*}" >&2
  ) || { rm -rf "$out" && return 1; }
  local tool
  for tool in "${TOOLS[@]}"; do mv "$out/$tool" "$KUBEFED_DIR/bin/$tool"; done
  rmdir "$out"
  "$KUBEFED_DIR/bin/kubefedctl" version >&2
}

all_built || build
echo "$KUBEFED_DIR/bin"
