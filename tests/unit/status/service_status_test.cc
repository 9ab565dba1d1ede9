// The legacy status controller's decisions (spec §2.6.2): which clusters a FederatedServiceStatus
// lists and when it is created or updated.

#include "status/service_status.h"

#include <gtest/gtest.h>

namespace kf::status {
namespace {

core::ApiResource serviceStatusType() {
  core::ApiResource type;
  type.group = "core.kubefed.io";
  type.version = "v1alpha1";
  type.kind = "FederatedServiceStatus";
  type.plural_name = "federatedservicestatuses";
  type.scope = "Namespaced";
  return type;
}

Json federatedService() {
  return Json::parse(R"({"apiVersion": "types.kubefed.io/v1beta1", "kind": "FederatedService",
      "metadata": {"name": "web", "namespace": "ns", "uid": "u-1", "resourceVersion": "7"}})");
}

ObjectPtr memberService(const Json& status) {
  Json service = {{"metadata", {{"name", "web"}, {"namespace", "ns"}}}};
  if (!status.is_null()) service["status"] = status;
  return makeObject(std::move(service));
}

// Verifies every ready cluster is listed once, sorted by name, with the member object's status;
// a cluster without the object (or an object without status) gets an entry without status.
TEST(ServiceStatusTest, ListsEveryReadyClusterSortedWithItsStatus) {
  const Json lb = {{"loadBalancer", {{"ingress", {{{"ip", "192.0.2.1"}}}}}}};
  const Json listed = clusterStatusOf({{"member2", memberService(Json::object())},
                                       {"member1", memberService(lb)},
                                       {"member3", nullptr},
                                       {"member0", memberService(Json())}});
  EXPECT_EQ(listed, Json::parse(R"([
      {"clusterName": "member0"},
      {"clusterName": "member1", "status": {"loadBalancer": {"ingress": [{"ip": "192.0.2.1"}]}}},
      {"clusterName": "member2", "status": {}},
      {"clusterName": "member3"}])"));
  EXPECT_EQ(clusterStatusOf({}), Json::array());
}

// Verifies the first status object carries the status type, the federated object's name and
// namespace, and an owner reference to it (so garbage collection removes it with its owner).
TEST(ServiceStatusTest, CreatesTheStatusObjectOwnedByTheFederatedObject) {
  const Json cluster_status = Json::parse(R"([{"clusterName": "member1", "status": {}}])");
  const StatusObjectPlan plan =
      planStatusObject(federatedService(), serviceStatusType(), nullptr, cluster_status);
  ASSERT_EQ(plan.write, StatusObjectWrite::kCreate);
  EXPECT_EQ(plan.object, Json::parse(R"({
      "apiVersion": "core.kubefed.io/v1alpha1", "kind": "FederatedServiceStatus",
      "metadata": {"name": "web", "namespace": "ns", "ownerReferences": [
        {"apiVersion": "types.kubefed.io/v1beta1", "kind": "FederatedService", "name": "web",
         "uid": "u-1"}]},
      "clusterStatus": [{"clusterName": "member1", "status": {}}]})"));
}

struct UpdateCase {
  const char* name;
  const char* stored;   // the cached status object's clusterStatus ("" = absent)
  const char* desired;  // the computed clusterStatus
  StatusObjectWrite expected;
};

class StatusObjectUpdateTest : public ::testing::TestWithParam<UpdateCase> {};

// Verifies a stored status object is rewritten only when its clusterStatus differs, and then
// keeps everything else as stored (metadata, resourceVersion, owner references).
TEST_P(StatusObjectUpdateTest, UpdatesOnlyWhenClusterStatusDiffers) {
  const UpdateCase& c = GetParam();
  Json existing = Json::parse(R"({"apiVersion": "core.kubefed.io/v1alpha1",
      "kind": "FederatedServiceStatus", "metadata": {"name": "web", "namespace": "ns",
      "resourceVersion": "41", "labels": {"keep": "me"}}})");
  if (*c.stored != '\0') existing["clusterStatus"] = Json::parse(c.stored);
  const Json desired = Json::parse(c.desired);
  const StatusObjectPlan plan =
      planStatusObject(federatedService(), serviceStatusType(), &existing, desired);
  EXPECT_EQ(plan.write, c.expected);
  if (c.expected == StatusObjectWrite::kUpdate) {
    Json expected = existing;
    expected["clusterStatus"] = desired;
    EXPECT_EQ(plan.object, expected);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, StatusObjectUpdateTest,
    ::testing::Values(
        UpdateCase{"Same", R"([{"clusterName": "a", "status": {"loadBalancer": {}}}])",
                   R"([{"clusterName": "a", "status": {"loadBalancer": {}}}])",
                   StatusObjectWrite::kNone},
        UpdateCase{
            "StatusChanged", R"([{"clusterName": "a", "status": {"loadBalancer": {}}}])",
            R"([{"clusterName": "a", "status": {"loadBalancer": {"ingress": [{"ip": "192.0.2.9"}]}}}])",
            StatusObjectWrite::kUpdate},
        UpdateCase{"ClusterAdded", R"([{"clusterName": "a", "status": {}}])",
                   R"([{"clusterName": "a", "status": {}}, {"clusterName": "b", "status": {}}])",
                   StatusObjectWrite::kUpdate},
        UpdateCase{"ClusterGone", R"([{"clusterName": "a", "status": {}}])", "[]",
                   StatusObjectWrite::kUpdate},
        UpdateCase{"AbsentBecomesEmpty", "", "[]", StatusObjectWrite::kUpdate},
        UpdateCase{"EmptyStaysEmpty", "[]", "[]", StatusObjectWrite::kNone}),
    [](const ::testing::TestParamInfo<UpdateCase>& param_info) {
      return std::string(param_info.param.name);
    });

}  // namespace
}  // namespace kf::status
