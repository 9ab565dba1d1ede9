#include "federation/crdgen/target_schema.h"

#include <gtest/gtest.h>

#include "federation/crdgen/type_config.h"
#include "tests/unit/crdgen/recorded_targets.h"

namespace kf {
namespace {

using namespace kf::test;

TEST(TargetSchemaTest, FindsTheKindByItsGroupVersionKindAndInlinesSpec) {
  auto schema =
      schemaFromOpenApiV3(openApiDocument(deployments(), replicatedSpec()), deployments());
  ASSERT_TRUE(schema);
  EXPECT_EQ((*schema)["properties"]["spec"], replicatedSpec());
  EXPECT_TRUE(declaresInt32Replicas(*schema));
}

TEST(TargetSchemaTest, MissesOtherKindsAndVersions) {
  const Json document = openApiDocument(deployments(), replicatedSpec());
  EXPECT_FALSE(schemaFromOpenApiV3(document, replicaSets()));
  ApiResourceInfo v1beta2 = deployments();
  v1beta2.version = "v1beta2";
  EXPECT_FALSE(schemaFromOpenApiV3(document, v1beta2));
  EXPECT_FALSE(schemaFromOpenApiV3(Json::object(), deployments()));
}

TEST(TargetSchemaTest, TakesTheFirstCrdVersion) {
  Json crd = widgetCrd();
  Json second = crd["spec"]["versions"][0];
  second["name"] = "v2";
  second["schema"]["openAPIV3Schema"] = {{"type", "object"}, {"description", "v2"}};
  crd["spec"]["versions"].push_back(second);
  auto schema = schemaFromCrd(crd);
  ASSERT_TRUE(schema);
  EXPECT_FALSE(schema->contains("description"));
  EXPECT_FALSE(schemaFromCrd(Json{{"spec", {{"versions", {{{"name", "v1"}}}}}}}));
}

TEST(TargetSchemaTest, NamesGvksAsKubefedErrorsDo) {
  EXPECT_EQ(gvkString(deployments()), "apps/v1, Kind=Deployment");
  EXPECT_EQ(gvkString(configMaps()), "/v1, Kind=ConfigMap");
  EXPECT_EQ(openApiV3Path(configMaps()), "/openapi/v3/api/v1");
  EXPECT_EQ(openApiV3Path(deployments()), "/openapi/v3/apis/apps/v1");
}

}  // namespace
}  // namespace kf
