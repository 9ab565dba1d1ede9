// The chart's default federated types (charts/kubefed/crds/crds.yaml and
// charts/kubefed/templates/federatedtypeconfig.yaml) are exactly what our generator makes of
// them against a real API server, i.e. what `kubefedctl enable <type> -o yaml` prints; run
// hack/generate-chart-types.sh after changing the generator.

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "federation/client/discovery.h"
#include "federation/crdgen/lookup.h"
#include "federation/crdgen/target_schema.h"
#include "federation/crdgen/type_config.h"
#include "federation/crdgen/yaml_json.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/resources.h"

namespace kf::integration {
namespace {

constexpr const char* kRegenerate = "; regenerate with hack/generate-chart-types.sh";

// The chart file's documents by metadata.name, Helm's release namespace filled in.
std::map<std::string, Json> chartDocumentsByName(const std::string& relative) {
  std::string text = readFile(sourceDir() + "/" + relative);
  const std::string placeholder = "{{ .Release.Namespace }}";
  for (auto at = text.find(placeholder); at != std::string::npos; at = text.find(placeholder)) {
    text.replace(at, placeholder.size(), "kube-federation-system");
  }
  auto documents = yamlDocumentsToJson(text);
  EXPECT_TRUE(documents) << relative << ": " << (documents ? "" : documents.error().describe());
  std::map<std::string, Json> by_name;
  if (!documents) return by_name;
  for (Json& document : documents.value()) {
    std::string name = document["metadata"].value("name", "");
    by_name[name] = std::move(document);
  }
  return by_name;
}

TEST(ChartTypesTest, DefaultTypesAreWhatTheGeneratorMakesOfThem) {
  auto client = LocalClusters::get().client("host");
  DiscoveryClient discovery(*client);
  auto crds = chartDocumentsByName("charts/kubefed/crds/crds.yaml");
  auto type_configs = chartDocumentsByName("charts/kubefed/templates/federatedtypeconfig.yaml");
  EXPECT_EQ(crds.size(), kKubefedDefaultTypes.size());
  EXPECT_EQ(type_configs.size(), kKubefedDefaultTypes.size());

  for (const std::string& type : kKubefedDefaultTypes) {
    SCOPED_TRACE(type);
    EnableTypeDirective directive;
    directive.target_name = type;
    auto target = lookupApiResource(discovery, type, "");
    ASSERT_TRUE(target) << target.error().describe();
    auto schema = fetchTargetSchema(*client, target.value());
    ASSERT_TRUE(schema) << schema.error().describe();
    EnableResources generated = generateEnableResources(target.value(), schema.value(), directive);

    Json type_config = Json::parse(generated.type_config.dump());
    type_config["metadata"]["namespace"] = "kube-federation-system";
    ASSERT_TRUE(type_configs.count(type)) << "no FederatedTypeConfig " << type << kRegenerate;
    EXPECT_EQ(type_configs[type], type_config) << kRegenerate;

    Json crd = Json::parse(generated.crd.dump());
    const std::string crd_name = crd["metadata"].value("name", "");
    ASSERT_TRUE(crds.count(crd_name)) << "no CRD " << crd_name << kRegenerate;
    EXPECT_EQ(crds[crd_name], crd) << kRegenerate;
  }
}

TEST(ChartTypesTest, IngressesAreFederatedFromNetworkingV1) {
  auto type_configs = chartDocumentsByName("charts/kubefed/templates/federatedtypeconfig.yaml");
  ASSERT_TRUE(type_configs.count("ingresses.networking.k8s.io"));
  const Json& target = type_configs["ingresses.networking.k8s.io"]["spec"]["targetType"];
  EXPECT_EQ(target.value("group", ""), "networking.k8s.io");
  EXPECT_EQ(target.value("version", ""), "v1");
  EXPECT_FALSE(type_configs.count("ingresses.extensions"));
}

}  // namespace
}  // namespace kf::integration
