// KubeFed's own CRDs (charts/kubefed/charts/controllermanager/crds/crds.yaml) against a real
// kube-apiserver: they install and become Established, they describe exactly the API of KubeFed
// v0.8.1 (names, scopes, versions, subresources, printer columns, schema structure), objects of
// every kind round-trip unchanged and the schemas reject what they must.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "federation/client/resource_client.h"
#include "federation/crdgen/yaml_json.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/resources.h"

namespace kf::integration {
namespace {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------------
// Files

fs::path crdsFile() {
  return fs::path(sourceDir()) / "charts/kubefed/charts/controllermanager/crds/crds.yaml";
}

fs::path testdata(const std::string& name) {
  return fs::path(sourceDir()) / "tests/integration/testdata/crds" / name;
}

// Every non-empty document of a multi-document YAML file.
std::vector<Json> loadDocuments(const fs::path& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::stringstream text;
  text << in.rdbuf();
  auto documents = yamlDocumentsToJson(text.str());
  EXPECT_TRUE(documents) << path << ": " << (documents ? "" : documents.error().describe());
  return documents ? std::move(documents).value() : std::vector<Json>{};
}

// ---------------------------------------------------------------------------------------------
// What KubeFed v0.8.1 defines.

struct PrinterColumn {
  std::string name;
  std::string type;
  std::string json_path;
  auto operator<=>(const PrinterColumn&) const = default;
};

struct ExpectedCrd {
  std::string group;
  std::string kind;
  std::string plural;
  std::string singular;
  std::vector<std::string> short_names;
  std::string scope;
  std::string version;
  bool status_subresource;
  std::vector<PrinterColumn> columns;
};

const std::map<std::string, ExpectedCrd>& expectedCrds() {
  static const std::map<std::string, ExpectedCrd> kExpected = {
      {"clusterpropagatedversions.core.kubefed.io",
       {"core.kubefed.io",
        "ClusterPropagatedVersion",
        "clusterpropagatedversions",
        "clusterpropagatedversion",
        {},
        "Cluster",
        "v1alpha1",
        true,
        {}}},
      {"federatedservicestatuses.core.kubefed.io",
       {"core.kubefed.io",
        "FederatedServiceStatus",
        "federatedservicestatuses",
        "federatedservicestatus",
        {},
        "Namespaced",
        "v1alpha1",
        false,
        {}}},
      {"federatedtypeconfigs.core.kubefed.io",
       {"core.kubefed.io",
        "FederatedTypeConfig",
        "federatedtypeconfigs",
        "federatedtypeconfig",
        {"ftc"},
        "Namespaced",
        "v1beta1",
        true,
        {}}},
      {"kubefedclusters.core.kubefed.io",
       {"core.kubefed.io",
        "KubeFedCluster",
        "kubefedclusters",
        "kubefedcluster",
        {},
        "Namespaced",
        "v1beta1",
        true,
        {{"age", "date", ".metadata.creationTimestamp"},
         {"ready", "string", ".status.conditions[?(@.type=='Ready')].status"}}}},
      {"kubefedconfigs.core.kubefed.io",
       {"core.kubefed.io",
        "KubeFedConfig",
        "kubefedconfigs",
        "kubefedconfig",
        {},
        "Namespaced",
        "v1beta1",
        false,
        {}}},
      {"propagatedversions.core.kubefed.io",
       {"core.kubefed.io",
        "PropagatedVersion",
        "propagatedversions",
        "propagatedversion",
        {},
        "Namespaced",
        "v1alpha1",
        true,
        {}}},
      {"replicaschedulingpreferences.scheduling.kubefed.io",
       {"scheduling.kubefed.io",
        "ReplicaSchedulingPreference",
        "replicaschedulingpreferences",
        "replicaschedulingpreference",
        {"rsp"},
        "Namespaced",
        "v1alpha1",
        false,
        {}}},
  };
  return kExpected;
}

// The structure of each openAPIV3Schema, flattened to "path -> signature" (descriptions left
// out). Paths: ".a.b" for properties, "[]" for items, "{}" for additionalProperties.
using SchemaShape = std::map<std::string, std::string>;

const std::string kDns1123Qualified =
    R"(^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$)";

SchemaShape commonShape(const std::string& root_required) {
  return {{"", "object" + root_required},
          {".apiVersion", "string"},
          {".kind", "string"},
          {".metadata", "object"}};
}

SchemaShape withEntries(SchemaShape shape, const SchemaShape& more) {
  shape.insert(more.begin(), more.end());
  return shape;
}

SchemaShape apiResourceShape(const std::string& at) {
  return {{at, "object required=kind,pluralName,scope,version"},
          {at + ".group", "string"},
          {at + ".kind", "string"},
          {at + ".pluralName", "string"},
          {at + ".scope", "string"},
          {at + ".version", "string"}};
}

SchemaShape propagatedVersionShape() {
  return withEntries(commonShape(""),
                     {{".status", "object required=overridesVersion,templateVersion"},
                      {".status.clusterVersions", "array"},
                      {".status.clusterVersions[]", "object required=clusterName,version"},
                      {".status.clusterVersions[].clusterName", "string"},
                      {".status.clusterVersions[].version", "string"},
                      {".status.overridesVersion", "string"},
                      {".status.templateVersion", "string"}});
}

const std::map<std::string, SchemaShape>& expectedShapes() {
  static const std::map<std::string, SchemaShape> kShapes = [] {
    std::map<std::string, SchemaShape> shapes;
    shapes["clusterpropagatedversions.core.kubefed.io"] = propagatedVersionShape();
    shapes["propagatedversions.core.kubefed.io"] = propagatedVersionShape();

    const std::string cs = ".clusterStatus";
    const std::string st = cs + "[].status";
    const std::string cond = st + ".conditions[]";
    const std::string port = st + ".loadBalancer.ingress[].ports[]";
    shapes["federatedservicestatuses.core.kubefed.io"] = withEntries(
        commonShape(""),
        {{cs, "array"},
         {cs + "[]", "object required=clusterName,status"},
         {cs + "[].clusterName", "string"},
         {st, "object"},
         {st + ".conditions", "array x-kubernetes-list-map-keys=type x-kubernetes-list-type=map"},
         {cond, "object required=lastTransitionTime,message,reason,status,type"},
         {cond + ".lastTransitionTime", "string format=date-time"},
         {cond + ".message", "string maxLength=32768"},
         {cond + ".observedGeneration", "integer format=int64 minimum=0"},
         {cond + ".reason",
          "string maxLength=1024 minLength=1 pattern=^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$"},
         {cond + ".status", "string enum=True,False,Unknown"},
         {cond + ".type", "string maxLength=316 pattern=" + kDns1123Qualified},
         {st + ".loadBalancer", "object"},
         {st + ".loadBalancer.ingress", "array"},
         {st + ".loadBalancer.ingress[]", "object"},
         {st + ".loadBalancer.ingress[].hostname", "string"},
         {st + ".loadBalancer.ingress[].ip", "string"},
         {st + ".loadBalancer.ingress[].ports", "array x-kubernetes-list-type=atomic"},
         {port, "object required=port,protocol"},
         {port + ".error", "string maxLength=316 pattern=" + kDns1123Qualified},
         {port + ".port", "integer format=int32"},
         {port + ".protocol", "string default=\"TCP\""}});

    SchemaShape ftc =
        withEntries(commonShape(" required=spec"),
                    {{".spec", "object required=federatedType,propagation,targetType"},
                     {".spec.propagation", "string"},
                     {".spec.statusCollection", "string"},
                     {".status", "object required=observedGeneration,propagationController"},
                     {".status.observedGeneration", "integer format=int64"},
                     {".status.propagationController", "string"},
                     {".status.statusController", "string"}});
    for (const char* field : {".spec.federatedType", ".spec.statusType", ".spec.targetType"}) {
      ftc = withEntries(std::move(ftc), apiResourceShape(field));
    }
    shapes["federatedtypeconfigs.core.kubefed.io"] = ftc;

    shapes["kubefedclusters.core.kubefed.io"] =
        withEntries(commonShape(" required=spec"),
                    {{".spec", "object required=apiEndpoint,secretRef"},
                     {".spec.apiEndpoint", "string"},
                     {".spec.caBundle", "string format=byte"},
                     {".spec.disabledTLSValidations", "array"},
                     {".spec.disabledTLSValidations[]", "string"},
                     {".spec.proxyURL", "string"},
                     {".spec.secretRef", "object required=name"},
                     {".spec.secretRef.name", "string"},
                     {".status", "object required=conditions"},
                     {".status.conditions", "array"},
                     {".status.conditions[]", "object required=lastProbeTime,status,type"},
                     {".status.conditions[].lastProbeTime", "string format=date-time"},
                     {".status.conditions[].lastTransitionTime", "string format=date-time"},
                     {".status.conditions[].message", "string"},
                     {".status.conditions[].reason", "string"},
                     {".status.conditions[].status", "string"},
                     {".status.conditions[].type", "string"},
                     {".status.region", "string"},
                     {".status.zones", "array"},
                     {".status.zones[]", "string"}});

    shapes["kubefedconfigs.core.kubefed.io"] =
        withEntries(commonShape(" required=spec"),
                    {{".spec", "object required=scope"},
                     {".spec.clusterHealthCheck", "object"},
                     {".spec.clusterHealthCheck.failureThreshold", "integer format=int64"},
                     {".spec.clusterHealthCheck.period", "string"},
                     {".spec.clusterHealthCheck.successThreshold", "integer format=int64"},
                     {".spec.clusterHealthCheck.timeout", "string"},
                     {".spec.controllerDuration", "object"},
                     {".spec.controllerDuration.availableDelay", "string"},
                     {".spec.controllerDuration.unavailableDelay", "string"},
                     {".spec.featureGates", "array"},
                     {".spec.featureGates[]", "object required=configuration,name"},
                     {".spec.featureGates[].configuration", "string"},
                     {".spec.featureGates[].name", "string"},
                     {".spec.leaderElect", "object"},
                     {".spec.leaderElect.leaseDuration", "string"},
                     {".spec.leaderElect.renewDeadline", "string"},
                     {".spec.leaderElect.resourceLock", "string"},
                     {".spec.leaderElect.retryPeriod", "string"},
                     {".spec.scope", "string"},
                     {".spec.statusController", "object"},
                     {".spec.statusController.maxConcurrentReconciles", "integer format=int64"},
                     {".spec.syncController", "object"},
                     {".spec.syncController.adoptResources", "string"},
                     {".spec.syncController.maxConcurrentReconciles", "integer format=int64"}});

    shapes["replicaschedulingpreferences.scheduling.kubefed.io"] =
        withEntries(commonShape(""), {{".spec", "object required=targetKind,totalReplicas"},
                                      {".spec.clusters", "object"},
                                      {".spec.clusters{}", "object"},
                                      {".spec.clusters{}.maxReplicas", "integer format=int64"},
                                      {".spec.clusters{}.minReplicas", "integer format=int64"},
                                      {".spec.clusters{}.weight", "integer format=int64"},
                                      {".spec.intersectWithClusterSelector", "boolean"},
                                      {".spec.rebalance", "boolean"},
                                      {".spec.targetKind", "string"},
                                      {".spec.totalReplicas", "integer format=int32"},
                                      {".status", "object"}});
    return shapes;
  }();
  return kShapes;
}

std::string joined(const Json& array) {
  std::string out;
  for (const auto& item : array) {
    if (!out.empty()) out += ",";
    out += item.is_string() ? item.get<std::string>() : item.dump();
  }
  return out;
}

// Flattens a schema; any keyword the shape does not know about is reported as "?keyword" so that
// the comparison fails on it.
void flatten(const Json& schema, const std::string& path, SchemaShape& out) {
  std::string signature = schema.value("type", "<untyped>");
  for (const auto& [key, value] : schema.items()) {
    if (key == "type" || key == "description" || key == "properties" || key == "items" ||
        key == "additionalProperties") {
      continue;
    }
    if (key == "required" || key == "enum" || key == "x-kubernetes-list-map-keys") {
      signature += " " + key + "=" + joined(value);
    } else if (key == "format" || key == "pattern" || key == "x-kubernetes-list-type") {
      signature += " " + key + "=" + value.get<std::string>();
    } else if (key == "minimum" || key == "maxLength" || key == "minLength" || key == "default") {
      signature += " " + key + "=" + value.dump();
    } else {
      signature += " ?" + key + "=" + value.dump();
    }
  }
  out[path] = signature;
  if (schema.contains("properties")) {
    for (const auto& [name, child] : schema["properties"].items()) {
      flatten(child, path + "." + name, out);
    }
  }
  if (schema.contains("items")) flatten(schema["items"], path + "[]", out);
  if (schema.contains("additionalProperties") && schema["additionalProperties"].is_object()) {
    flatten(schema["additionalProperties"], path + "{}", out);
  }
}

// The keyword order inside a signature follows the JSON object's (sorted) key order; normalise
// both sides by sorting the words after the type.
std::string normalised(const std::string& signature) {
  std::istringstream words(signature);
  std::string type;
  words >> type;
  std::vector<std::string> rest;
  for (std::string word; words >> word;) rest.push_back(word);
  std::sort(rest.begin(), rest.end());
  for (const auto& word : rest) type += " " + word;
  return type;
}

SchemaShape normalisedShape(const SchemaShape& shape) {
  SchemaShape out;
  for (const auto& [path, signature] : shape) out[path] = normalised(signature);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Installing the CRDs once per test binary (re-runs update the existing ones).

struct Installed {
  bool ok = false;
  std::string error;
  std::vector<Json> crds;  // as the file has them
  std::map<std::string, GroupVersionResource> resource_by_kind;
};

const Installed& installCrds() {
  static Installed installed;
  static std::once_flag once;
  std::call_once(once, [] {
    auto client = LocalClusters::get().client("host");
    ResourceClient crds(*client, kCrds);
    installed.crds = loadDocuments(crdsFile());
    if (installed.crds.empty()) {
      installed.error = "no CRDs in " + crdsFile().string();
      return;
    }
    for (const auto& crd : installed.crds) {
      const std::string name = objectName(crd);
      auto created = crds.create(crd);
      if (!created && isAlreadyExists(created.error())) {
        auto current = crds.get(name);
        if (!current) {
          installed.error = current.error().describe();
          return;
        }
        Json replacement = crd;
        replacement["metadata"]["resourceVersion"] = objectResourceVersion(current.value());
        created = crds.update(replacement);
      }
      if (!created) {
        installed.error = name + ": " + created.error().describe();
        return;
      }
      const Json& spec = crd["spec"];
      installed.resource_by_kind[spec["names"]["kind"].get<std::string>()] = GroupVersionResource{
          spec["group"].get<std::string>(), spec["versions"][0]["name"].get<std::string>(),
          spec["names"]["plural"].get<std::string>(), spec["scope"] == "Namespaced"};
    }
    for (const auto& crd : installed.crds) {
      const std::string name = objectName(crd);
      bool established = eventually([&] {
        auto current = crds.get(name);
        return current && isEstablished(current.value());
      });
      if (!established) {
        installed.error = name + " did not become Established";
        return;
      }
    }
    installed.ok = true;
  });
  return installed;
}

class CrdTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const Installed& installed = installCrds();
    ASSERT_TRUE(installed.ok) << installed.error;
    installed_ = &installed;
  }

  ResourceClient resourceFor(const Json& object, const std::string& ns) {
    auto found = installed_->resource_by_kind.find(object.value("kind", ""));
    EXPECT_NE(found, installed_->resource_by_kind.end()) << object.dump();
    return ResourceClient(*client_, found->second, ns);
  }

  bool clusterScoped(const Json& object) const {
    return !installed_->resource_by_kind.at(object.value("kind", "")).namespaced;
  }

  // Cluster-scoped samples get the namespace name appended so that runs do not collide.
  std::string nameIn(const Json& object, const TestNamespace& ns) const {
    return clusterScoped(object) ? objectName(object) + "-" + ns.name() : objectName(object);
  }

  const Installed* installed_ = nullptr;
  std::unique_ptr<RestClient> client_ = LocalClusters::get().client("host");
};

// Top-level fields other than the object's identity.
Json content(const Json& object) {
  Json out = object;
  out.erase("apiVersion");
  out.erase("kind");
  out.erase("metadata");
  return out;
}

// ---------------------------------------------------------------------------------------------

TEST(CrdManifestTest, DefinesExactlyTheKubeFedV081CoreCrds) {
  const auto crds = loadDocuments(crdsFile());
  std::set<std::string> names;
  for (const auto& crd : crds) {
    const std::string name = objectName(crd);
    SCOPED_TRACE(name);
    names.insert(name);
    EXPECT_EQ(crd["apiVersion"], "apiextensions.k8s.io/v1");
    EXPECT_EQ(crd["kind"], "CustomResourceDefinition");
    auto expected = expectedCrds().find(name);
    ASSERT_NE(expected, expectedCrds().end());
    const ExpectedCrd& want = expected->second;
    const Json& spec = crd["spec"];
    EXPECT_EQ(spec["group"], want.group);
    EXPECT_EQ(name, want.plural + "." + want.group);
    EXPECT_EQ(spec["scope"], want.scope);
    const Json& names_field = spec["names"];
    EXPECT_EQ(names_field["kind"], want.kind);
    EXPECT_EQ(names_field["listKind"], want.kind + "List");
    EXPECT_EQ(names_field["plural"], want.plural);
    EXPECT_EQ(names_field["singular"], want.singular);
    EXPECT_EQ(names_field.value("shortNames", std::vector<std::string>{}), want.short_names);
    EXPECT_FALSE(names_field.contains("categories"));
    EXPECT_FALSE(spec.contains("conversion"));

    ASSERT_EQ(spec["versions"].size(), 1u);
    const Json& version = spec["versions"][0];
    EXPECT_EQ(version["name"], want.version);
    EXPECT_EQ(version["served"], true);
    EXPECT_EQ(version["storage"], true);
    Json subresources = version.value("subresources", Json::object());
    Json want_subresources = Json::object();
    if (want.status_subresource) want_subresources["status"] = Json::object();
    EXPECT_EQ(subresources, want_subresources);
    std::vector<PrinterColumn> columns;
    for (const auto& column : version.value("additionalPrinterColumns", Json::array())) {
      EXPECT_EQ(column.size(), 3u) << column.dump();
      columns.push_back({column["name"].get<std::string>(), column["type"].get<std::string>(),
                         column["jsonPath"].get<std::string>()});
    }
    EXPECT_EQ(columns, want.columns);
  }
  std::set<std::string> want_names;
  for (const auto& [name, unused] : expectedCrds()) want_names.insert(name);
  EXPECT_EQ(names, want_names);
  EXPECT_EQ(crds.size(), want_names.size());
}

TEST(CrdManifestTest, SchemasMatchTheKubeFedV081Structure) {
  for (const auto& crd : loadDocuments(crdsFile())) {
    const std::string name = objectName(crd);
    SCOPED_TRACE(name);
    auto expected = expectedShapes().find(name);
    ASSERT_NE(expected, expectedShapes().end());
    SchemaShape actual;
    flatten(crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"], "", actual);
    SchemaShape want = normalisedShape(expected->second);
    actual = normalisedShape(actual);
    for (const auto& [path, signature] : want) {
      auto found = actual.find(path);
      if (found == actual.end()) {
        ADD_FAILURE() << "missing " << path;
      } else {
        EXPECT_EQ(found->second, signature) << path;
      }
    }
    for (const auto& [path, signature] : actual) {
      EXPECT_TRUE(want.contains(path)) << "unexpected " << path << ": " << signature;
    }
  }
}

TEST_F(CrdTest, ServerHasEveryCrdEstablishedAsDefined) {
  ResourceClient crds(*client_, kCrds);
  for (const auto& [name, want] : expectedCrds()) {
    SCOPED_TRACE(name);
    auto served = crds.get(name);
    ASSERT_TRUE(served) << served.error().describe();
    const Json& spec = served.value()["spec"];
    EXPECT_EQ(spec["group"], want.group);
    EXPECT_EQ(spec["scope"], want.scope);
    EXPECT_EQ(spec["names"]["kind"], want.kind);
    EXPECT_EQ(spec["names"]["plural"], want.plural);
    EXPECT_EQ(spec["names"].value("shortNames", std::vector<std::string>{}), want.short_names);
    const Json& accepted = served.value()["status"]["acceptedNames"];
    EXPECT_EQ(accepted["kind"], want.kind);
    EXPECT_EQ(accepted["listKind"], want.kind + "List");
    EXPECT_EQ(accepted["singular"], want.singular);
    ASSERT_EQ(spec["versions"].size(), 1u);
    EXPECT_EQ(spec["versions"][0]["name"], want.version);
    EXPECT_EQ(spec["versions"][0].contains("subresources"), want.status_subresource);
    EXPECT_EQ(served.value()["status"]["storedVersions"], Json::array({want.version}));
    std::map<std::string, std::string> conditions;
    for (const auto& condition : served.value()["status"]["conditions"]) {
      conditions[condition["type"].get<std::string>()] = condition["status"].get<std::string>();
    }
    EXPECT_EQ(conditions["Established"], "True");
    EXPECT_EQ(conditions["NamesAccepted"], "True");
    EXPECT_FALSE(conditions.contains("NonStructuralSchema"));
  }
}

TEST_F(CrdTest, AcceptsSamplesOfEveryKindAndReadsThemBackUnchanged) {
  TestNamespace ns(*client_, "crds");
  std::set<std::string> kinds;
  for (Json sample : loadDocuments(testdata("valid.yaml"))) {
    const std::string kind = sample["kind"];
    SCOPED_TRACE(kind + " " + objectName(sample));
    kinds.insert(kind);
    sample["metadata"]["name"] = nameIn(sample, ns);
    ResourceClient resource = resourceFor(sample, ns.name());
    auto created = resource.create(sample);
    ASSERT_TRUE(created) << created.error().describe();
    auto fetched = resource.get(objectName(sample));
    ASSERT_TRUE(fetched) << fetched.error().describe();
    EXPECT_EQ(content(fetched.value()), content(sample));
    EXPECT_EQ(fetched.value()["apiVersion"], sample["apiVersion"]);
    if (clusterScoped(sample)) {
      EXPECT_TRUE(resource.remove(objectName(sample)));
    }
  }
  EXPECT_EQ(kinds.size(), expectedCrds().size()) << "valid.yaml must cover every kind";
}

TEST_F(CrdTest, StatusSubresourcesStoreStatusSeparatelyFromSpec) {
  TestNamespace ns(*client_, "crds-status");
  std::map<std::string, Json> objects;  // kind/name -> valid sample
  for (const auto& sample : loadDocuments(testdata("valid.yaml"))) {
    objects[sample["kind"].get<std::string>() + "/" + objectName(sample)] = sample;
  }
  int checked = 0;
  for (const Json& status : loadDocuments(testdata("status.yaml"))) {
    const std::string key = status["kind"].get<std::string>() + "/" + objectName(status);
    SCOPED_TRACE(key);
    ASSERT_TRUE(objects.contains(key)) << "status.yaml names an object valid.yaml lacks";
    Json object = objects[key];
    object["metadata"]["name"] = nameIn(object, ns);
    ResourceClient resource = resourceFor(object, ns.name());

    // Status sent with the main resource is dropped.
    Json with_status = object;
    with_status["status"] = status["status"];
    auto created = resource.create(with_status);
    ASSERT_TRUE(created) << created.error().describe();
    EXPECT_FALSE(created.value().contains("status")) << created.value().dump();

    Json update = created.value();
    update["status"] = status["status"];
    auto updated = resource.updateStatus(update);
    ASSERT_TRUE(updated) << updated.error().describe();
    auto fetched = resource.get(objectName(object));
    ASSERT_TRUE(fetched) << fetched.error().describe();
    EXPECT_EQ(fetched.value()["status"], status["status"]);
    EXPECT_EQ(content(fetched.value()).value("spec", Json()),
              content(object).value("spec", Json()));
    EXPECT_EQ(fetched.value()["metadata"]["generation"], created.value()["metadata"]["generation"]);

    // The status schema is enforced on the subresource too.
    Json bad = fetched.value();
    if (key.starts_with("KubeFedCluster/")) {
      bad["status"]["conditions"][0].erase("lastProbeTime");
    } else if (key.starts_with("FederatedTypeConfig/")) {
      bad["status"].erase("propagationController");
    } else {
      bad["status"].erase("overridesVersion");
    }
    auto rejected = resource.updateStatus(bad);
    ASSERT_FALSE(rejected);
    EXPECT_TRUE(isInvalid(rejected.error())) << rejected.error().describe();
    if (clusterScoped(object)) {
      EXPECT_TRUE(resource.remove(objectName(object)));
    }
    ++checked;
  }
  EXPECT_EQ(checked, 4);  // FTC, KubeFedCluster, PropagatedVersion, ClusterPropagatedVersion
}

TEST_F(CrdTest, RejectsWhatTheSchemasForbid) {
  TestNamespace ns(*client_, "crds-invalid");
  int checked = 0;
  for (const Json& sample : loadDocuments(testdata("invalid.yaml"))) {
    SCOPED_TRACE(sample["kind"].get<std::string>() + " " + objectName(sample));
    ResourceClient resource = resourceFor(sample, ns.name());
    auto created = resource.create(sample);
    ASSERT_FALSE(created) << "accepted: " << created.value().dump();
    EXPECT_TRUE(isInvalid(created.error())) << created.error().describe();
    const std::string field = sample["metadata"]["annotations"]["kf-test/field"];
    bool names_field = false;
    for (const auto& cause : created.error().causes) names_field |= cause.field == field;
    EXPECT_TRUE(names_field) << field << " not among the causes of " << created.error().describe();
    ++checked;
  }
  EXPECT_GE(checked, 10);
}

// KubeFed's CRD defaults a load balancer port's protocol, as core/v1 PortStatus does, so a status
// without one is stored with TCP rather than refused for lacking a required field.
TEST_F(CrdTest, DefaultsAServiceStatusPortProtocolToTcp) {
  TestNamespace ns(*client_, "crds-default");
  const Json status = Json::parse(R"({
      "apiVersion": "core.kubefed.io/v1alpha1", "kind": "FederatedServiceStatus",
      "metadata": {"name": "web"},
      "clusterStatus": [{"clusterName": "cluster1", "status": {"loadBalancer": {"ingress": [
          {"ip": "10.0.0.7", "ports": [{"port": 443}]}]}}}]})");
  ResourceClient resource = resourceFor(status, ns.name());
  auto created = resource.create(status);
  ASSERT_TRUE(created) << created.error().describe();
  EXPECT_EQ(created.value()["clusterStatus"][0]["status"]["loadBalancer"]["ingress"][0]["ports"],
            Json::parse(R"([{"port": 443, "protocol": "TCP"}])"));
}

// v0.8.1's schemas carry no enums for these fields: an out-of-range value is left to the
// admission webhook, so the CRD alone must accept it (as upstream's does).
TEST_F(CrdTest, LeavesEnumeratedValuesToTheWebhook) {
  TestNamespace ns(*client_, "crds-enums");
  std::vector<Json> samples = loadDocuments(testdata("valid.yaml"));
  for (Json sample : samples) {
    const std::string kind = sample["kind"];
    if (kind == "FederatedTypeConfig") {
      sample["spec"]["targetType"]["scope"] = "Global";
      sample["spec"]["propagation"] = "Sometimes";
    } else if (kind == "KubeFedConfig") {
      sample["spec"]["scope"] = "Everywhere";
      sample["spec"]["leaderElect"]["resourceLock"] = "leases";
    } else if (kind == "KubeFedCluster") {
      sample["spec"]["disabledTLSValidations"] = {"Everything"};
    } else if (kind == "ReplicaSchedulingPreference") {
      sample["spec"]["targetKind"] = "FederatedStatefulSet";
    } else {
      continue;
    }
    SCOPED_TRACE(kind);
    ResourceClient resource = resourceFor(sample, ns.name());
    auto created = resource.create(sample);
    ASSERT_TRUE(created) << created.error().describe();
    EXPECT_EQ(content(created.value()), content(sample));
  }
}

}  // namespace
}  // namespace kf::integration
