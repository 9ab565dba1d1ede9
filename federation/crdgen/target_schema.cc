#include "federation/crdgen/target_schema.h"

#include "federation/crdgen/names.h"

namespace kf {
namespace {

const Json* child(const Json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

bool declaresGvk(const Json& schema, const ApiResourceInfo& target) {
  const Json* gvks = child(schema, "x-kubernetes-group-version-kind");
  if (gvks == nullptr || !gvks->is_array()) return false;
  for (const auto& gvk : *gvks) {
    if (gvk.value("group", "") == target.group && gvk.value("version", "") == target.version &&
        gvk.value("kind", "") == target.kind) {
      return true;
    }
  }
  return false;
}

// A reference is either direct or, in OpenAPI v3 documents, wrapped as allOf: [{$ref}].
std::string refOf(const Json& schema) {
  if (const Json* ref = child(schema, "$ref"); ref != nullptr && ref->is_string()) {
    return ref->get<std::string>();
  }
  if (const Json* all_of = child(schema, "allOf"); all_of != nullptr && all_of->is_array()) {
    for (const auto& entry : *all_of) {
      if (auto ref = refOf(entry); !ref.empty()) return ref;
    }
  }
  return "";
}

const Json* resolveRef(const Json& schemas, const std::string& ref) {
  static const std::string kPrefix = "#/components/schemas/";
  if (ref.rfind(kPrefix, 0) != 0) return nullptr;
  return child(schemas, ref.substr(kPrefix.size()).c_str());
}

}  // namespace

std::optional<Json> schemaFromCrd(const Json& crd) {
  const Json* spec = child(crd, "spec");
  const Json* versions = spec ? child(*spec, "versions") : nullptr;
  if (versions == nullptr || !versions->is_array() || versions->empty()) return std::nullopt;
  const Json* schema = child((*versions)[0], "schema");
  const Json* v3 = schema ? child(*schema, "openAPIV3Schema") : nullptr;
  if (v3 == nullptr || !v3->is_object()) return std::nullopt;
  return *v3;
}

std::string gvkString(const ApiResourceInfo& target) {
  return target.group + "/" + target.version + ", Kind=" + target.kind;
}

std::optional<Json> schemaFromOpenApiV3(const Json& document, const ApiResourceInfo& target) {
  const Json* components = child(document, "components");
  const Json* schemas = components ? child(*components, "schemas") : nullptr;
  if (schemas == nullptr || !schemas->is_object()) return std::nullopt;
  for (const auto& [name, schema] : schemas->items()) {
    if (!declaresGvk(schema, target)) continue;
    Json resolved = schema;
    const Json* properties = child(schema, "properties");
    const Json* spec = properties ? child(*properties, "spec") : nullptr;
    if (spec != nullptr) {
      if (const Json* target_spec = resolveRef(*schemas, refOf(*spec))) {
        resolved["properties"]["spec"] = *target_spec;
      }
    }
    return resolved;
  }
  return std::nullopt;
}

std::string openApiV3Path(const ApiResourceInfo& target) {
  return target.group.empty() ? "/openapi/v3/api/" + target.version
                              : "/openapi/v3/apis/" + target.group + "/" + target.version;
}

Result<std::optional<Json>> fetchTargetSchema(RestClient& client, const ApiResourceInfo& target) {
  if (!target.group.empty()) {
    auto crd = client.sendJson({.path = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" +
                                        groupQualifiedName(target.name, target.group)});
    if (crd) return schemaFromCrd(crd.value());
    if (!isNotFound(crd.error())) return crd.error();
  }
  auto document = client.sendJson({.path = openApiV3Path(target)});
  if (!document && !isNotFound(document.error())) return document.error();
  std::optional<Json> schema;
  if (document) schema = schemaFromOpenApiV3(document.value(), target);
  if (!schema) {
    return makeError(Reason::kNotFound,
                     "Unable to find openapi schema for \"" + gvkString(target) + "\"");
  }
  return schema;
}

}  // namespace kf
