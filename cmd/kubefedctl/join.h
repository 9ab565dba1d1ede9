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
//   * A join re-run after a failure completes the job: while the KubeFedCluster does not exist,
//     objects an earlier join left in the joining cluster are reused and brought up to date, and
//     its host Secret is reused, even with --error-on-existing=true. That flag stops a join only
//     when the KubeFedCluster exists (the cluster is joined) or --secret-name names a Secret no
//     join of this cluster wrote.
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
// KubeFedCluster written. A dry run only reads from the host (`member` may be null) and returns
// the KubeFedCluster join would create: secretRef is --secret-name, caBundle only from the
// kubeconfig.
Result<Json> joinCluster(RestClient& host, RestClient* member, const JoinRequest& request,
                         std::ostream& out, Clock& clock);

CommandSpec joinCommand();

}  // namespace kf::kubefedctl
