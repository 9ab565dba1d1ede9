#!/usr/bin/env bash
# Builds Kubernetes binaries of one pinned release and helm v3 from the Go module proxy,
# version-stamped, into a cache outside the repo. A second run finds the cached binaries and
# returns in well under a second.
#
# Helm builds in the same Go module as Kubernetes: both then compile one copy of the Kubernetes
# libraries (client-go, apimachinery, the API types) instead of one each, which saves several CPU
# minutes of a cold build. Go's version selection raises a few dependencies they share (such as
# golang.org/x/net) to what helm needs; the Kubernetes staging modules stay at this release.
#
# Usage: hack/build-kube-binaries.sh [SET]   builds what is missing of SET, prints the bin dir
#   SET = server (default): kube-apiserver, kube-controller-manager and helm
#         node:             kubelet, kube-scheduler, kube-proxy (a real node, see local-clusters.sh)
#         all:              both
# Env:   KUBEFED_CPP_CACHE (default ~/.cache/kubefed-cpp)
set -euo pipefail

KUBE_VERSION=1.33.13
# A helm release built against this Kubernetes minor's libraries (k8s.io/client-go v0.33).
HELM_VERSION=3.18.6
CACHE_ROOT=${KUBEFED_CPP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubefed-cpp}
KUBE_DIR="$CACHE_ROOT/k8s-$KUBE_VERSION-helm-$HELM_VERSION"
SERVER_TOOLS=(kube-apiserver kube-controller-manager helm)
NODE_TOOLS=(kubelet kube-scheduler kube-proxy)

export GOTOOLCHAIN=local CGO_ENABLED=0
# The Go compiler and linker collect garbage only when their heap nears 3 GiB instead of each
# time it doubles: most packages then compile without a collection (measured cold: the whole
# server and node sets in 830 instead of 955 CPU-seconds), at most about 3 GiB per compile (two
# run at once on two cores).
export GOGC=off GOMEMLIMIT=3GiB

log() { printf '[build-kube-binaries] %s\n' "$*" >&2; }

package_of() { # package_of TOOL: its Go main package
  if [[ $1 == helm ]]; then echo helm.sh/helm/v3/cmd/helm; else echo "k8s.io/kubernetes/cmd/$1"; fi
}

version_of() { # version_of TOOL: the release it is built from
  if [[ $1 == helm ]]; then echo "v$HELM_VERSION"; else echo "v$KUBE_VERSION"; fi
}

missing_kube_tools() { # missing_kube_tools TOOL...: the ones not built yet
  local tool
  for tool in "$@"; do [[ -x "$KUBE_DIR/bin/$tool" ]] || printf '%s\n' "$tool"; done
}

# Kubernetes pins its staging modules at v0.0.0 and maps them with replace directives that only
# apply in its own main module; a wrapper module must re-declare each of them at the published
# v0.<minor>.<patch> version. The list is read from the release's own go.mod.
write_wrapper_module() {
  local staging_version="0.${KUBE_VERSION#1.}" gomod staging module
  gomod=$(cd "$(mktemp -d)" && GOFLAGS= go mod download -json "k8s.io/kubernetes@v$KUBE_VERSION" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["GoMod"])')
  staging=$(awk '$1 ~ /^k8s\.io\// && $2 == "v0.0.0" {print $1}' "$gomod" | sort -u)
  {
    printf 'module local/kubefed-cpp-testenv\n\ngo 1.23.0\n\ngodebug default=go1.23\n\n'
    printf 'require (\n\tk8s.io/kubernetes v%s\n\thelm.sh/helm/v3 v%s\n)\n\nreplace (\n' \
      "$KUBE_VERSION" "$HELM_VERSION"
    for module in $staging; do printf '\t%s => %s v%s\n' "$module" "$module" "$staging_version"; done
    printf ')\n'
  } >"$KUBE_DIR/src/go.mod"
}

version_ldflags() {
  local minor pkg flags="-s -w"
  minor=$(cut -d. -f2 <<<"$KUBE_VERSION")
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    flags+=" -X $pkg.gitVersion=v$KUBE_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
    flags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
  done
  # A -X for a package a binary does not link is ignored, so one set of flags serves every tool.
  flags+=" -X helm.sh/helm/v3/internal/version.version=v$HELM_VERSION"
  printf '%s' "$flags"
}

build_kube() { # build_kube TOOL...
  local tools
  mapfile -t tools < <(missing_kube_tools "$@")
  ((${#tools[@]} > 0)) || return 0
  log "building ${tools[*]} (Kubernetes v$KUBE_VERSION, helm v$HELM_VERSION; first run: 5-25 min)"
  mkdir -p "$KUBE_DIR/src" "$KUBE_DIR/bin"
  # Two builds may run at once (CI builds the node set in the background): one writes the wrapper
  # module at a time.
  exec 9>"$KUBE_DIR/src.lock"
  flock 9
  mapfile -t tools < <(missing_kube_tools "$@")
  ((${#tools[@]} > 0)) || return 0
  write_wrapper_module
  local tool ldflags out
  ldflags=$(version_ldflags)
  out=$(mktemp -d "$KUBE_DIR/bin/.build.XXXXXX")
  (
    cd "$KUBE_DIR/src"
    export GOFLAGS=-mod=mod
    # Every tool's requirements, whichever set is built: both sets then compile against one module
    # graph and share what they compiled.
    go get $(for tool in "${SERVER_TOOLS[@]}" "${NODE_TOOLS[@]}"; do
      printf '%s@%s ' "$(package_of "$tool")" "$(version_of "$tool")"
    done)
    # One build for all of them: packages compile once, links run beside compiles. No DWARF: the
    # binaries are stripped (-s -w) anyway.
    go build -trimpath -gcflags=all=-dwarf=false -ldflags "$ldflags" -o "$out/" \
      $(for tool in "${tools[@]}"; do package_of "$tool"; done)
  ) || { rm -rf "$out" && return 1; }
  for tool in "${tools[@]}"; do mv "$out/$tool" "$KUBE_DIR/bin/$tool"; done
  rmdir "$out"
  for tool in "${tools[@]}"; do
    if [[ $tool == helm ]]; then
      "$KUBE_DIR/bin/helm" version --short >&2
    else
      "$KUBE_DIR/bin/$tool" --version >&2
    fi
  done
}

SET=${1:-server}
case $SET in
  server) TOOLS=("${SERVER_TOOLS[@]}") ;;
  node) TOOLS=("${NODE_TOOLS[@]}") ;;
  all) TOOLS=("${SERVER_TOOLS[@]}" "${NODE_TOOLS[@]}") ;;
  *)
    log "unknown set '$SET' (server, node or all)"
    exit 2
    ;;
esac
build_kube "${TOOLS[@]}"
# One directory holding every tool, for PATH.
mkdir -p "$CACHE_ROOT/bin"
for tool in "${TOOLS[@]}"; do ln -sf "$KUBE_DIR/bin/$tool" "$CACHE_ROOT/bin/$tool"; done
echo "$CACHE_ROOT/bin"
