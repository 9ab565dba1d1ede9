#!/usr/bin/env bash
# Checks what the README says kubefedctl prints "as KubeFed" against KubeFed v0.8.1's own
# kubefedctl (hack/build-kubefed.sh), on local clusters of its own. Run by hand, not in CI: it
# builds KubeFed the first time (about 5 minutes).
#
#   enable TYPE -o yaml  KubeFed's ten default types (ingresses from networking.k8s.io) and the
#                        CRD-backed widgets.example.com: KubeFed's output must equal the golden
#                        file (tests/unit/crdgen/testdata/TYPE.yaml, which the unit tests compare
#                        ours with) and ours must equal KubeFed's, byte for byte, once the
#                        additions the README documents are taken out of ours: for the workload
#                        types only, the CRD's additionalPrinterColumns, status.workload,
#                        status.rollout and the conditions' message (hack/lib/kubefed_outputs.py
#                        strip-additions).
#   federate TYPE NAME -o yaml, federate namespaces NS --contents -o yaml, federate -f FILE:
#                        ours must equal KubeFed's (--contents: the same documents, in any
#                        order); for -f FILE (two inputs in tests/unit/kubefedctl/testdata/kubefed:
#                        quoted edge cases for the writer, unquoted YAML 1.1 scalars for the
#                        reader), KubeFed's output must also equal the golden file.
#   join --dry-run       the same exit code; KubeFed prints nothing on stdout, ours the
#                        KubeFedCluster it would create (documented); nothing is written; with
#                        the ServiceAccount already there both fail with KubeFed's message.
#   controller manager   KubeFed's controller-manager starts against these clusters (with the
#                        chart's KubeFedConfig) and propagates a FederatedConfigMap to a member
#                        joined by our kubefedctl.
# Exit code 0 when everything matches; 1 with the differences printed otherwise.
#
# Usage: hack/kubefed-compare.sh [BUILD_DIR] [--record]
#   BUILD_DIR  holds cmd/kubefedctl/kubefedctl (default build/release)
#   --record   write KubeFed's outputs over the golden files instead of comparing with them
# Env:   KF_RUN_DIR (default /dev/shm/kubefed-cpp-compare): the clusters' run directory;
#        KF_COMPARE_OUT (default a new /tmp/kubefed-compare.XXXXXX): every output compared, kept
#        when something differs; KF_KEEP=1 leaves the clusters up.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD=build/release
RECORD=0
for arg in "$@"; do
  case $arg in
    --record) RECORD=1 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' && exit 0 ;;
    *) BUILD=$arg ;;
  esac
done
OURS_BIN=$BUILD/cmd/kubefedctl/kubefedctl
[[ -x $OURS_BIN ]] || {
  echo "no $OURS_BIN: build it first (cmake --build --preset release --target kubefedctl)" >&2
  exit 2
}
OURS_BIN=$(realpath "$OURS_BIN")

log() { printf '[kubefed-compare] %s\n' "$*" >&2; }

KUBEFED_BIN=$(hack/build-kubefed.sh | tail -n1)
export PATH="$(hack/build-kube-binaries.sh | tail -n1):$PATH"
export KF_RUN_DIR=${KF_RUN_DIR:-/dev/shm/kubefed-cpp-compare}
OUT=${KF_COMPARE_OUT:-$(mktemp -d /tmp/kubefed-compare.XXXXXX)}
CRD_TESTDATA=tests/unit/crdgen/testdata
FEDERATE_TESTDATA=tests/unit/kubefedctl/testdata/kubefed
NS=kube-federation-system
MANAGER_PID=

cleanup() {
  # Only the controller manager this script started, by its pid.
  if [[ -n $MANAGER_PID ]]; then kill "$MANAGER_PID" 2>/dev/null && wait "$MANAGER_PID" 2>/dev/null || true; fi
  [[ ${KF_KEEP:-0} == 1 ]] || hack/local-clusters.sh down >/dev/null 2>&1 || true
}
trap cleanup EXIT

KF_WITH_KCM=1 hack/local-clusters.sh up 1 >/dev/null
set -a
. "$KF_RUN_DIR/env"
set +a
mkdir -p "$OUT/kubefed" "$OUT/ours"
HOST=(--kubeconfig "$KUBECONFIG" --host-cluster-context host)
kubectl_host() { "$KF_KUBECTL" --kubeconfig "$KUBECONFIG" --context host "$@"; }
kubectl_member() { "$KF_KUBECTL" --kubeconfig "$KUBECONFIG" --context member1 "$@"; }

FAILURES=0
CHECKS=0
fail() {
  FAILURES=$((FAILURES + 1))
  printf '\nDIFFERS: %s\n' "$1" >&2
  shift
  [[ $# -eq 2 ]] && diff -u "$1" "$2" >&2 || true
}
pass() { CHECKS=$((CHECKS + 1)); }

# run WHO NAME ARGS...: runs KubeFed's (kubefed) or our (ours) kubefedctl; stdout, stderr and
# the exit code land in $OUT/WHO/NAME.{out,err,rc}.
run() {
  local who=$1 name=$2 bin=$OURS_BIN rc=0
  shift 2
  [[ $who == kubefed ]] && bin=$KUBEFED_BIN/kubefedctl
  "$bin" "$@" "${HOST[@]}" >"$OUT/$who/$name.out" 2>"$OUT/$who/$name.err" || rc=$?
  echo "$rc" >"$OUT/$who/$name.rc"
}

# against_golden NAME GOLDEN: KubeFed's output is the golden file (or becomes it with --record).
against_golden() {
  local kubefed=$OUT/kubefed/$1.out golden=$2
  if ((RECORD)); then
    cp "$kubefed" "$golden"
  elif cmp -s "$kubefed" "$golden"; then
    pass
  else
    fail "KubeFed's output for $1 is not the golden file $golden (--record takes it over)" \
      "$golden" "$kubefed"
  fi
}

same_run() { # same_run NAME: both exited alike and printed the same
  local name=$1
  if ! cmp -s "$OUT/kubefed/$name.rc" "$OUT/ours/$name.rc"; then
    fail "$name: exit code $(cat "$OUT/kubefed/$name.rc") (KubeFed) vs $(cat "$OUT/ours/$name.rc") (ours)"
  elif ! cmp -s "$OUT/kubefed/$name.out" "$OUT/ours/$name.out"; then
    fail "$name: stdout" "$OUT/kubefed/$name.out" "$OUT/ours/$name.out"
  else
    pass
  fi
}

log "host: KubeFed's CRDs, the chart's KubeFedConfig, the widgets.example.com CRD, objects"
CRDS=charts/kubefed/charts/controllermanager/crds/crds.yaml
kubectl_host apply --server-side -f "$CRDS" >/dev/null
kubectl_host wait --for condition=established --timeout=60s -f "$CRDS" >/dev/null
kubectl_host create namespace "$NS" >/dev/null
helm template kubefed charts/kubefed -n "$NS" \
  --show-only charts/controllermanager/templates/kubefedconfig.yaml | kubectl_host apply -f - >/dev/null
kubectl_host apply -f "$CRD_TESTDATA/widgets.example.com-crd.yaml" >/dev/null
kubectl_host wait --for condition=established --timeout=60s crd/widgets.example.com >/dev/null
kubectl_host apply -f "$FEDERATE_TESTDATA/objects.yaml" >/dev/null

log "enable TYPE -o yaml"
TYPES=(configmaps secrets services serviceaccounts deployments.apps replicasets.apps jobs.batch
  ingresses.networking.k8s.io namespaces clusterroles.rbac.authorization.k8s.io widgets.example.com)
for type in "${TYPES[@]}"; do
  run kubefed "enable-$type" enable "$type" -o yaml
  run ours "enable-$type" enable "$type" -o yaml
  against_golden "enable-$type" "$CRD_TESTDATA/$type.yaml"
  stripped=$OUT/ours/enable-$type.stripped
  if ! hack/lib/kubefed_outputs.py strip-additions "$type" <"$OUT/ours/enable-$type.out" \
    >"$stripped" 2>>"$OUT/additions.txt"; then
    fail "enable $type: $(tail -n1 "$OUT/additions.txt")"
  elif cmp -s "$OUT/kubefed/enable-$type.out" "$stripped"; then
    pass
  else
    fail "enable $type -o yaml: KubeFed's vs ours without the documented additions" \
      "$OUT/kubefed/enable-$type.out" "$stripped"
  fi
done

log "federate TYPE NAME -o yaml, --contents, -f"
while read -r type name; do
  run kubefed "federate-$type" federate "$type" "$name" -n shop -o yaml
  run ours "federate-$type" federate "$type" "$name" -n shop -o yaml
  same_run "federate-$type"
done <<'EOF'
configmaps web
secrets token
services web
serviceaccounts robot
deployments.apps web
jobs.batch once
ingresses.networking.k8s.io web
namespaces shop
clusterroles.rbac.authorization.k8s.io reader
widgets.example.com w1
EOF
run kubefed federate-contents federate namespaces shop --contents -o yaml
run ours federate-contents federate namespaces shop --contents -o yaml
if ! cmp -s "$OUT/kubefed/federate-contents.rc" "$OUT/ours/federate-contents.rc"; then
  fail "federate --contents: exit codes differ"
elif hack/lib/kubefed_outputs.py same-documents "$OUT/kubefed/federate-contents.out" \
  "$OUT/ours/federate-contents.out"; then
  pass
else
  fail "federate --contents: the documents differ (above)"
fi
# Quoted strings, numbers and keys that exercise the writer; unquoted YAML 1.1 scalars the reader.
for input in federate federate-plain; do
  run kubefed "$input-file" federate -f "$FEDERATE_TESTDATA/$input-input.yaml"
  run ours "$input-file" federate -f "$FEDERATE_TESTDATA/$input-input.yaml"
  against_golden "$input-file" "$FEDERATE_TESTDATA/$input-output.yaml"
  same_run "$input-file"
done

log "join --dry-run"
written() { # what a join would have written, in both clusters
  kubectl_member get namespace "$NS" --ignore-not-found -o name
  kubectl_member -n "$NS" get serviceaccounts,secrets --ignore-not-found -o name 2>/dev/null |
    grep -v default || true
  kubectl_host -n "$NS" get kubefedclusters,secrets -o name
}
before=$(written)
run kubefed join-dry-run join member1 --cluster-context member1 --dry-run
run ours join-dry-run join member1 --cluster-context member1 --dry-run
after=$(written)
if ! cmp -s "$OUT/kubefed/join-dry-run.rc" "$OUT/ours/join-dry-run.rc" ||
  [[ $(cat "$OUT/ours/join-dry-run.rc") != 0 ]]; then
  fail "join --dry-run: exit codes $(cat "$OUT/kubefed/join-dry-run.rc") (KubeFed) and $(cat "$OUT/ours/join-dry-run.rc") (ours), expected 0"
elif [[ -s $OUT/kubefed/join-dry-run.out ]]; then
  fail "join --dry-run: KubeFed printed on stdout (the README says it prints nothing)"
elif ! grep -qx 'kind: KubeFedCluster' "$OUT/ours/join-dry-run.out"; then
  fail "join --dry-run: ours did not print the KubeFedCluster it would create"
elif [[ $before != "$after" ]]; then
  fail "join --dry-run wrote: before [$before] after [$after]"
else
  pass
fi
kubectl_member create namespace "$NS" >/dev/null
kubectl_member -n "$NS" create serviceaccount member1-host >/dev/null
run kubefed join-existing join member1 --cluster-context member1 --dry-run
run ours join-existing join member1 --cluster-context member1 --dry-run
# KubeFed logs its error with klog.Fatalf (a header, then a goroutine dump); ours prints it as
# "Error: ..." and then how to go on.
kubefed_error=$(grep -m1 '^F' "$OUT/kubefed/join-existing.err" | sed 's/^[^]]*\] //')
ours_error=$(head -n1 "$OUT/ours/join-existing.err")
if ! cmp -s "$OUT/kubefed/join-existing.rc" "$OUT/ours/join-existing.rc"; then
  fail "join with an existing ServiceAccount: exit codes $(cat "$OUT/kubefed/join-existing.rc") and $(cat "$OUT/ours/join-existing.rc")"
elif [[ -z $kubefed_error || $ours_error != "$kubefed_error"* ]]; then
  fail "join with an existing ServiceAccount: KubeFed [$kubefed_error], ours [$ours_error]"
else
  pass
fi
kubectl_member delete namespace "$NS" --wait >/dev/null

log "KubeFed's controller manager on these clusters"
"$KUBEFED_BIN/controller-manager" --kubeconfig "$KUBECONFIG" --kubefed-namespace "$NS" \
  --healthz-addr 127.0.0.1:0 --metrics-addr 127.0.0.1:0 >"$OUT/kubefed/controller-manager.log" 2>&1 &
MANAGER_PID=$!
propagated=0
started=$SECONDS
"$OURS_BIN" join member1 --cluster-context member1 "${HOST[@]}" >"$OUT/ours/join.out" 2>&1
for type in namespaces configmaps; do
  "$KUBEFED_BIN/kubefedctl" enable "$type" "${HOST[@]}" >>"$OUT/kubefed/enable.out" 2>&1
done
kubectl_host create namespace compare-smoke >/dev/null
kubectl_host apply -f - >/dev/null <<'EOF'
apiVersion: types.kubefed.io/v1beta1
kind: FederatedNamespace
metadata: {name: compare-smoke, namespace: compare-smoke}
spec: {placement: {clusterSelector: {matchLabels: {}}}}
---
apiVersion: types.kubefed.io/v1beta1
kind: FederatedConfigMap
metadata: {name: hello, namespace: compare-smoke}
spec:
  placement: {clusterSelector: {matchLabels: {}}}
  template: {data: {greeting: hello}}
EOF
deadline=$((SECONDS + 180))
while ((SECONDS < deadline)); do
  if [[ $(kubectl_member -n compare-smoke get configmap hello -o jsonpath='{.data.greeting}' \
    2>/dev/null) == hello ]]; then
    propagated=1
    break
  fi
  kill -0 "$MANAGER_PID" 2>/dev/null || break
  sleep 1
done
if ((propagated)); then
  pass
  log "KubeFed's controller manager propagated a FederatedConfigMap in $((SECONDS - started)) s"
else
  fail "KubeFed's controller manager did not propagate the FederatedConfigMap (log: $OUT/kubefed/controller-manager.log)"
fi

if ((RECORD)); then
  log "recorded KubeFed's outputs over the golden files; check them with git diff"
fi
if ((FAILURES > 0)); then
  log "$FAILURES difference(s), $CHECKS check(s) matched; outputs in $OUT"
  exit 1
fi
log "all $CHECKS checks match KubeFed v0.8.1"
rm -rf "$OUT"
