// The diff `kubefedctl plan` prints for a member object, and the masking of a Secret's values
// in it (kubectl diff's).

#include "cmd/kubefedctl/member_diff.h"

#include <gtest/gtest.h>

#include <string>

#include "federation/client/base64.h"

namespace kf::kubefedctl {
namespace {

const core::ApiResource kSecret{.group = "", .version = "v1", .kind = "Secret"};
const core::ApiResource kConfigMap{.group = "", .version = "v1", .kind = "ConfigMap"};

Json secret(const Json& data) {
  return {{"apiVersion", "v1"},
          {"kind", "Secret"},
          {"metadata", {{"name", "s"}, {"namespace", "n"}, {"resourceVersion", "7"}}},
          {"type", "Opaque"},
          {"data", data}};
}

// Verifies kubectl diff's markers: a changed key "*** (before)" / "*** (after)", an unchanged
// key "***" on both sides (so no line of the diff), keys on one side only "***".
TEST(MaskSecretValuesTest, MarksChangesWithoutValues) {
  Json live = secret({{"changed", "b2xk"}, {"same", "c2FtZQ=="}, {"removed", "Z29uZQ=="}});
  Json written = secret({{"changed", "bmV3"}, {"same", "c2FtZQ=="}, {"added", "YWRkZWQ="}});
  maskSecretValues(live, written);
  EXPECT_EQ(live["data"], Json({{"changed", "*** (before)"}, {"same", "***"}, {"removed", "***"}}));
  EXPECT_EQ(written["data"], Json({{"changed", "*** (after)"}, {"same", "***"}, {"added", "***"}}));
}

// Verifies stringData and kubectl's last-applied-configuration annotation are masked too, and
// that a creation (no live object) is masked on its one side.
TEST(MaskSecretValuesTest, MasksStringDataAndLastAppliedAndCreations) {
  Json live = secret({{"k", "djE="}});
  live["metadata"]["annotations"] = {
      {"kubectl.kubernetes.io/last-applied-configuration", R"({"data":{"k":"djE="}})"},
      {"other", "kept"}};
  Json written = live;
  written["stringData"] = {{"password", "plain-text"}};
  written["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"] =
      R"({"data":{"k":"djI="}})";
  maskSecretValues(live, written);
  EXPECT_EQ(written["stringData"], Json({{"password", "***"}}));
  EXPECT_EQ(live["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"],
            "*** (before)");
  EXPECT_EQ(written["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"],
            "*** (after)");
  EXPECT_EQ(written["metadata"]["annotations"]["other"], "kept");

  Json none;
  Json created = secret({{"k", "djE="}});
  maskSecretValues(none, created);
  EXPECT_TRUE(none.is_null());
  EXPECT_EQ(created["data"], Json({{"k", "***"}}));
}

// Verifies the printed diff of a Secret whose one value changes: the change shows as the
// masks, and neither value appears in any form.
TEST(MemberDiffTest, ASecretsDiffShowsTheChangedKeyButNoValue) {
  const std::string old_value = "old-password-1f2e";
  const std::string new_value = "new-password-9a8b";
  const std::string same_value = "same-user-77c1";
  const Json live =
      secret({{"password", base64Encode(old_value)}, {"user", base64Encode(same_value)}});
  const Json written =
      secret({{"password", base64Encode(new_value)}, {"user", base64Encode(same_value)}});
  const std::string diff = memberDiff(kSecret, live, written, "member1: Secret n/s");
  EXPECT_NE(diff.find("-  password: '*** (before)'"), std::string::npos) << diff;
  EXPECT_NE(diff.find("+  password: '*** (after)'"), std::string::npos) << diff;
  for (const std::string& value : {old_value, new_value, same_value}) {
    EXPECT_EQ(diff.find(value), std::string::npos) << value << " in\n" << diff;
    EXPECT_EQ(diff.find(base64Encode(value)), std::string::npos) << value << " in\n" << diff;
  }
  // Unchanged values give no diff at all, as in kubectl diff.
  EXPECT_EQ(memberDiff(kSecret, live, live, "member1: Secret n/s"), "");
}

// Verifies other kinds are shown as they are.
TEST(MemberDiffTest, AConfigMapsValuesAreShown) {
  Json live = secret({{"k", "v1"}});
  live["kind"] = "ConfigMap";
  Json written = live;
  written["data"]["k"] = "v2";
  const std::string diff = memberDiff(kConfigMap, live, written, "member1: ConfigMap n/s");
  EXPECT_NE(diff.find("-  k: v1"), std::string::npos) << diff;
  EXPECT_NE(diff.find("+  k: v2"), std::string::npos) << diff;
  EXPECT_EQ(diff.find("resourceVersion"), std::string::npos) << diff;
}

}  // namespace
}  // namespace kf::kubefedctl
