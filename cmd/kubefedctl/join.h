#pragma once
// `kubefedctl join CLUSTER_NAME` (spec §3.1): registers a Kubernetes cluster with a KubeFed
// control plane. In the joining cluster: the KubeFed namespace, ServiceAccount
// "<cluster>-<host>", a token Secret "<service account>-token" and RBAC for the KubeFedConfig's
// scope; in the host: a Secret with the token and the KubeFedCluster.
//
// Differences from KubeFed 0.8.1, on purpose:
//   * The token Secret is created explicitly (type kubernetes.io/service-account-token) and join
//     waits up to 30s for the token controller to fill it: Kubernetes >= 1.24 no longer creates
//     one per ServiceAccount.
//   * With --error-on-existing=true (the default) join stops, as KubeFed's does, at an existing
//     ServiceAccount (checked before anything is written, also on a dry run), an existing role
//     or binding, or an existing KubeFedCluster; the message says how to go on. A join re-run
//     with --error-on-existing=false completes what an earlier join left: its objects in the
//     joining cluster are reused and brought up to date, and its host Secret (found by an
//     annotation) is reused rather than a second one generated.
//   * Every object written is reported on stdout, one line each ("serviceaccount/x created in
//     cluster \"member1\""); --dry-run prints the KubeFedCluster it would create as YAML.

#include <chrono>
#include <ostream>
#include <string>
#include <vector>

#include "cmd/kubefedctl/command.h"
#include "cmd/kubefedctl/join_objects.h"
#include "federation/runtime/clock.h"

namespace kf::kubefedctl {

struct JoinRequest {
  std::string cluster_name;
  std::string host_cluster_name;  // the host's name in generated object names
  std::string kubefed_namespace = kDefaultKubefedNamespace;
  std::string secret_name;  // "" = generated
  bool error_on_existing = true;
  bool dry_run = false;
  JoiningEndpoint endpoint;
  std::chrono::milliseconds token_timeout{30'000};
};

// Joins the cluster `member` reaches to the control plane in `host`, and returns the
// KubeFedCluster written. A dry run only reads (the KubeFedConfig, the ServiceAccount preflight,
// the KubeFedCluster) and returns the KubeFedCluster join would create: secretRef is
// --secret-name, caBundle only from the kubeconfig.
Result<Json> joinCluster(RestClient& host, RestClient* member, const JoinRequest& request,
                         std::ostream& out, Clock& clock);

CommandSpec joinCommand();

}  // namespace kf::kubefedctl
