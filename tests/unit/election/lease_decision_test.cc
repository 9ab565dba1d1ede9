#include <gtest/gtest.h>

#include <regex>

#include "federation/election/identity.h"
#include "federation/election/leader_elector.h"

namespace kf {
namespace {

using std::chrono::seconds;

const SteadyTime kSeen{std::chrono::hours(1)};
const Duration kDefault = seconds(15);

LeaseObservation seen(const std::string& holder, std::int64_t duration_seconds) {
  return {LeaseRecord{.holder_identity = holder, .lease_duration_seconds = duration_seconds},
          kSeen};
}

struct DecisionCase {
  const char* name;
  std::optional<LeaseObservation> observed;
  Duration since_seen;
  LeaseAction expected;
};

TEST(DecideLeaseActionTest, Table) {
  const DecisionCase cases[] = {
      {"no lease", std::nullopt, seconds(0), LeaseAction::kCreate},
      {"mine", seen("me", 15), seconds(0), LeaseAction::kRenew},
      {"mine, long expired", seen("me", 15), seconds(100), LeaseAction::kRenew},
      {"released", seen("", 15), seconds(0), LeaseAction::kAcquire},
      {"other, fresh", seen("other", 15), seconds(0), LeaseAction::kWait},
      {"other, just before expiry", seen("other", 15), seconds(15) - Duration(1),
       LeaseAction::kWait},
      {"other, at expiry", seen("other", 15), seconds(15), LeaseAction::kAcquire},
      {"other, short lease", seen("other", 3), seconds(3), LeaseAction::kAcquire},
      {"other, long lease", seen("other", 60), seconds(30), LeaseAction::kWait},
      {"other, no duration uses ours", seen("other", 0), seconds(15), LeaseAction::kAcquire},
      {"other, no duration, fresh", seen("other", 0), seconds(14), LeaseAction::kWait},
  };
  for (const DecisionCase& c : cases) {
    EXPECT_EQ(decideLeaseAction(c.observed, kSeen + c.since_seen, "me", kDefault), c.expected)
        << c.name;
  }
}

TEST(NextLeaseRecordTest, CreateAcquireAndRenew) {
  const WallTime t0{seconds(1'700'000'000)};
  const LeaseRecord created = nextLeaseRecord(LeaseAction::kCreate, {}, "me", seconds(15), t0);
  EXPECT_EQ(created, (LeaseRecord{"me", 15, t0, t0, 0}));

  const LeaseRecord renewed =
      nextLeaseRecord(LeaseAction::kRenew, created, "me", seconds(15), t0 + seconds(5));
  EXPECT_EQ(renewed, (LeaseRecord{"me", 15, t0, t0 + seconds(5), 0}));

  const LeaseRecord other{"other", 10, t0, t0, 2};
  const LeaseRecord taken =
      nextLeaseRecord(LeaseAction::kAcquire, other, "me", std::chrono::milliseconds(2500), t0);
  EXPECT_EQ(taken, (LeaseRecord{"me", 3, t0, t0, 3}));
}

TEST(ValidateLeaderElectionConfigTest, AppliesKubeFedRules) {
  LeaderElectionConfig config;
  EXPECT_EQ(validateLeaderElectionConfig(config), "a lock is required");
  struct NoLock : ResourceLock {
    Result<VersionedLease> get() override { return VersionedLease{}; }
    Result<VersionedLease> create(const LeaseRecord&) override { return VersionedLease{}; }
    Result<VersionedLease> update(const LeaseRecord&, const std::string&) override {
      return VersionedLease{};
    }
    std::string describe() const override { return ""; }
  } lock;
  config.lock = &lock;
  config.identity = "me";
  EXPECT_EQ(validateLeaderElectionConfig(config), "");
  config.renew_deadline = seconds(15);
  EXPECT_EQ(validateLeaderElectionConfig(config),
            "leaseDuration must be greater than renewDeadline");
  config.renew_deadline = seconds(6);
  EXPECT_EQ(validateLeaderElectionConfig(config),
            "renewDeadline must be greater than retryPeriod*JitterFactor(1.2)");
  config.retry_period = Duration::zero();
  EXPECT_NE(validateLeaderElectionConfig(config), "");
}

TEST(MicroTimeTest, FormatsWithSixFractionalDigits) {
  const WallTime t = WallTime(seconds(1136214245)) + std::chrono::microseconds(7);
  EXPECT_EQ(formatMicroTime(t), "2006-01-02T15:04:05.000007Z");
  EXPECT_EQ(formatMicroTime(WallTime(seconds(1136214245))), "2006-01-02T15:04:05.000000Z");
}

TEST(MicroTimeTest, ParsesWithAndWithoutFraction) {
  const WallTime base{seconds(1136214245)};
  EXPECT_EQ(parseMicroTime("2006-01-02T15:04:05.000000Z"), base);
  EXPECT_EQ(parseMicroTime("2006-01-02T15:04:05Z"), base);
  EXPECT_EQ(parseMicroTime("2006-01-02T15:04:05.5Z"), base + std::chrono::milliseconds(500));
  EXPECT_EQ(parseMicroTime("2006-01-02T15:04:05.123456789Z"),
            base + std::chrono::microseconds(123456));
  EXPECT_EQ(parseMicroTime("garbage"), std::nullopt);
  EXPECT_EQ(parseMicroTime("2006-01-02T15:04:05.Z"), std::nullopt);
  EXPECT_EQ(parseMicroTime("2006-01-02T15:04:05+01:00"), std::nullopt);
}

TEST(LeaseJsonTest, RoundTripsTheSpec) {
  const WallTime t{seconds(1136214245)};
  const LeaseRecord record{"host_1234", 15, t, t + seconds(2), 4};
  const Json spec = leaseSpecToJson(record);
  EXPECT_EQ(spec["holderIdentity"], "host_1234");
  EXPECT_EQ(spec["leaseDurationSeconds"], 15);
  EXPECT_EQ(spec["acquireTime"], "2006-01-02T15:04:05.000000Z");
  EXPECT_EQ(spec["renewTime"], "2006-01-02T15:04:07.000000Z");
  EXPECT_EQ(spec["leaseTransitions"], 4);
  EXPECT_EQ(leaseRecordFromJson(Json{{"spec", spec}}), record);
  EXPECT_EQ(leaseRecordFromJson(Json{{"metadata", Json::object()}}), LeaseRecord{});
}

TEST(LeaderIdentityTest, IsHostnameUnderscoreUuid) {
  const std::string identity = makeLeaderIdentity();
  EXPECT_TRUE(std::regex_match(
      identity,
      std::regex(R"(.+_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12})")))
      << identity;
  EXPECT_NE(identity, makeLeaderIdentity());
}

}  // namespace
}  // namespace kf
