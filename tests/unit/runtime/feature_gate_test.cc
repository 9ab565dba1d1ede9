#include "federation/runtime/feature_gate.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace kf {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr std::string_view kPush = features::kPushReconciler;
constexpr std::string_view kSched = features::kSchedulerPreferences;
constexpr std::string_view kRaw = features::kRawResourceStatusCollection;

// A registry with one gate of every kind, for the generic semantics.
FeatureGate testGates() {
  FeatureGate gate;
  const Status added = gate.add({
      {"AlphaOff", {false, PreRelease::kAlpha, false}},
      {"AlphaOn", {true, PreRelease::kAlpha, false}},
      {"BetaOff", {false, PreRelease::kBeta, false}},
      {"BetaOn", {true, PreRelease::kBeta, false}},
      {"GaOn", {true, PreRelease::kGA, false}},
      {"GaLocked", {true, PreRelease::kGA, true}},
      {"Old", {false, PreRelease::kDeprecated, false}},
  });
  EXPECT_FALSE(added.has_error());
  return gate;
}

std::string errorOf(const Status& status) {
  return status.has_error() ? status.error().message : std::string("<no error>");
}

TEST(FeatureGateTest, KubeFedDefaultsMatchSpec) {
  const FeatureGate gate = kubefedFeatureGates();
  EXPECT_TRUE(gate.enabled(kPush));
  EXPECT_TRUE(gate.enabled(kSched));
  EXPECT_FALSE(gate.enabled(kRaw));
  EXPECT_FALSE(gate.enabled(kAllAlphaGate));
  EXPECT_FALSE(gate.enabled(kAllBetaGate));
  EXPECT_TRUE(gate.known(kRaw));
  EXPECT_EQ(gate.toString(), "");
}

TEST(FeatureGateTest, UnknownGateIsDisabledNotFatal) {
  const FeatureGate gate = kubefedFeatureGates();
  EXPECT_FALSE(gate.enabled("CrossClusterServiceDiscovery"));
  EXPECT_FALSE(gate.known("CrossClusterServiceDiscovery"));
}

TEST(FeatureGateTest, ParsesFlagValue) {
  FeatureGate gate = kubefedFeatureGates();
  const Status st = gate.setFromFlag(" PushReconciler = false ,RawResourceStatusCollection=T,");
  ASSERT_FALSE(st.has_error()) << errorOf(st);
  EXPECT_FALSE(gate.enabled(kPush));
  EXPECT_TRUE(gate.enabled(kRaw));
  EXPECT_TRUE(gate.enabled(kSched));
  EXPECT_EQ(gate.toString(), "PushReconciler=false,RawResourceStatusCollection=true");
}

TEST(FeatureGateTest, AcceptsEveryGoBoolSpellingAndLastRepeatWins) {
  for (const char* yes : {"1", "t", "T", "TRUE", "true", "True"}) {
    FeatureGate gate = kubefedFeatureGates();
    ASSERT_FALSE(gate.setFromFlag(std::string("RawResourceStatusCollection=") + yes).has_error())
        << yes;
    EXPECT_TRUE(gate.enabled(kRaw)) << yes;
  }
  for (const char* no : {"0", "f", "F", "FALSE", "false", "False"}) {
    FeatureGate gate = kubefedFeatureGates();
    ASSERT_FALSE(gate.setFromFlag(std::string("PushReconciler=") + no).has_error()) << no;
    EXPECT_FALSE(gate.enabled(kPush)) << no;
  }
  FeatureGate gate = kubefedFeatureGates();
  ASSERT_FALSE(gate.setFromFlag("PushReconciler=false,PushReconciler=true").has_error());
  EXPECT_TRUE(gate.enabled(kPush));
}

TEST(FeatureGateTest, EmptyFlagChangesNothing) {
  FeatureGate gate = kubefedFeatureGates();
  ASSERT_FALSE(gate.setFromFlag("").has_error());
  ASSERT_FALSE(gate.setFromFlag(",,").has_error());
  EXPECT_EQ(gate.toString(), "");
  EXPECT_TRUE(gate.enabled(kPush));
}

TEST(FeatureGateTest, RejectsMissingValue) {
  FeatureGate gate = kubefedFeatureGates();
  const Status st = gate.setFromFlag("PushReconciler=false,SchedulerPreferences");
  ASSERT_TRUE(st.has_error());
  EXPECT_EQ(st.error().message, "missing bool value for SchedulerPreferences");
  EXPECT_EQ(st.error().reason, Reason::kBadConfig);
  // All-or-nothing: the valid first item was not applied.
  EXPECT_TRUE(gate.enabled(kPush));
}

TEST(FeatureGateTest, RejectsNonBoolValue) {
  FeatureGate gate = kubefedFeatureGates();
  EXPECT_EQ(errorOf(gate.setFromFlag("PushReconciler=yes")),
            "invalid value of PushReconciler=yes, err: strconv.ParseBool: parsing \"yes\": "
            "invalid syntax");
  EXPECT_EQ(errorOf(gate.setFromFlag("PushReconciler=")),
            "invalid value of PushReconciler=, err: strconv.ParseBool: parsing \"\": invalid "
            "syntax");
  EXPECT_EQ(errorOf(gate.setFromFlag("PushReconciler=a\"b")),
            "invalid value of PushReconciler=a\"b, err: strconv.ParseBool: parsing \"a\\\"b\": "
            "invalid syntax");
  EXPECT_EQ(errorOf(gate.setFromFlag(" ")), "missing bool value for ");
  EXPECT_TRUE(gate.enabled(kPush));
}

TEST(FeatureGateTest, RejectsUnknownGateAtomically) {
  FeatureGate gate = kubefedFeatureGates();
  const Status st = gate.set({{"PushReconciler", false}, {"Bogus", true}});
  EXPECT_EQ(errorOf(st), "unrecognized feature gate: Bogus");
  EXPECT_TRUE(gate.enabled(kPush));
  EXPECT_EQ(errorOf(gate.setFromFlag("Bogus=true")), "unrecognized feature gate: Bogus");
  // Names are case-sensitive, as in kube.
  EXPECT_EQ(errorOf(gate.setFromFlag("pushreconciler=true")),
            "unrecognized feature gate: pushreconciler");
}

TEST(FeatureGateTest, LockedGateOnlyAcceptsItsDefault) {
  FeatureGate gate = testGates();
  EXPECT_EQ(errorOf(gate.setFromFlag("GaLocked=false")),
            "cannot set feature gate GaLocked to false, feature is locked to true");
  EXPECT_TRUE(gate.enabled("GaLocked"));
  std::vector<std::string> warnings;
  ASSERT_FALSE(gate.setFromFlag("GaLocked=true", &warnings).has_error());
  EXPECT_TRUE(gate.enabled("GaLocked"));
  EXPECT_THAT(warnings, ElementsAre("Setting GA feature gate GaLocked=true. It will be removed in "
                                    "a future release."));
}

TEST(FeatureGateTest, AllAlphaSetsOnlyUnsetAlphaGates) {
  FeatureGate gate = testGates();
  ASSERT_FALSE(gate.setFromFlag("AllAlpha=false").has_error());
  EXPECT_FALSE(gate.enabled("AlphaOn"));
  EXPECT_FALSE(gate.enabled("AlphaOff"));
  EXPECT_TRUE(gate.enabled("BetaOn"));
  EXPECT_TRUE(gate.enabled("GaOn"));

  FeatureGate other = testGates();
  ASSERT_FALSE(other.setFromFlag("AllAlpha=true").has_error());
  EXPECT_TRUE(other.enabled("AlphaOff"));
  EXPECT_FALSE(other.enabled("BetaOff"));
  EXPECT_FALSE(other.enabled("Old"));
  EXPECT_TRUE(other.enabled(kAllAlphaGate));
}

TEST(FeatureGateTest, ExplicitValueBeatsAllBetaInEitherOrder) {
  for (const char* flag : {"AllBeta=true,BetaOff=false", "BetaOff=false,AllBeta=true"}) {
    FeatureGate gate = testGates();
    ASSERT_FALSE(gate.setFromFlag(flag).has_error()) << flag;
    EXPECT_FALSE(gate.enabled("BetaOff")) << flag;
    EXPECT_TRUE(gate.enabled("BetaOn")) << flag;
    EXPECT_FALSE(gate.enabled("AlphaOff")) << flag;
    EXPECT_TRUE(gate.enabled(kAllBetaGate)) << flag;
  }
  // A value set by an earlier call also counts as explicit.
  FeatureGate gate = kubefedFeatureGates();
  ASSERT_FALSE(gate.setFromFlag("PushReconciler=false").has_error());
  ASSERT_FALSE(gate.setFromFlag("AllBeta=true").has_error());
  EXPECT_FALSE(gate.enabled(kPush));
  EXPECT_TRUE(gate.enabled(kRaw));
  EXPECT_TRUE(gate.enabled(kSched));
}

TEST(FeatureGateTest, AllAlphaAndAllBetaTogether) {
  FeatureGate gate = kubefedFeatureGates();
  ASSERT_FALSE(gate.setFromFlag("AllAlpha=false,AllBeta=true").has_error());
  EXPECT_FALSE(gate.enabled(kSched));
  EXPECT_TRUE(gate.enabled(kRaw));
  EXPECT_TRUE(gate.enabled(kPush));
}

TEST(FeatureGateTest, WarnsWhenSettingGaOrDeprecatedGates) {
  FeatureGate gate = testGates();
  std::vector<std::string> warnings;
  ASSERT_FALSE(
      gate.set({{"Old", false}, {"GaOn", true}, {"BetaOn", false}}, &warnings).has_error());
  EXPECT_THAT(warnings,
              ElementsAre("Setting GA feature gate GaOn=true. It will be removed in a future "
                          "release.",
                          "Setting deprecated feature gate Old=false. It will be removed in a "
                          "future release."));
  // Warnings accumulate across calls; a failing call adds none.
  EXPECT_TRUE(gate.setFromFlag("GaOn=false,Bogus=true", &warnings).has_error());
  EXPECT_EQ(warnings.size(), 2u);
  ASSERT_FALSE(gate.setFromFlag("AlphaOn=false", &warnings).has_error());
  EXPECT_EQ(warnings.size(), 2u);
}

TEST(FeatureGateTest, ConfigThenFlagPrecedence) {
  FeatureGate gate = kubefedFeatureGates();
  const Status st = applyKubeFedConfigThenFlag(gate,
                                               {{"PushReconciler", "Disabled"},
                                                {"SchedulerPreferences", "Disabled"},
                                                {"RawResourceStatusCollection", "Enabled"}},
                                               "SchedulerPreferences=true");
  ASSERT_FALSE(st.has_error()) << errorOf(st);
  EXPECT_FALSE(gate.enabled(kPush));  // from KubeFedConfig
  EXPECT_TRUE(gate.enabled(kRaw));    // from KubeFedConfig
  EXPECT_TRUE(gate.enabled(kSched));  // the flag wins
  EXPECT_FALSE(gate.enabled(kAllAlphaGate));
}

TEST(FeatureGateTest, ConfigOnlyAndEmptyConfig) {
  FeatureGate gate = kubefedFeatureGates();
  ASSERT_FALSE(applyKubeFedConfigThenFlag(gate, {{"PushReconciler", "Disabled"}}, "").has_error());
  EXPECT_FALSE(gate.enabled(kPush));
  FeatureGate other = kubefedFeatureGates();
  ASSERT_FALSE(
      applyKubeFedConfigThenFlag(other, {}, "RawResourceStatusCollection=true").has_error());
  EXPECT_TRUE(other.enabled(kRaw));
  EXPECT_TRUE(other.enabled(kPush));
}

TEST(FeatureGateTest, ConfigErrorsNameTheGateAndChangeNothing) {
  FeatureGate gate = kubefedFeatureGates();
  Status st = applyKubeFedConfigThenFlag(
      gate, {{"PushReconciler", "Disabled"}, {"RawResourceStatusCollection", "enabled"}}, "");
  ASSERT_TRUE(st.has_error());
  EXPECT_EQ(st.error().reason, Reason::kBadConfig);
  EXPECT_THAT(st.error().message, HasSubstr("RawResourceStatusCollection"));
  EXPECT_THAT(st.error().message, HasSubstr("\"enabled\""));
  EXPECT_TRUE(gate.enabled(kPush));

  st = applyKubeFedConfigThenFlag(gate, {{"FederatedIngress", "Enabled"}}, "");
  EXPECT_EQ(errorOf(st), "unrecognized feature gate: FederatedIngress");

  // A bad flag also leaves the KubeFedConfig values unapplied.
  st = applyKubeFedConfigThenFlag(gate, {{"PushReconciler", "Disabled"}}, "Nope=true");
  EXPECT_EQ(errorOf(st), "unrecognized feature gate: Nope");
  EXPECT_TRUE(gate.enabled(kPush));
  EXPECT_EQ(gate.toString(), "");
}

TEST(FeatureGateTest, KnownFeaturesFormatsLikeKubeHelp) {
  const FeatureGate gate = kubefedFeatureGates();
  EXPECT_EQ(gate.knownFeatures(),
            "AllAlpha=true|false (ALPHA - default=false)\n"
            "AllBeta=true|false (BETA - default=false)\n"
            "PushReconciler=true|false (BETA - default=true)\n"
            "RawResourceStatusCollection=true|false (BETA - default=false)\n"
            "SchedulerPreferences=true|false (ALPHA - default=true)");
}

TEST(FeatureGateTest, KnownFeaturesOmitsGaAndDeprecatedAndSortsWholeLines) {
  FeatureGate gate;
  ASSERT_FALSE(gate.add({{"A", {false, PreRelease::kAlpha, false}},
                         {"A1", {true, PreRelease::kBeta, false}},
                         {"Done", {true, PreRelease::kGA, true}},
                         {"Gone", {false, PreRelease::kDeprecated, false}}})
                   .has_error());
  // "A1=..." sorts before "A=..." because '1' < '=' in byte order, as Go's sort.Strings.
  EXPECT_THAT(gate.knownFeatureList(), ElementsAre("A1=true|false (BETA - default=true)",
                                                   "A=true|false (ALPHA - default=false)",
                                                   "AllAlpha=true|false (ALPHA - default=false)",
                                                   "AllBeta=true|false (BETA - default=false)"));
}

TEST(FeatureGateTest, AddRejectsConflictingSpec) {
  FeatureGate gate = kubefedFeatureGates();
  EXPECT_FALSE(gate.add({{"PushReconciler", {true, PreRelease::kBeta, false}}}).has_error());
  const Status st = gate.add({{"Zeta", {false, PreRelease::kAlpha, false}},
                              {"PushReconciler", {false, PreRelease::kGA, true}}});
  EXPECT_EQ(errorOf(st),
            "feature gate \"PushReconciler\" with different spec already exists: "
            "{true false BETA}");
  EXPECT_FALSE(gate.known("Zeta"));
}

TEST(FeatureGateTest, CopiesAreIndependent) {
  FeatureGate gate = kubefedFeatureGates();
  FeatureGate copy = gate;
  ASSERT_FALSE(copy.setFromFlag("PushReconciler=false").has_error());
  EXPECT_TRUE(gate.enabled(kPush));
  EXPECT_FALSE(copy.enabled(kPush));
  gate = copy;
  EXPECT_FALSE(gate.enabled(kPush));
  EXPECT_THAT(kubefedFeatureGates().toString(), IsEmpty());
}

TEST(FeatureGateTest, ConcurrentReadsSeeConsistentValues) {
  FeatureGate gate = kubefedFeatureGates();
  std::vector<std::thread> readers;
  std::atomic<int> wrong{0};
  for (int i = 0; i < 4; ++i) {
    readers.emplace_back([&] {
      for (int j = 0; j < 2000; ++j) {
        if (!gate.enabled(kSched)) ++wrong;
        (void)gate.enabled(kRaw);
      }
    });
  }
  for (int j = 0; j < 200; ++j) {
    ASSERT_FALSE(gate.setFromFlag(j % 2 ? "RawResourceStatusCollection=true"
                                        : "RawResourceStatusCollection=false")
                     .has_error());
  }
  for (auto& t : readers) t.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
}  // namespace kf
