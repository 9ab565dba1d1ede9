#include "tests/e2e/federation_fixture.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <optional>
#include <string>
#include <utility>

#include "federation/client/resource_client.h"
#include "tests/integration/resources.h"

namespace kf::integration {

using std::chrono::seconds;

E2EFederation::E2EFederation(E2EFederationOptions options)
    : options_(std::move(options)),
      clusters_(LocalClusters::get()),
      host_(clusters_.client("host")),
      kubefed_ns_(*host_, options_.prefix),
      work_ns_(*host_, options_.prefix + "-work"),
      member_names_(options_.members) {
  if (!options_.host_member.empty()) member_names_.push_back(options_.host_member);
  for (const std::string& member : member_names_) {
    members_[member] = clusters_.client(contextOf(member));
  }
}

E2EFederation::~E2EFederation() { shutDown(); }

Result<Json> E2EFederation::createKubeFedConfig(const Json& spec) {
  Json short_delays = {
      {"clusterHealthCheck", {{"period", "1s"}, {"timeout", "2s"}}},
      {"controllerDuration", {{"availableDelay", "1s"}, {"unavailableDelay", "1s"}}}};
  short_delays.merge_patch(spec);
  return ResourceClient(*host_, kKubeFedConfigs, kubefedNamespace())
      .create({{"apiVersion", "core.kubefed.io/v1beta1"},
               {"kind", "KubeFedConfig"},
               {"metadata", {{"name", "kubefed"}, {"namespace", kubefedNamespace()}}},
               {"spec", kubeFedConfigSpec(short_delays)}});
}

bool E2EFederation::startManager(const std::string& ready_line,
                                 const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"--kubeconfig",        clusters_.kubeconfigPath(),
                                   "--kubefed-namespace", kubefedNamespace(),
                                   "--healthz-addr",      "127.0.0.1:0",
                                   "--metrics-addr",      "127.0.0.1:0"};
  args.insert(args.end(), options_.manager_flags.begin(), options_.manager_flags.end());
  args.insert(args.end(), extra.begin(), extra.end());
  manager_ = std::make_unique<ChildProcess>(
      builtBinary("cmd/controller-manager/controller-manager"), args);
  return manager_->waitForLog(ready_line);
}

std::optional<int> E2EFederation::stopManager() {
  manager_->signal(SIGTERM);
  return manager_->wait(seconds(30));
}

RunResult E2EFederation::kubefedctl(std::vector<std::string> args, const std::string& input) {
  args.insert(args.end(), {"--kubefed-namespace", kubefedNamespace()});
  args.insert(args.end(), options_.kubefedctl_flags.begin(), options_.kubefedctl_flags.end());
  RunResult result = runKubefedctl(args, input);
  kubefedctl_output_ += result.out + result.err;
  return result;
}

std::string E2EFederation::runAll(const std::vector<std::vector<std::string>>& commands) {
  std::string failures;
  for (const auto& command : commands) {
    const RunResult result = kubefedctl(command);
    if (result.exit_code != 0) failures += "kubefedctl " + command[0] + ": " + describe(result);
  }
  return failures;
}

std::string E2EFederation::contextOf(const std::string& member) const {
  return member == options_.host_member ? "host" : member;
}

std::string E2EFederation::joinMembers() {
  std::string failures;
  for (const std::string& member : member_names_) failures += join(member);
  return failures;
}

std::string E2EFederation::join(const std::string& member) {
  return runAll({{"join", member, "--cluster-context", contextOf(member), "--host-cluster-name",
                  kubefedNamespace()}});
}

std::string E2EFederation::unjoin(const std::string& member) {
  return runAll({{"unjoin", member, "--cluster-context", contextOf(member), "--host-cluster-name",
                  kubefedNamespace(), "--force"}});
}

std::string E2EFederation::enableTypes(const std::vector<std::string>& types) {
  std::vector<std::vector<std::string>> enables;
  for (const std::string& type : types) enables.push_back({"enable", type});
  return runAll(enables);
}

void E2EFederation::shutDown() {
  if (std::exchange(shut_down_, true)) return;
  if (manager_ && manager_->running()) {
    // A sanitizer that found something (ASan, UBSan, LeakSanitizer, TSan) makes the process exit
    // non-zero; without this check its report would only sit in the log.
    const std::optional<int> exit_code = stopManager();
    const std::string log = manager_->log();
    EXPECT_EQ(exit_code.value_or(-1), 0)
        << "the controller manager did not exit cleanly on SIGTERM; the end of its log:\n"
        << log.substr(log.size() > 6000 ? log.size() - 6000 : 0);
  }
  // Once the controller manager has exited: its sync controllers would finalize them again.
  releaseFederatedObjects(*host_);
  for (const std::string& member : member_names_) (void)unjoin(member);
}

}  // namespace kf::integration
