#include "bench/propagation/user_probes.h"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <thread>
#include <utility>

#include "bench/propagation/bench_support.h"
#include "federation/client/resource_client.h"

namespace kf::bench {
namespace {

const GroupVersionResource kProbeConfigMaps{"", "v1", "configmaps", true};
const GroupVersionResource kProbeFederatedConfigMaps{"types.kubefed.io", "v1beta1",
                                                     "federatedconfigmaps", true};
// Only the probes' templates carry it, and so only their member objects.
constexpr const char* kProbeLabel = "bench-probe";

Json probeTemplate(const std::string& payload) {
  return {{"metadata", {{"labels", {{kProbeLabel, "true"}}}}}, {"data", {{"payload", payload}}}};
}

}  // namespace

UserProbes::UserProbes(const std::string& kubeconfig, const std::vector<std::string>& members,
                       std::string ns, std::string tag, long existing)
    : members_(members), ns_(std::move(ns)), tag_(std::move(tag)), existing_(existing) {
  host_ = clientFor(kubeconfig, "host", 1000, 2000);
  for (const auto& m : members_) member_clients_.push_back(clientFor(kubeconfig, m, 1000, 2000));
}

UserProbes::~UserProbes() {
  for (auto& informer : informers_) informer->stop();
}

bool UserProbes::watch() {
  for (std::size_t i = 0; i < members_.size(); ++i) {
    auto informer = std::make_unique<SharedInformer>(
        makeListerWatcher(*member_clients_[i], kProbeConfigMaps, ns_,
                          std::string(kProbeLabel) + "=true", ""),
        realClock());
    auto handler = std::make_shared<EventHandlerFuncs>();
    handler->on_add = [this, m = members_[i]](const ObjectPtr& o, bool) { seen(m, *o); };
    handler->on_update = [this, m = members_[i]](const ObjectPtr&, const ObjectPtr& o) {
      seen(m, *o);
    };
    informer->addEventHandler(handler);
    informer->start();
    if (!informer->waitForSync(Clock::now() + std::chrono::seconds(60))) return false;
    informers_.push_back(std::move(informer));
  }
  return true;
}

void UserProbes::seen(const std::string& member, const Json& object) {
  const auto now = Clock::now();
  std::lock_guard lock(mu_);
  const auto it = expected_.find(objectName(object));
  if (it == expected_.end()) return;
  const Json& data = object.value("data", Json::object());
  if (data.value("payload", "") != it->second.payload) return;
  it->second.arrived.try_emplace(member, now);
}

bool UserProbes::sendOne(int index) {
  const bool edit = index % 2 == 1 && existing_ > 0;
  const std::string payload = "probe-" + tag_ + "-" + std::to_string(index);
  // Edits spread over the existing objects, so that they sit anywhere in the backlog.
  const auto spread = static_cast<long>(std::hash<std::string>{}(tag_) % 1000003) + index * 7919L;
  const std::string name = edit ? "bench-" + std::to_string(spread % existing_) : payload;
  {
    std::lock_guard lock(mu_);
    expected_[name] = Expected{payload, edit, Clock::now(), {}, false};
  }
  ResourceClient federated(*host_, kProbeFederatedConfigMaps, ns_);
  Result<Json> written = [&] {
    if (edit) {
      const Json patch = {{"spec", {{"template", probeTemplate(payload)}}}};
      return federated.patch(name, PatchType::kMerge, patch.dump());
    }
    Json clusters = Json::array();
    for (const auto& m : members_) clusters.push_back({{"name", m}});
    return federated.create(
        {{"apiVersion", "types.kubefed.io/v1beta1"},
         {"kind", "FederatedConfigMap"},
         {"metadata", {{"name", name}, {"namespace", ns_}}},
         {"spec",
          {{"template", probeTemplate(payload)}, {"placement", {{"clusters", clusters}}}}}});
  }();
  if (!written) {
    std::fprintf(stderr, "probe %s %s: %s\n", edit ? "edit" : "create", name.c_str(),
                 written.error().describe().c_str());
    std::lock_guard lock(mu_);
    expected_[name].failed = true;
    return false;
  }
  return true;
}

void UserProbes::send(int count, std::chrono::milliseconds spacing) {
  for (int i = 0; i < count; ++i) {
    if (i > 0) std::this_thread::sleep_for(spacing);
    sendOne(i);
  }
}

ProbeFigures UserProbes::collect(std::chrono::seconds timeout) {
  const auto deadline = Clock::now() + timeout;
  const auto all_arrived = [this] {
    std::lock_guard lock(mu_);
    for (const auto& [name, probe] : expected_) {
      if (!probe.failed && probe.arrived.size() < members_.size()) return false;
    }
    return true;
  };
  while (!all_arrived() && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ProbeFigures figures;
  std::lock_guard lock(mu_);
  for (const auto& [name, probe] : expected_) {
    if (probe.failed || probe.arrived.size() < members_.size()) {
      ++figures.failed;
      continue;
    }
    Clock::time_point last = probe.sent;
    for (const auto& [member, at] : probe.arrived) last = std::max(last, at);
    const double seconds = std::chrono::duration<double>(last - probe.sent).count();
    (probe.edit ? figures.edit_seconds : figures.create_seconds).push_back(seconds);
  }
  return figures;
}

}  // namespace kf::bench
