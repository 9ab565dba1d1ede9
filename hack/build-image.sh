#!/usr/bin/env bash
# Builds the kubefed-cpp container image without a registry or a Docker engine: Debian's buildah,
# FROM scratch, holding only /hyperfed/controller-manager, /hyperfed/webhook and
# /hyperfed/kubefedctl (whichever of them the build has; controller-manager and kubefedctl are
# required; debug information stripped), exactly the shared libraries they load (from ldd), the
# CA certificates and a passwd entry for uid 1001, which it runs as. Writes an OCI archive and,
# when a local node runs (KF_WITH_NODE=1 hack/local-clusters.sh up, same KF_RUN_DIR), imports it
# into the node's containerd, so that `helm install kubefed charts/kubefed` runs it as it is: the
# chart's default image values name exactly this image.
#
# Usage: hack/build-image.sh [BUILD_DIR]   (default: build/release; CI gives build/dev)
#        the LAST line on stdout is the archive's path; everything else goes to stderr
# Env:   KF_IMAGE_ARCHIVE  where to write the archive (default BUILD_DIR/image/kubefed.tar)
#        KF_RUN_DIR        the local clusters to load it into (default as local-clusters.sh)
#        KF_IMAGE_LOAD=0   do not load it into a running node
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$SCRIPT_DIR/.." && pwd)
# shellcheck source=hack/lib/oci.sh
. "$REPO_ROOT/hack/lib/oci.sh"

# The chart's default image (charts/kubefed/values.yaml: repository/image:tag); a test checks
# that both say the same.
IMAGE=localhost/kubefed-cpp/kubefed:canary
BINARIES=(controller-manager webhook kubefedctl)
REQUIRED=(controller-manager kubefedctl)
CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt

log() { printf '[build-image] %s\n' "$*" >&2; }
die() {
  log "error: $*"
  exit 1
}

BUILD_DIR=${1:-$REPO_ROOT/build/release}
[[ -d $BUILD_DIR ]] || die "no build directory $BUILD_DIR (cmake --preset release && cmake --build --preset release)"
BUILD_DIR=$(cd "$BUILD_DIR" && pwd)
ARCHIVE=${KF_IMAGE_ARCHIVE:-$BUILD_DIR/image/kubefed.tar}
command -v buildah >/dev/null || die "buildah not found (hack/bootstrap.sh installs it)"
[[ -s $CA_BUNDLE ]] || die "no CA certificates at $CA_BUNDLE (apt-get install ca-certificates)"

start=$SECONDS
mkdir -p "$(dirname "$ARCHIVE")"
WORK=$(mktemp -d "$(dirname "$ARCHIVE")/build.XXXXXX")
trap 'oci_cleanup "$WORK/storage"; rm -rf "$WORK"' EXIT
ROOTFS=$WORK/rootfs
mkdir -p "$ROOTFS/hyperfed" "$ROOTFS/etc/ssl/certs" "$ROOTFS/tmp"
chmod 1777 "$ROOTFS/tmp"

# copy_with_libraries BINARY: the binary to /hyperfed and every library ldd resolves for it (and
# the dynamic loader) at the same path as here, symlinks resolved.
copy_with_libraries() {
  local binary=$1 library
  ! ldd "$binary" | grep 'not found' >&2 || die "$binary needs libraries this machine lacks"
  # debug information stays in the build (the symbols stay too, for backtraces)
  strip --strip-debug -o "$ROOTFS/hyperfed/$(basename "$binary")" "$binary"
  while read -r library; do
    [[ -e $ROOTFS$library ]] && continue
    mkdir -p "$ROOTFS$(dirname "$library")"
    cp -L "$library" "$ROOTFS$library"
  done < <(ldd "$binary" | awk '
    $2 == "=>" && $3 ~ /^\// {print $3}
    $1 ~ /^\// {print $1}')
}

included=()
for name in "${BINARIES[@]}"; do
  binary=$BUILD_DIR/cmd/$name/$name
  if [[ ! -x $binary ]]; then
    [[ " ${REQUIRED[*]} " != *" $name "* ]] || die "$binary is missing; build it first"
    log "no $name in $BUILD_DIR: the image is built without it"
    continue
  fi
  copy_with_libraries "$binary"
  included+=("$name")
done
cp -L "$CA_BUNDLE" "$ROOTFS$CA_BUNDLE"
printf 'root:x:0:0:root:/:/sbin/nologin\nkubefed:x:1001:1001:kubefed:/hyperfed:/sbin/nologin\n' >"$ROOTFS/etc/passwd"
printf 'root:x:0:\nkubefed:x:1001:\n' >"$ROOTFS/etc/group"

container=$(oci_buildah "$WORK/storage" from scratch)
oci_buildah "$WORK/storage" copy "$container" "$ROOTFS" / >/dev/null
oci_buildah "$WORK/storage" config --user 1001:1001 --workingdir /hyperfed \
  --entrypoint '["/hyperfed/controller-manager"]' --cmd '' \
  --label org.opencontainers.image.title=kubefed-cpp \
  --label "org.opencontainers.image.revision=$(git -C "$REPO_ROOT" rev-parse HEAD 2>/dev/null || echo unknown)" \
  "$container"
oci_buildah "$WORK/storage" commit -q "$container" "$IMAGE" >/dev/null
rm -f "$ARCHIVE"
oci_buildah "$WORK/storage" push -q "$IMAGE" "oci-archive:$ARCHIVE.tmp:$IMAGE"
mv "$ARCHIVE.tmp" "$ARCHIVE"
log "$IMAGE (${included[*]}): $ARCHIVE, $(du -h "$ARCHIVE" | cut -f1), $((SECONDS - start))s"

RUN=${KF_RUN_DIR:-/dev/shm/kubefed-cpp-clusters}
if [[ ${KF_IMAGE_LOAD:-1} == 1 && -f $RUN/env ]] && grep -qx 'KF_WITH_NODE=1' "$RUN/env"; then
  KF_RUN_DIR=$RUN "$REPO_ROOT/hack/local-clusters.sh" load-image "$ARCHIVE"
fi
printf '%s\n' "$ARCHIVE"
