# Building OCI images here without a registry and without a Docker engine: Debian's buildah,
# FROM scratch, with a storage of its own that is removed afterwards, so nothing is left in the
# machine's container storage and no base image is ever pulled. Sourced by hack/ scripts.

# oci_buildah DIR ARGS...: buildah with its storage in DIR (vfs driver: no overlay mounts).
oci_buildah() {
  local dir=$1
  shift
  buildah --root "$dir/root" --runroot "$dir/runroot" --storage-driver vfs "$@"
}

# oci_cleanup DIR: removes a storage oci_buildah used.
oci_cleanup() {
  local dir=$1
  [[ -d $dir ]] || return 0
  oci_buildah "$dir" rm --all >/dev/null 2>&1 || true
  oci_buildah "$dir" rmi --all --force >/dev/null 2>&1 || true
  rm -rf "$dir"
}

# oci_pause_image_name: the name of the pod sandbox (pause) image the local node runs.
oci_pause_image_name() { printf 'localhost/kubefed-cpp/pause:1.0\n'; }

# oci_pause_archive REPO_ROOT CACHE_DIR: builds (once per source version) the pause image from
# images/pause/pause.c, linked statically, FROM scratch; prints the OCI archive's path.
oci_pause_archive() {
  local repo_root=$1 cache=$2 src hash archive work container
  src=$repo_root/images/pause/pause.c
  hash=$(sha256sum "$src" | cut -c1-16)
  archive=$cache/pause-$hash.tar
  if [[ ! -s $archive ]]; then
    mkdir -p "$cache"
    work=$(mktemp -d "$cache/pause-build.XXXXXX")
    cc -static -Os -Wall -Wextra -Werror -o "$work/pause" "$src"
    container=$(oci_buildah "$work/storage" from scratch)
    oci_buildah "$work/storage" copy "$container" "$work/pause" /pause >/dev/null
    oci_buildah "$work/storage" config --entrypoint '["/pause"]' --user 65535:65535 "$container"
    oci_buildah "$work/storage" commit -q "$container" "$(oci_pause_image_name)" >/dev/null
    oci_buildah "$work/storage" push -q "$(oci_pause_image_name)" \
      "oci-archive:$archive.tmp:$(oci_pause_image_name)"
    mv "$archive.tmp" "$archive"
    oci_cleanup "$work/storage"
    rm -rf "$work"
  fi
  printf '%s\n' "$archive"
}
