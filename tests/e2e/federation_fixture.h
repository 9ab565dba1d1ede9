#pragma once
// A federation of one end-to-end suite's own on the local clusters: a KubeFed namespace and a
// workload namespace, the KubeFedConfig with short delays, the controller-manager binary as a
// process, the members joined with `kubefedctl join`. Each step is a call, so a suite can put
// its own set-up between them (a webhook, CRDs) and assert on each result as it needs.
//
// shutDown() (also run by the destructor) stops the controller manager, then releases the
// federated objects it left finalized (releaseFederatedObjects) and unjoins the members.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "federation/client/rest_client.h"
#include "tests/e2e/kubefedctl_runner.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/process.h"

namespace kf::integration {

// What the controller manager logs once it watches FederatedTypeConfigs.
inline constexpr const char* kFtcControllerStarted = "Starting FederatedTypeConfig controller";

struct E2EFederationOptions {
  // Prefix of the KubeFed namespace (also the host cluster name given to `join`); the workload
  // namespace's prefix is this + "-work".
  std::string prefix;
  std::vector<std::string> members = {"member1", "member2"};
  // Non-empty: the host is joined too, as a member of itself under this cluster name (KubeFed's
  // usual deployment, and its own CI's layout); member(host_member) is then a client of the host.
  std::string host_member;
  // Controller-manager flags after the kubeconfig, the KubeFed namespace and the serving
  // addresses.
  std::vector<std::string> manager_flags = {"--rest-config-qps", "100", "--rest-config-burst",
                                            "200"};
  // Flags after every kubefedctl command's own and its --kubefed-namespace.
  std::vector<std::string> kubefedctl_flags;
};

class E2EFederation {
 public:
  // Creates the two namespaces and a client of the host and of each member.
  explicit E2EFederation(E2EFederationOptions options);
  // shutDown().
  ~E2EFederation();
  E2EFederation(const E2EFederation&) = delete;
  E2EFederation& operator=(const E2EFederation&) = delete;

  // The KubeFedConfig "kubefed": KubeFed's defaults with a 1 s health check (2 s timeout) and
  // 1 s cluster delays, then `spec` merged over them.
  Result<Json> createKubeFedConfig(const Json& spec = Json::object());
  // Starts the controller manager with `extra` flags after the options' ones, replacing one
  // started before; whether it logged `ready_line` in time.
  bool startManager(const std::string& ready_line = kFtcControllerStarted,
                    const std::vector<std::string>& extra = {});
  // SIGTERM; its exit code, nullopt when it did not exit within 30 s.
  std::optional<int> stopManager();

  // kubefedctl ARGS against the host and the KubeFed namespace, `input` on its standard input;
  // its output is kept.
  RunResult kubefedctl(std::vector<std::string> args, const std::string& input = "");
  // Joins every member (and the host under options.host_member); "" when all joined, else what
  // each failed one printed.
  std::string joinMembers();
  // Joins or unjoins one of the options' clusters (a member, or options.host_member) on its own,
  // e.g. while the controller manager runs; "" on success, else what kubefedctl printed.
  std::string join(const std::string& member);
  std::string unjoin(const std::string& member);
  // `kubefedctl enable` of each type; "" when all were enabled, else what each failure printed.
  std::string enableTypes(const std::vector<std::string>& types);

  // Stops the controller manager, releases the federated objects, unjoins the members.
  // Idempotent.
  void shutDown();

  RestClient& host() { return *host_; }
  RestClient& member(const std::string& name) { return *members_.at(name); }
  // The joined clusters: the members, then the host's cluster name when it is joined.
  const std::vector<std::string>& memberNames() const { return member_names_; }
  const std::string& kubefedNamespace() const { return kubefed_ns_.name(); }
  const std::string& workNamespace() const { return work_ns_.name(); }
  bool hasManager() const { return manager_ != nullptr; }
  ChildProcess& manager() { return *manager_; }
  // Everything the kubefedctl runs wrote so far, stdout then stderr of each, in order.
  const std::string& kubefedctlOutput() const { return kubefedctl_output_; }

 private:
  // Runs each command; "" when all succeeded, else the description of each failure.
  std::string runAll(const std::vector<std::vector<std::string>>& commands);
  // The kubeconfig context of a joined cluster's name.
  std::string contextOf(const std::string& member) const;

  const E2EFederationOptions options_;
  LocalClusters& clusters_;
  std::unique_ptr<RestClient> host_;
  TestNamespace kubefed_ns_;
  TestNamespace work_ns_;
  std::vector<std::string> member_names_;
  std::map<std::string, std::unique_ptr<RestClient>> members_;
  std::unique_ptr<ChildProcess> manager_;
  std::string kubefedctl_output_;
  bool shut_down_ = false;
};

}  // namespace kf::integration
