#include "sync/controller/override_policies.h"

#include <spdlog/spdlog.h>

#include <utility>

#include "apis/meta/field_errors.h"
#include "federation/client/discovery.h"
#include "federation/client/resource_client.h"
#include "federation/controller/informer_source.h"
#include "federation/informer/store.h"

namespace kf::sync {

namespace {

constexpr char kFailedReason[] = "OverridePolicyFailed";
constexpr char kInvalidReason[] = "InvalidOverridePolicy";

// As policy::OverridePolicy::describe(), from the object.
std::string policyDescription(const Json& policy_object) {
  return policy_object.value("kind", "") + " " + meta::goQuote(objectKey(policy_object));
}

bool metadataLabelsDiffer(const Json& a, const Json& b) {
  return objectLabels(a).value_or(StringMap{}) != objectLabels(b).value_or(StringMap{});
}

// Which policy updates re-propagate: spec or labels changed, or deletion began; not the
// status the controller writes itself.
bool policyChanged(const Json& old_object, const Json& new_object) {
  return old_object.value("spec", Json()) != new_object.value("spec", Json()) ||
         metadataLabelsDiffer(old_object, new_object) ||
         hasDeletionTimestamp(old_object) != hasDeletionTimestamp(new_object);
}

// Whether the host serves the policy API (one discovery GET).
bool policyApiServed(RestClient& host) {
  DiscoveryClient discovery(host);
  auto resources = discovery.resources(std::string(policy::kGroup), std::string(policy::kVersion));
  if (resources) return true;
  if (resources.error().reason == Reason::kNotFound) {
    spdlog::info(
        "{}/{} is not served (the override policy CRDs are not installed): override "
        "policies are off",
        policy::kGroup, policy::kVersion);
  } else {
    spdlog::warn(
        "Cannot tell whether {}/{} is served, override policies are off until the "
        "controller restarts: {}",
        policy::kGroup, policy::kVersion, resources.error().describe());
  }
  return false;
}

InformerLease leasePolicies(InformerManager& informers, const GroupVersionResource& resource,
                            const std::string& ns) {
  Result<InformerLease> lease = informers.acquire({"", resource, ns, "", ""});
  if (!lease) {
    spdlog::warn("Override policies are off: cannot watch {}: {}", resource.resource,
                 lease.error().describe());
    return InformerLease();
  }
  return std::move(lease).value();
}

SourcePtr policySourceOver(const InformerLease& lease) {
  if (!lease) return nullptr;
  return std::make_unique<InformerSource>(lease.informer());
}

}  // namespace

std::unique_ptr<OverridePolicies> OverridePolicies::start(const OverridePoliciesOptions& options,
                                                          InformerManager& informers,
                                                          std::shared_ptr<RestClient> host,
                                                          EventRecorderPtr recorder) {
  std::unique_ptr<OverridePolicies> self(new OverridePolicies());
  self->options_ = options;
  self->host_ = std::move(host);
  self->recorder_ = std::move(recorder);
  if (!policyApiServed(*self->host_)) return self;
  self->namespaced_ =
      leasePolicies(informers, policy::overridePoliciesResource(), options.target_namespace);
  if (self->namespaced_ && options.target_namespace.empty()) {
    self->cluster_scoped_ = leasePolicies(informers, policy::clusterOverridePoliciesResource(), "");
  }
  return self;
}

OverridePolicies::~OverridePolicies() {
  cluster_scoped_.release();
  namespaced_.release();
}

bool OverridePolicies::synced() const {
  for (const InformerLease* lease : {&namespaced_, &cluster_scoped_}) {
    if (*lease && !(*lease)->hasSynced()) return false;
  }
  return true;
}

SourcePtr OverridePolicies::namespacedSource() const { return policySourceOver(namespaced_); }

SourcePtr OverridePolicies::clusterSource() const { return policySourceOver(cluster_scoped_); }

bool OverridePolicies::ofThisKind(const Json& policy_object) const {
  if (policy::resourceKindOf(policy_object) == options_.federated_kind) return true;
  MutexLock lock(mu_);
  return failures_.contains(policyDescription(policy_object));
}

Handler OverridePolicies::policyHandler(std::function<std::vector<std::string>()> keys) const {
  return enqueueMapped([this, keys = std::move(keys)](const Json& policy_object) {
           return ofThisKind(policy_object) ? keys() : std::vector<std::string>{};
         })
      .updatesWhen(policyChanged);
}

std::function<std::vector<std::string>()> OverridePolicies::whilePoliciesExist(
    std::function<std::vector<std::string>()> keys) const {
  return [this, keys = std::move(keys)] {
    for (const InformerLease* lease : {&namespaced_, &cluster_scoped_}) {
      if (!*lease) continue;
      for (const ObjectPtr& object : (*lease)->store().list()) {
        if (ofThisKind(*object)) return keys();
      }
    }
    return std::vector<std::string>{};
  };
}

std::vector<policy::OverridePolicy> OverridePolicies::current() {
  std::vector<policy::OverridePolicy> out;
  for (const InformerLease* lease : {&namespaced_, &cluster_scoped_}) {
    if (!*lease) continue;
    for (const ObjectPtr& object : (*lease)->store().list()) {
      if (policy::resourceKindOf(*object) != options_.federated_kind) continue;
      auto parsed = policy::parseOverridePolicy(*object);
      if (parsed) {
        out.push_back(std::move(parsed).value());
      } else {
        warnInvalid(*object, parsed.error().message);
      }
    }
  }
  return out;
}

void OverridePolicies::warnInvalid(const Json& policy_object, const std::string& error) {
  {
    MutexLock lock(mu_);
    if (!warned_invalid_.emplace(objectKey(policy_object), objectGeneration(policy_object))
             .second) {
      return;
    }
  }
  if (recorder_) {
    recorder_->event(referenceTo(policy_object), EventType::kWarning, kInvalidReason,
                     policyDescription(policy_object) + " is applied nowhere: " + error);
  }
  MutexLock lock(write_mu_);
  writeStatus(policy_object, invalidPolicyStatus(objectGeneration(policy_object), error));
}

ObjectPtr OverridePolicies::cachedPolicy(const std::string& description) const {
  for (const InformerLease* lease : {&namespaced_, &cluster_scoped_}) {
    if (!*lease) continue;
    for (const ObjectPtr& object : (*lease)->store().list()) {
      if (policyDescription(*object) == description) return object;
    }
  }
  return nullptr;
}

void OverridePolicies::writeStatus(const Json& policy_object, Json status) {
  const std::string description = policyDescription(policy_object);
  const auto written = written_.find(description);
  if (written != written_.end() && written->second == status) return;
  if (policy_object.value("status", Json()) == status) {
    written_[description] = std::move(status);
    return;
  }
  const bool namespaced = policy_object.value("kind", "") == policy::kOverridePolicyKind;
  ResourceClient policies(
      *host_,
      namespaced ? policy::overridePoliciesResource() : policy::clusterOverridePoliciesResource(),
      objectNamespace(policy_object));
  auto patched = policies.patch(objectName(policy_object), PatchType::kMerge,
                                Json{{"status", status}}.dump(), "status");
  if (!patched) {
    if (patched.error().reason != Reason::kNotFound) {
      spdlog::warn("Failed to write the status of {}: {}", description, patched.error().describe());
    }
    return;
  }
  written_[description] = std::move(status);
}

void OverridePolicies::record(const Json& federated_object, const PolicyPatches& patches,
                              const std::function<bool(const std::string&)>& exists) {
  const std::string object_key = objectKey(federated_object);
  std::set<std::string> concerned(patches.selecting.begin(), patches.selecting.end());
  std::vector<PolicyFailure> new_failures;
  {
    MutexLock lock(mu_);
    for (auto& [description, book] : failures_) {
      if (std::erase_if(book, [&](const auto& entry) { return entry.first.first == object_key; }) >
          0) {
        concerned.insert(description);
      }
    }
    for (const PolicyFailure& failure : patches.failures) {
      std::string& message = failures_[failure.policy][{object_key, failure.cluster}];
      if (message != failure.message) new_failures.push_back(failure);
      message = failure.message;
    }
    for (const std::string& description : patches.selecting) failures_.try_emplace(description);
  }
  for (const PolicyFailure& failure : new_failures) {
    const std::string message = failure.policy + " is left out of " +
                                federated_object.value("kind", "") + " " +
                                meta::goQuote(object_key) + " in cluster " +
                                meta::goQuote(failure.cluster) + ": " + failure.message;
    if (recorder_) {
      recorder_->event(referenceTo(federated_object), EventType::kWarning, kFailedReason, message);
      if (ObjectPtr policy_object = cachedPolicy(failure.policy)) {
        recorder_->event(referenceTo(*policy_object), EventType::kWarning, kFailedReason, message);
      }
    }
  }
  MutexLock write_lock(write_mu_);
  for (const std::string& description : concerned) {
    const ObjectPtr policy_object = cachedPolicy(description);
    PolicyFailureBook book;
    {
      MutexLock lock(mu_);
      if (!policy_object) {
        failures_.erase(description);
        continue;
      }
      std::erase_if(failures_[description],
                    [&](const auto& entry) { return !exists(entry.first.first); });
      book = failures_[description];
    }
    writeStatus(*policy_object, policyStatus(objectGeneration(*policy_object), book));
  }
}

}  // namespace kf::sync
