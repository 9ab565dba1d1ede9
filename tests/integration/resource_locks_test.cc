// Every lock type KubeFedConfig's spec.leaderElect.resourceLock names, on a real API server: the
// objects and the record format KubeFed's Go replicas use, one leader at a time, and a record a
// Go replica wrote that keeps us waiting until it expires.

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <thread>

#include "federation/election/annotation_lock.h"
#include "federation/election/identity.h"
#include "federation/election/leader_elector.h"
#include "federation/election/leader_record.h"
#include "federation/election/lock_types.h"
#include "tests/integration/local_clusters.h"

namespace kf::integration {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr char kKubeFedLockName[] = "kubefed-controller-manager";
constexpr auto kLockLeaseDuration = seconds(3);
constexpr auto kLockRenewDeadline = seconds(2);
constexpr auto kLockRetryPeriod = milliseconds(500);

// One of our candidates on a lock of the given type.
class LockCandidate {
 public:
  LockCandidate(RestClient& client, const std::string& ns, std::string_view type)
      : identity_(makeLeaderIdentity()) {
    auto lock = makeResourceLock(type, client, ns, kKubeFedLockName, identity_);
    EXPECT_TRUE(lock) << lock.error().describe();
    lock_ = std::move(lock).value();
    LeaderElectionConfig config{.lock = lock_.get(),
                                .identity = identity_,
                                .lease_duration = kLockLeaseDuration,
                                .renew_deadline = kLockRenewDeadline,
                                .retry_period = kLockRetryPeriod,
                                .release_on_cancel = true};
    config.callbacks.on_started_leading = [this](std::stop_token token) {
      leading_ = true;
      while (!token.stop_requested()) std::this_thread::sleep_for(milliseconds(5));
      leading_ = false;
    };
    elector_ = std::make_unique<LeaderElector>(std::move(config), realClock());
    thread_ = std::jthread([this](std::stop_token token) { (void)elector_->run(token); });
  }
  ~LockCandidate() { stop(); }

  void stop() {
    if (!thread_.joinable()) return;
    thread_.request_stop();
    thread_.join();
  }
  bool leading() const { return leading_; }
  const std::string& identity() const { return identity_; }

 private:
  std::string identity_;
  std::unique_ptr<ResourceLock> lock_;
  std::unique_ptr<LeaderElector> elector_;
  std::atomic<bool> leading_{false};
  std::jthread thread_;
};

class ResourceLockTest : public testing::TestWithParam<std::string> {
 protected:
  // The record in the ConfigMap's or Endpoints' annotation; the holder says what went wrong.
  LeaseRecord annotationRecord(const GroupVersionResource& resource, const std::string& ns) {
    auto object = ResourceClient(*client_, resource, ns).get(kKubeFedLockName);
    if (!object) return {.holder_identity = "<" + object.error().describe() + ">"};
    const std::string raw = object.value()["metadata"]["annotations"].value(kLeaderAnnotation, "");
    auto record = decodeLeaderRecord(raw);
    return record ? record.value() : LeaseRecord{.holder_identity = "<" + raw + ">"};
  }
  LeaseRecord leaseRecord(const std::string& ns) {
    auto lease = ResourceClient(*client_, kLeaseResource, ns).get(kKubeFedLockName);
    if (!lease) return {.holder_identity = "<" + lease.error().describe() + ">"};
    return leaseRecordFromJson(lease.value());
  }

  // The holder every object of the lock type names ("" when they disagree).
  std::string holder(const std::string& type, const std::string& ns) {
    std::vector<LeaseRecord> records;
    if (type == "configmaps" || type == "configmapsleases") {
      records.push_back(annotationRecord(kConfigMapResource, ns));
    }
    if (type == "endpoints" || type == "endpointsleases") {
      records.push_back(annotationRecord(kEndpointsResource, ns));
    }
    if (type.find("leases") != std::string::npos) records.push_back(leaseRecord(ns));
    for (const auto& record : records) {
      if (record.holder_identity != records.front().holder_identity) return "";
    }
    return records.front().holder_identity;
  }

  std::unique_ptr<RestClient> client_ = LocalClusters::get().client("host");
};

std::string lockTypeName(const testing::TestParamInfo<std::string>& param) { return param.param; }

// Verifies two of our candidates on one lock type: exactly one leads (never both, over several
// renewals), every object of the type names it, and on release the other takes over.
//
// On a two-object lock (configmapsleases, endpointsleases) the second candidate starts once the
// first leads. Two that create the lock at the same instant can each create one of its objects
// (as client-go's MultiLock, creating goes on past an existing first object), so the objects name
// different holders; the one that believed it had acquired loses at its first renewal and stops,
// as KubeFed's controller manager would, and no second candidate is left to take over.
TEST_P(ResourceLockTest, OneOfTwoLeadsAndTheOtherTakesOverOnRelease) {
  TestNamespace ns(*client_, "lock-" + GetParam());
  const bool two_objects = GetParam().ends_with("leases") && GetParam() != "leases";
  LockCandidate a(*client_, ns.name(), GetParam());
  if (two_objects) {
    ASSERT_TRUE(eventually([&] { return a.leading(); }, seconds(15)));
  }
  LockCandidate b(*client_, ns.name(), GetParam());
  ASSERT_TRUE(eventually([&] { return a.leading() || b.leading(); }, seconds(15)));
  const auto window_end = std::chrono::steady_clock::now() + 2 * kLockLeaseDuration;
  while (std::chrono::steady_clock::now() < window_end) {
    ASSERT_FALSE(a.leading() && b.leading()) << "both lead";
    std::this_thread::sleep_for(milliseconds(20));
  }
  LockCandidate& leader = a.leading() ? a : b;
  LockCandidate& follower = a.leading() ? b : a;
  EXPECT_TRUE(eventually([&] { return holder(GetParam(), ns.name()) == leader.identity(); }))
      << holder(GetParam(), ns.name());

  leader.stop();
  EXPECT_TRUE(eventually([&] { return follower.leading(); }, kLockLeaseDuration));
  EXPECT_TRUE(eventually([&] { return holder(GetParam(), ns.name()) == follower.identity(); }));
}

INSTANTIATE_TEST_SUITE_P(Types, ResourceLockTest,
                         testing::Values("configmaps", "endpoints", "leases", "configmapsleases",
                                         "endpointsleases"),
                         lockTypeName);

class GoReplicaRecordTest : public ResourceLockTest {};

// Verifies a record as a KubeFed Go replica writes it (held, renewed just now, for 6 s: longer
// than our own 3 s lease) keeps our candidate waiting until it expires by our clock, and that we
// then take it over as a new term in the same format. For configmapsleases, the Go replica is
// an old one that only knows the ConfigMap.
TEST_P(GoReplicaRecordTest, BlocksUsUntilItExpires) {
  TestNamespace ns(*client_, "gorecord-" + GetParam());
  const auto now = std::chrono::system_clock::now();
  const LeaseRecord go_record{.holder_identity = "kubefed-controller-manager-5f7c_9a1e",
                              .lease_duration_seconds = 6,
                              .acquire_time = now - seconds(60),
                              .renew_time = now,
                              .lease_transitions = 4};
  Json object;
  GroupVersionResource resource = kConfigMapResource;
  if (GetParam() == "leases") {
    resource = kLeaseResource;
    object = {{"apiVersion", "coordination.k8s.io/v1"},
              {"kind", "Lease"},
              {"spec", leaseSpecToJson(go_record)}};
  } else {
    const bool endpoints = GetParam() == "endpoints";
    resource = endpoints ? kEndpointsResource : kConfigMapResource;
    object = {{"apiVersion", "v1"},
              {"kind", endpoints ? "Endpoints" : "ConfigMap"},
              {"metadata",
               {{"annotations",
                 {{kLeaderAnnotation, encodeLeaderRecord(go_record)}, {"kept", "by the lock"}}}}}};
  }
  object["metadata"]["name"] = kKubeFedLockName;
  ASSERT_TRUE(ResourceClient(*client_, resource, ns.name()).create(object));

  const auto started = std::chrono::steady_clock::now();
  LockCandidate ours(*client_, ns.name(), GetParam());
  ASSERT_TRUE(eventually([&] { return ours.leading(); }, seconds(6) + seconds(4)));
  // Counted from when we first read the record, after `started`.
  EXPECT_GE(std::chrono::steady_clock::now() - started, seconds(6));
  EXPECT_TRUE(eventually([&] { return holder(GetParam(), ns.name()) == ours.identity(); }));

  const LeaseRecord taken =
      GetParam() == "leases" ? leaseRecord(ns.name()) : annotationRecord(resource, ns.name());
  EXPECT_EQ(taken.lease_transitions, 5);
  EXPECT_EQ(taken.lease_duration_seconds, 3);
  if (GetParam() != "leases") {
    auto stored = ResourceClient(*client_, resource, ns.name()).get(kKubeFedLockName);
    ASSERT_TRUE(stored);
    EXPECT_EQ(stored.value()["metadata"]["annotations"].value("kept", ""), "by the lock");
    // Go's field order and whole-second times, as a Go replica would have written it.
    const std::string raw = stored.value()["metadata"]["annotations"][kLeaderAnnotation];
    EXPECT_EQ(
        raw.rfind("{\"holderIdentity\":\"" + ours.identity() + "\",\"leaseDurationSeconds\":3,", 0),
        0u)
        << raw;
  }
}

INSTANTIATE_TEST_SUITE_P(Types, GoReplicaRecordTest,
                         testing::Values("configmaps", "endpoints", "leases", "configmapsleases"),
                         lockTypeName);

}  // namespace
}  // namespace kf::integration
