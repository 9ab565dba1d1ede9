#include "sync/controller/workload_followers.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "federation/client/discovery.h"
#include "federation/informer/shared_informer.h"
#include "sync/plan/workload_references.h"

namespace kf::sync {

namespace {

std::string workloadRef(std::size_t index, const std::string& key) {
  return std::to_string(index) + "|" + key;
}

}  // namespace

// Hands the controller's queue to the index, which queues the followers itself.
class WorkloadFollowers::FollowerSource final : public Source {
 public:
  explicit FollowerSource(std::weak_ptr<WorkloadFollowers> owner) : owner_(std::move(owner)) {}
  void start(EnqueueTarget& target, Handler handler) override {
    if (auto owner = owner_.lock()) owner->startSource(target, std::move(handler));
  }
  void stop() override {
    if (auto owner = owner_.lock()) owner->stopSource();
  }
  // The workload informers are waited for by the passes that need them (synced()).
  bool synced() const override { return true; }

 private:
  std::weak_ptr<WorkloadFollowers> owner_;
};

WorkloadFollowers::WorkloadFollowers(WorkloadFollowersOptions options, InformerManager& informers,
                                     std::shared_ptr<RestClient> host,
                                     std::function<bool(const std::string& key)> follows)
    : options_(std::move(options)),
      informers_(informers),
      host_(std::move(host)),
      follows_(std::move(follows)) {}

WorkloadFollowers::~WorkloadFollowers() {
  stopSource();
  MutexLock lock(activation_mu_);
  for (Watched& watched : watched_) watched.lease.release();
}

SourcePtr WorkloadFollowers::source() { return std::make_unique<FollowerSource>(weak_from_this()); }

void WorkloadFollowers::startSource(EnqueueTarget& target, Handler handler) {
  MutexLock lock(mu_);
  if (stopped_) return;
  target_ = &target;
  handler_ = std::move(handler);
}

void WorkloadFollowers::stopSource() {
  {
    MutexLock lock(mu_);
    if (stopped_) return;
    stopped_ = true;
    target_ = nullptr;
  }
  // Outside mu_: releasing waits for a handler call in progress, which may want mu_.
  MutexLock lock(activation_mu_);
  for (Watched& watched : watched_) watched.lease.release();
}

Status WorkloadFollowers::activate() {
  MutexLock lock(activation_mu_);
  if (activated_) return *activated_;
  DiscoveryClient discovery(*host_);
  auto resources =
      discovery.resources(std::string(kFederatedTypesGroup), std::string(kFederatedTypesVersion));
  if (!resources) {
    // Not remembered: the next pass over a follower asks again.
    return withContext(resources.error(), "finding the federated workload types for " +
                                              std::string(kPlacementFollowsAnnotation));
  }
  for (const ApiResourceInfo& resource : resources.value()) {
    if (!isFederatedWorkloadKind(resource.kind) || resource.name.find('/') != std::string::npos)
      continue;
    Result<InformerLease> lease =
        informers_.acquire({"", resource.gvr(), options_.target_namespace, "", ""});
    if (!lease) {  // not remembered either: the leases taken so far go, and a later pass retries
      watched_.clear();
      return withContext(lease.error(), "watching " + resource.name);
    }
    watched_.push_back(Watched{resource.kind, std::move(lease).value(), 0});
  }
  for (std::size_t i = 0; i < watched_.size(); ++i) watch(i);
  spdlog::info("{}s following their workloads: watching {} federated workload types",
               options_.target_kind, watched_.size());
  activated_ = boost::outcome_v2::success();
  return *activated_;
}

void WorkloadFollowers::watch(std::size_t index) {
  Watched& watched = watched_[index];
  auto handler = std::make_shared<EventHandlerFuncs>();
  const std::string kind = options_.target_kind;
  auto followers_of = [kind](const ObjectPtr& workload) {
    std::set<std::string> out;
    const Json* pod_template = podTemplateOfFederated(*workload);
    if (pod_template == nullptr) return out;
    const PodTemplateReferences references = referencesOf(*pod_template);
    const std::set<std::string>* names = referencedNamesOfKind(references, kind);
    if (names == nullptr) return out;
    const std::string ns = objectNamespace(*workload);
    for (const std::string& name : *names) out.insert(ns + "/" + name);
    return out;
  };
  handler->on_add = [this, index, followers_of](const ObjectPtr& object, bool) {
    reindex(workloadRef(index, objectKey(*object)), followers_of(object));
  };
  handler->on_update = [this, index, followers_of](const ObjectPtr& old_object,
                                                   const ObjectPtr& new_object) {
    if (objectResourceVersion(*old_object) == objectResourceVersion(*new_object)) return;
    reindex(workloadRef(index, objectKey(*new_object)), followers_of(new_object));
  };
  handler->on_delete = [this, index](const DeletedObject& deleted) {
    reindex(workloadRef(index, deleted.key), {});
  };
  watched.handler = watched.lease.addEventHandler(std::move(handler));
}

void WorkloadFollowers::reindex(const std::string& ref, std::set<std::string> followers) {
  std::set<std::string> concerned = followers;
  {
    MutexLock lock(mu_);
    std::set<std::string>& indexed = followers_of_[ref];
    for (const std::string& old_follower : indexed) {
      concerned.insert(old_follower);
      auto workloads = workloads_of_.find(old_follower);
      if (workloads == workloads_of_.end()) continue;
      workloads->second.erase(ref);
      if (workloads->second.empty()) workloads_of_.erase(workloads);
    }
    for (const std::string& follower : followers) workloads_of_[follower].insert(ref);
    if (followers.empty()) {
      followers_of_.erase(ref);
    } else {
      indexed = std::move(followers);
    }
  }
  queue(concerned);
}

void WorkloadFollowers::queue(const std::set<std::string>& followers) {
  MutexLock lock(mu_);
  if (target_ == nullptr || !handler_) return;
  for (const std::string& key : followers) {
    if (!follows_(key)) continue;
    const auto slash = key.find('/');
    const Json follower = {
        {"metadata", {{"namespace", key.substr(0, slash)}, {"name", key.substr(slash + 1)}}}};
    handler_->deliver(&follower, *target_);
  }
}

bool WorkloadFollowers::synced() const {
  MutexLock lock(activation_mu_);
  if (!activated_ || !*activated_) return false;
  for (const Watched& watched : watched_) {
    if (!watched.lease || !watched.lease->handlerSynced(watched.handler)) return false;
  }
  return true;
}

std::vector<CachedWorkload> WorkloadFollowers::referencing(const std::string& follower_key) const {
  std::vector<std::pair<std::size_t, std::string>> refs;
  {
    MutexLock lock(mu_);
    const auto found = workloads_of_.find(follower_key);
    if (found == workloads_of_.end()) return {};
    for (const std::string& ref : found->second) {
      const auto bar = ref.find('|');
      refs.emplace_back(std::stoul(ref.substr(0, bar)), ref.substr(bar + 1));
    }
  }
  std::vector<CachedWorkload> out;
  MutexLock lock(activation_mu_);
  for (const auto& [index, key] : refs) {
    if (index >= watched_.size() || !watched_[index].lease) continue;
    if (ObjectPtr object = watched_[index].lease->store().get(key)) {
      out.push_back(CachedWorkload{watched_[index].kind, std::move(object)});
    }
  }
  return out;
}

}  // namespace kf::sync
