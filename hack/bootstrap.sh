#!/usr/bin/env bash
# Installs every system package that the build, the tests and the demo need. Idempotent: packages
# already present are skipped, so a second run on the same machine takes a second or two.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config git python3 openssl ca-certificates curl
  clang-14 clang-format-14 clang-tidy-14 libclang-rt-14-dev lld-14
  libboost1.81-dev libssl-dev nlohmann-json3-dev libyaml-cpp-dev libspdlog-dev libfmt-dev
  libgtest-dev libgmock-dev googletest
  etcd-server etcd-client golang-go ccache
  zsh fish  # the kubefedctl completion tests run the scripts in each shell
  # the local node (hack/lib/node.sh) and the image (hack/build-image.sh)
  containerd runc containernetworking-plugins iptables conntrack buildah
)

missing=()
for package in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done

# The machine image may ship Go outside Debian's package; keep a newer Go if one is on PATH.
if command -v go >/dev/null 2>&1; then
  missing=("${missing[@]/golang-go}")
fi

if [[ -n "${missing[*]// /}" ]]; then
  echo "[bootstrap] installing: ${missing[*]}" >&2
  SUDO=""
  [[ $(id -u) -eq 0 ]] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends ${missing[*]} >/dev/null
fi

echo "[bootstrap] system packages present" >&2
