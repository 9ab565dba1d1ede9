#include "federation/crdgen/type_config.h"

#include <map>

#include "federation/crdgen/go_yaml_order.h"
#include "federation/crdgen/names.h"
#include "federation/crdgen/yaml_json.h"

namespace kf {
namespace {

// Schema properties come out sorted, as KubeFed's Go maps marshal.
OrderedJson sortedProperties(const std::map<std::string, OrderedJson>& properties) {
  OrderedJson out = OrderedJson::object();
  for (const auto& [name, schema] : properties) out[name] = schema;
  return out;
}

OrderedJson typed(const char* type) { return OrderedJson{{"type", type}}; }

OrderedJson typedWithFormat(const char* type, const char* format) {
  return OrderedJson{{"type", type}, {"format", format}};
}

OrderedJson preserveUnknown() {
  return OrderedJson{{"x-kubernetes-preserve-unknown-fields", true}};
}

OrderedJson object(const std::map<std::string, OrderedJson>& properties,
                   std::vector<std::string> required = {}) {
  OrderedJson schema{{"type", "object"}};
  if (!required.empty()) schema["required"] = required;
  schema["properties"] = sortedProperties(properties);
  return schema;
}

OrderedJson arrayOf(OrderedJson items) { return OrderedJson{{"type", "array"}, {"items", items}}; }

OrderedJson placementSchema() {
  OrderedJson match_labels{{"type", "object"}, {"additionalProperties", typed("string")}};
  OrderedJson match_expressions = arrayOf(object({{"key", typed("string")},
                                                  {"operator", typed("string")},
                                                  {"values", arrayOf(typed("string"))}},
                                                 {"key", "operator"}));
  return object({
      {"clusters", arrayOf(object({{"name", typed("string")}}, {"name"}))},
      {"clusterSelector",
       object({{"matchExpressions", match_expressions}, {"matchLabels", match_labels}})},
  });
}

OrderedJson overridesSchema() {
  OrderedJson op{{"type", "string"}, {"pattern", "^(add|remove|replace)?$"}};
  OrderedJson cluster_override =
      object({{"op", op}, {"path", typed("string")}, {"value", preserveUnknown()}}, {"path"});
  return arrayOf(
      object({{"clusterName", typed("string")}, {"clusterOverrides", arrayOf(cluster_override)}}));
}

OrderedJson integer64() { return typedWithFormat("integer", "int64"); }

// status.workload (beyond KubeFed): totals and one entry per cluster, in the target's shape.
OrderedJson workloadSchema(core::WorkloadKind kind) {
  std::map<std::string, OrderedJson> counts;
  if (core::isJob(kind)) {
    counts = {{"active", integer64()},
              {"completions", integer64()},
              {"failed", integer64()},
              {"succeeded", integer64()}};
  } else {
    counts = {{"availableReplicas", integer64()},
              {"desiredReplicas", integer64()},
              {"readyReplicas", integer64()},
              {"replicas", integer64()},
              {"updatedReplicas", integer64()}};
  }
  std::map<std::string, OrderedJson> cluster = counts;
  cluster["message"] = typed("string");
  cluster["name"] = typed("string");
  cluster["rolledOut"] = typed("boolean");
  std::map<std::string, OrderedJson> workload = counts;
  workload["clusters"] = arrayOf(object(cluster, {"name"}));
  return object(workload);
}

OrderedJson statusSchema(std::optional<core::WorkloadKind> workload) {
  std::map<std::string, OrderedJson> condition{
      {"lastTransitionTime", typedWithFormat("string", "date-time")},
      {"lastUpdateTime", typedWithFormat("string", "date-time")},
      {"reason", typed("string")},
      {"status", typed("string")},
      {"type", typed("string")}};
  // The WorkloadReady condition names the lagging clusters in its message.
  if (workload) condition["message"] = typed("string");
  OrderedJson remote_status{{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}};
  OrderedJson cluster = object(
      {{"name", typed("string")}, {"remoteStatus", remote_status}, {"status", typed("string")}},
      {"name"});
  std::map<std::string, OrderedJson> status{
      {"clusters", arrayOf(cluster)},
      {"conditions", arrayOf(object(condition, {"type", "status"}))},
      {"observedGeneration", integer64()}};
  if (workload) {
    status["workload"] = workloadSchema(*workload);
    // The staged rollout's summary (beyond KubeFed), on the types whose rollout is health-gated.
    status["rollout"] = object({{"message", typed("string")},
                                {"phase", typed("string")},
                                {"stage", typed("string")},
                                {"strategy", typed("string")}});
  }
  return object(status);
}

OrderedJson printerColumn(const char* name, const char* type, const std::string& path) {
  return OrderedJson{{"name", name}, {"type", type}, {"jsonPath", path}};
}

// What `kubectl get` shows of a workload's federated object: its workload status.
OrderedJson workloadPrinterColumns(core::WorkloadKind kind) {
  const std::string condition = R"(.status.conditions[?(@.type=="WorkloadReady")])";
  OrderedJson columns = OrderedJson::array();
  if (core::isJob(kind)) {
    columns.push_back(printerColumn("Completions", "integer", ".status.workload.completions"));
    columns.push_back(printerColumn("Succeeded", "integer", ".status.workload.succeeded"));
    columns.push_back(printerColumn("Active", "integer", ".status.workload.active"));
    columns.push_back(printerColumn("Failed", "integer", ".status.workload.failed"));
  } else {
    columns.push_back(printerColumn("Desired", "integer", ".status.workload.desiredReplicas"));
    columns.push_back(printerColumn("Ready", "integer", ".status.workload.readyReplicas"));
    columns.push_back(printerColumn("Up-to-date", "integer", ".status.workload.updatedReplicas"));
    columns.push_back(printerColumn("Available", "integer", ".status.workload.availableReplicas"));
  }
  columns.push_back(printerColumn("WorkloadReady", "string", condition + ".status"));
  columns.push_back(printerColumn("Lagging", "string", condition + ".message"));
  columns.push_back(printerColumn("Age", "date", ".metadata.creationTimestamp"));
  return columns;
}

OrderedJson apiResource(const std::string& group, const std::string& version,
                        const std::string& kind, const std::string& plural, bool namespaced) {
  OrderedJson out = OrderedJson::object();
  if (!group.empty()) out["group"] = group;  // omitempty
  out["version"] = version;
  out["kind"] = kind;
  out["pluralName"] = plural;
  out["scope"] = namespaced ? "Namespaced" : "Cluster";
  return out;
}

std::string stringField(const Json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

Result<EnableTypeDirective> directiveFromJson(const Json& document) {
  if (!document.is_object()) {
    return makeError(Reason::kInvalid, "EnableTypeDirective must be a YAML/JSON object");
  }
  if (auto kind = stringField(document, "kind"); !kind.empty() && kind != "EnableTypeDirective") {
    return makeError(Reason::kInvalid, "expected kind EnableTypeDirective, got \"" + kind + "\"");
  }
  EnableTypeDirective directive;
  directive.target_name = stringField(document.value("metadata", Json::object()), "name");
  const Json spec = document.value("spec", Json::object());
  if (auto v = stringField(spec, "targetVersion"); !v.empty()) directive.target_version = v;
  if (auto v = stringField(spec, "federatedGroup"); !v.empty()) directive.federated_group = v;
  if (auto v = stringField(spec, "federatedVersion"); !v.empty()) directive.federated_version = v;
  if (directive.target_name.empty()) {
    return makeError(Reason::kInvalid, "EnableTypeDirective has no metadata.name");
  }
  return directive;
}

FederatedTypeInfo federatedTypeFor(const ApiResourceInfo& target,
                                   const EnableTypeDirective& directive) {
  FederatedTypeInfo info;
  info.group = directive.federated_group;
  info.version = directive.federated_version;
  info.kind = "Federated" + target.kind;
  info.plural = "federated" + target.name;
  // A FederatedNamespace lives in the namespace it federates.
  info.namespaced = target.namespaced || (target.group.empty() && target.name == "namespaces");
  return info;
}

std::vector<std::string> federatedShortNames(const ApiResourceInfo& target) {
  std::vector<std::string> out;
  for (const auto& name : target.short_names) out.push_back("f" + name);
  return out;
}

OrderedJson generateTypeConfig(const ApiResourceInfo& target,
                               const EnableTypeDirective& directive) {
  const FederatedTypeInfo federated = federatedTypeFor(target, directive);
  OrderedJson spec = OrderedJson::object();
  spec["targetType"] =
      apiResource(target.group, target.version, target.kind, target.name, target.namespaced);
  spec["propagation"] = "Enabled";
  spec["federatedType"] = apiResource(federated.group, federated.version, federated.kind,
                                      federated.plural, federated.namespaced);
  OrderedJson ftc = OrderedJson::object();
  ftc["apiVersion"] = kKubefedApiVersion;
  ftc["kind"] = "FederatedTypeConfig";
  ftc["metadata"] = OrderedJson{{"name", groupQualifiedName(target.name, target.group)}};
  ftc["spec"] = spec;
  return ftc;
}

bool declaresInt32Replicas(const Json& target_schema) {
  const Json* replicas = &target_schema;
  for (const char* step : {"properties", "spec", "properties", "replicas"}) {
    if (!replicas->is_object()) return false;
    auto it = replicas->find(step);
    if (it == replicas->end()) return false;
    replicas = &*it;
  }
  return stringField(*replicas, "type") == "integer" && stringField(*replicas, "format") == "int32";
}

OrderedJson federatedValidationSchema(const std::optional<Json>& target_schema,
                                      std::optional<core::WorkloadKind> workload) {
  std::map<std::string, OrderedJson> spec_properties{{"overrides", overridesSchema()},
                                                     {"placement", placementSchema()}};
  if (target_schema) {
    spec_properties["template"] =
        OrderedJson{{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}};
    if (declaresInt32Replicas(*target_schema)) spec_properties["retainReplicas"] = typed("boolean");
  }
  return object({{"apiVersion", typed("string")},
                 {"kind", typed("string")},
                 {"metadata", typed("object")},
                 {"spec", object(spec_properties)},
                 {"status", statusSchema(workload)}},
                {"spec"});
}

OrderedJson generateFederatedCrd(const ApiResourceInfo& target,
                                 const std::optional<Json>& target_schema,
                                 const EnableTypeDirective& directive) {
  const FederatedTypeInfo federated = federatedTypeFor(target, directive);
  OrderedJson names = OrderedJson::object();
  names["plural"] = federated.plural;
  if (auto short_names = federatedShortNames(target); !short_names.empty()) {
    names["shortNames"] = short_names;
  }
  names["kind"] = federated.kind;

  OrderedJson version = OrderedJson::object();
  version["name"] = federated.version;
  version["served"] = true;
  version["storage"] = true;
  const auto workload = core::builtInWorkloadKind(target.group, target.kind);
  version["schema"] =
      OrderedJson{{"openAPIV3Schema", federatedValidationSchema(target_schema, workload)}};
  version["subresources"] = OrderedJson{{"status", OrderedJson::object()}};
  if (workload) version["additionalPrinterColumns"] = workloadPrinterColumns(*workload);

  OrderedJson spec = OrderedJson::object();
  spec["group"] = federated.group;
  spec["names"] = names;
  spec["scope"] = federated.namespaced ? "Namespaced" : "Cluster";
  spec["versions"] = OrderedJson::array({version});

  OrderedJson crd = OrderedJson::object();
  crd["apiVersion"] = "apiextensions.k8s.io/v1";
  crd["kind"] = "CustomResourceDefinition";
  crd["metadata"] = OrderedJson{{"name", federated.crdName()}};
  crd["spec"] = spec;
  return crd;
}

EnableResources generateEnableResources(const ApiResourceInfo& target,
                                        const std::optional<Json>& target_schema,
                                        const EnableTypeDirective& directive) {
  return {generateTypeConfig(target, directive),
          generateFederatedCrd(target, target_schema, directive)};
}

std::string enableResourcesYaml(const EnableResources& resources) {
  return "---\n" + toYaml(sortedLikeGoYaml(resources.type_config)) + "---\n" +
         toYaml(sortedLikeGoYaml(resources.crd));
}

}  // namespace kf
