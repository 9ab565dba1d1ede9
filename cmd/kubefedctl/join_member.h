#pragma once
// The joining cluster's half of `kubefedctl join` (spec §3.1 steps 3-6): the KubeFed namespace,
// the ServiceAccount, its token Secret and the RBAC that lets the control plane in, then the
// token once Kubernetes has issued it.

#include <chrono>
#include <ostream>
#include <string>

#include "cmd/kubefedctl/join_objects.h"
#include "federation/client/rest_client.h"
#include "federation/runtime/clock.h"

namespace kf::kubefedctl {

struct MemberSetup {
  std::string cluster_name;  // for output and messages
  std::string kubefed_namespace;
  std::string service_account;
  JoinScope scope = JoinScope::kCluster;
  // --error-on-existing: a ServiceAccount or RBAC object of this join that exists already is an
  // error (KubeFed's); without it, existing ones are reused and brought up to date.
  bool error_on_existing = true;
  // The token controller of kube-controller-manager fills the token Secret; join waits for it.
  std::chrono::milliseconds token_timeout{30'000};
  std::chrono::milliseconds token_poll_interval{200};
};

// KubeFed's preflight check with --error-on-existing: the ServiceAccount must not exist yet (it
// does when the cluster is joined, or a join stopped half way).
Status checkServiceAccountAbsent(RestClient& member, const MemberSetup& setup);

// Creates what is missing. With error_on_existing, an existing role or binding is an error in
// KubeFed's words; without it, what exists is brought up to date, so that a join re-run after a
// failure completes the job: roles get their rules replaced, bindings their subjects (or are
// re-created when their roleRef differs). A token Secret left from an earlier ServiceAccount of
// the same name is re-created. Prints one line per object. Blocks (polling on `clock`) until
// the token is there or token_timeout passed.
Result<ServiceAccountToken> setUpJoiningCluster(RestClient& member, const MemberSetup& setup,
                                                Clock& clock, std::ostream& out);

}  // namespace kf::kubefedctl
