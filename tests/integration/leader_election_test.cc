// Leader election on a real coordination.k8s.io Lease, with two candidates in this process.

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <thread>

#include "federation/election/identity.h"
#include "federation/election/leader_elector.h"
#include "tests/integration/local_clusters.h"

namespace kf::integration {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr char kLockName[] = "kubefed-controller-manager";
constexpr auto kLeaseDuration = seconds(3);
constexpr auto kRenewDeadline = seconds(2);
constexpr auto kRetryPeriod = milliseconds(500);
// Long enough that a takeover within the generous waits below can only come from a release.
constexpr auto kLongLeaseDuration = seconds(120);

// The real lock, until crash(): then every call fails as if the process had died.
class CrashableLock final : public ResourceLock {
 public:
  CrashableLock(RestClient& client, const std::string& ns) : lock_(client, ns, kLockName) {}
  Result<VersionedLease> get() override {
    if (crashed_) return makeError(Reason::kConnectionFailed, "crashed");
    return lock_.get();
  }
  Result<VersionedLease> create(const LeaseRecord& record) override {
    if (crashed_) return makeError(Reason::kConnectionFailed, "crashed");
    return lock_.create(record);
  }
  Result<VersionedLease> update(const LeaseRecord& record, const std::string& version) override {
    if (crashed_) return makeError(Reason::kConnectionFailed, "crashed");
    return lock_.update(record, version);
  }
  std::string describe() const override { return lock_.describe(); }
  void crash() { crashed_ = true; }

 private:
  LeaseLock lock_;
  std::atomic<bool> crashed_{false};
};

class Candidate {
 public:
  Candidate(RestClient& client, const std::string& ns, bool release_on_cancel,
            Duration lease_duration = kLeaseDuration)
      : lock_(client, ns), identity_(makeLeaderIdentity()) {
    LeaderElectionConfig config{.lock = &lock_,
                                .identity = identity_,
                                .lease_duration = lease_duration,
                                .renew_deadline = kRenewDeadline,
                                .retry_period = kRetryPeriod,
                                .release_on_cancel = release_on_cancel};
    config.callbacks.on_started_leading = [this](std::stop_token token) {
      leading_ = true;
      while (!token.stop_requested()) std::this_thread::sleep_for(milliseconds(5));
      leading_ = false;
    };
    config.callbacks.on_stopped_leading = [this] { stopped_leading_ = true; };
    elector_ = std::make_unique<LeaderElector>(std::move(config), realClock());
    thread_ = std::jthread([this](std::stop_token token) {
      result_ = elector_->run(token);
      done_ = true;
    });
  }
  ~Candidate() { stop(); }

  void stop() {
    if (!thread_.joinable()) return;
    thread_.request_stop();
    thread_.join();
  }

  bool leading() const { return leading_; }
  bool done() const { return done_; }
  bool stoppedLeading() const { return stopped_leading_; }
  ElectionResult result() const { return result_; }
  const std::string& identity() const { return identity_; }
  void crash() { lock_.crash(); }

 private:
  CrashableLock lock_;
  std::string identity_;
  std::unique_ptr<LeaderElector> elector_;
  std::atomic<bool> leading_{false};
  std::atomic<bool> stopped_leading_{false};
  std::atomic<bool> done_{false};
  std::atomic<ElectionResult> result_{ElectionResult::kStopped};
  std::jthread thread_;
};

class LeaderElectionTest : public ::testing::Test {
 protected:
  LeaseRecord lease(const std::string& ns) {
    ResourceClient leases(*client_, kLeaseResource, ns);
    auto object = leases.get(kLockName);
    if (!object) return LeaseRecord{.holder_identity = "<" + object.error().describe() + ">"};
    return leaseRecordFromJson(object.value());
  }

  // Waits until exactly one of the two leads, checks the Lease names it and that the other
  // does not join in over a few renewals; returns the leader.
  Candidate* singleLeader(Candidate& a, Candidate& b, const std::string& ns) {
    if (!eventually([&] { return a.leading() || b.leading(); }, seconds(15))) return nullptr;
    const auto window_end = std::chrono::steady_clock::now() + kLeaseDuration;
    while (std::chrono::steady_clock::now() < window_end) {  // an observation window
      EXPECT_FALSE(a.leading() && b.leading());
      std::this_thread::sleep_for(milliseconds(20));
    }
    Candidate* leader = a.leading() ? &a : &b;
    EXPECT_TRUE(
        eventually([&] { return lease(ns).holder_identity == leader->identity(); }, seconds(5)));
    return leader;
  }

  std::unique_ptr<RestClient> client_ = LocalClusters::get().client("host");
};

TEST_F(LeaderElectionTest, OneLeadsAndTheOtherTakesOverAfterItCrashes) {
  TestNamespace ns(*client_, "leader-crash");
  Candidate a(*client_, ns.name(), /*release_on_cancel=*/false);
  Candidate b(*client_, ns.name(), /*release_on_cancel=*/false);
  Candidate* leader = singleLeader(a, b, ns.name());
  ASSERT_NE(leader, nullptr) << "nobody became leader";
  Candidate& follower = leader == &a ? b : a;
  const LeaseRecord before = lease(ns.name());
  EXPECT_EQ(before.lease_duration_seconds, 3);
  EXPECT_TRUE(before.acquire_time.has_value());
  EXPECT_TRUE(before.renew_time.has_value());

  const auto crashed_at = std::chrono::steady_clock::now();
  leader->crash();
  ASSERT_TRUE(eventually([&] { return follower.leading(); }, kLeaseDuration + seconds(30)));
  const auto takeover = std::chrono::steady_clock::now() - crashed_at;
  // The crashed leader's last renewal stays valid for a lease duration in the follower's eyes.
  EXPECT_GE(takeover, kLeaseDuration - 2 * kRetryPeriod);
  EXPECT_TRUE(eventually([&] { return lease(ns.name()).holder_identity == follower.identity(); },
                         seconds(5)));
  EXPECT_EQ(lease(ns.name()).lease_transitions, before.lease_transitions + 1);

  // The crashed one could not renew within the renew deadline: it gave up, controllers stopped.
  ASSERT_TRUE(eventually([&] { return leader->done(); }, seconds(5)));
  EXPECT_EQ(leader->result(), ElectionResult::kLost);
  EXPECT_TRUE(leader->stoppedLeading());
  EXPECT_FALSE(leader->leading());
}

TEST_F(LeaderElectionTest, AReleasedLeaseIsTakenOverPromptly) {
  TestNamespace ns(*client_, "leader-release");
  Candidate a(*client_, ns.name(), /*release_on_cancel=*/true, kLongLeaseDuration);
  Candidate b(*client_, ns.name(), /*release_on_cancel=*/true, kLongLeaseDuration);
  Candidate* leader = singleLeader(a, b, ns.name());
  ASSERT_NE(leader, nullptr) << "nobody became leader";
  Candidate& follower = leader == &a ? b : a;

  leader->stop();
  EXPECT_EQ(leader->result(), ElectionResult::kStopped);
  EXPECT_TRUE(leader->stoppedLeading());
  // A generous wait, yet a fraction of the lease: the follower can only lead this soon because
  // it saw the lease released, not expired.
  ASSERT_TRUE(eventually([&] { return follower.leading(); }, kLongLeaseDuration / 4));
  EXPECT_TRUE(eventually([&] { return lease(ns.name()).holder_identity == follower.identity(); },
                         seconds(5)));
}

TEST_F(LeaderElectionTest, LeaseLockWritesAreCompareAndSwap) {
  TestNamespace ns(*client_, "leader-cas");
  LeaseLock lock(*client_, ns.name(), kLockName);
  auto missing = lock.get();
  ASSERT_FALSE(missing);
  EXPECT_TRUE(isNotFound(missing.error()));

  const WallTime now = std::chrono::system_clock::now();
  const LeaseRecord mine{"me", 15, now, now, 0};
  auto created = lock.create(mine);
  ASSERT_TRUE(created) << created.error().describe();
  // MicroTime keeps microseconds through the server.
  EXPECT_EQ(created.value().record.renew_time,
            std::chrono::time_point_cast<std::chrono::microseconds>(now));
  auto again = lock.create(mine);
  ASSERT_FALSE(again);
  EXPECT_TRUE(isAlreadyExists(again.error()));

  LeaseRecord renewed = created.value().record;
  renewed.renew_time = now + seconds(1);
  auto updated = lock.update(renewed, created.value().resource_version);
  ASSERT_TRUE(updated) << updated.error().describe();
  EXPECT_EQ(lock.get().value().record, updated.value().record);

  auto stale = lock.update(mine, created.value().resource_version);
  ASSERT_FALSE(stale);
  EXPECT_TRUE(isConflict(stale.error())) << stale.error().describe();
}

}  // namespace
}  // namespace kf::integration
