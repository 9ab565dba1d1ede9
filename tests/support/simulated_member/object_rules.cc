#include "tests/support/simulated_member/object_rules.h"

#include <algorithm>

#include "apis/meta/name_validation.h"
#include "federation/client/base64.h"

namespace kf::sim {
namespace {

// Written by the server alone: whatever a client sends there is replaced.
const char* const kServerFields[] = {
    "uid",        "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds",
    "generation", "managedFields",     "selfLink"};

constexpr std::size_t kLabelMaxLength = 63;

bool isLowerAlphanumeric(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// IsDNS1123Label's messages (namespaces are labels, not subdomains).
std::vector<std::string> dns1123LabelErrors(const std::string& value) {
  std::vector<std::string> errors;
  if (value.size() > kLabelMaxLength) {
    errors.push_back("must be no more than " + std::to_string(kLabelMaxLength) + " characters");
  }
  const bool valid = !value.empty() && isLowerAlphanumeric(value.front()) &&
                     isLowerAlphanumeric(value.back()) &&
                     std::all_of(value.begin(), value.end(),
                                 [](char c) { return isLowerAlphanumeric(c) || c == '-'; });
  if (!valid) {
    errors.push_back(
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
        "and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', "
        "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')");
  }
  return errors;
}

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& part : parts) out += (out.empty() ? "" : ", ") + part;
  return out;
}

void applyNamespaceDefaults(Json& object) {
  Json& metadata = metadataOf(object);
  Json& labels = metadata["labels"];
  if (!labels.is_object()) labels = Json::object();
  labels["kubernetes.io/metadata.name"] = metadata.value("name", "");
  Json& spec = object["spec"];
  if (!spec.is_object()) spec = Json::object();
  if (!spec.contains("finalizers")) spec["finalizers"] = {"kubernetes"};
  object["status"] = {{"phase", "Active"}};
}

// stringData merged into data (base64), every data value checked; type defaults to Opaque.
Status normalizeSecret(Json& object) {
  Json& data = object["data"];
  if (data.is_null()) data = Json::object();
  if (auto string_data = object.find("stringData"); string_data != object.end()) {
    if (string_data->is_object()) {
      for (const auto& [key, value] : string_data->items()) {
        if (value.is_string()) data[key] = base64Encode(value.get<std::string>());
      }
    }
    object.erase(string_data);
  }
  for (const auto& [key, value] : data.items()) {
    if (!value.is_string() || !base64Decode(value.get<std::string>())) {
      return makeError(Reason::kBadRequest,
                       "Secret in version \"v1\" cannot be handled as a Secret: illegal base64 "
                       "data in data[\"" +
                           key + "\"]");
    }
  }
  if (data.empty()) object.erase("data");
  if (!object.contains("type")) object["type"] = "Opaque";
  return boost::outcome_v2::success();
}

Json withoutMetadataAndStatus(const Json& object) {
  Json copy = object;
  copy.erase("metadata");
  copy.erase("status");
  return copy;
}

// Go's encoding omits these when they are empty (omitempty): so must we, or a watch would tell of
// an empty map the real server never shows.
void dropEmptyFields(const ServedResource& resource, Json& object) {
  Json& metadata = metadataOf(object);
  for (const char* field : {"labels", "annotations", "finalizers", "ownerReferences"}) {
    if (auto found = metadata.find(field);
        found != metadata.end() && (found->empty() || found->is_null())) {
      metadata.erase(found);
    }
  }
  if (resource.plural == "configmaps" || resource.plural == "secrets") {
    for (const char* field : {"data", "binaryData"}) {
      if (auto found = object.find(field);
          found != object.end() && (found->empty() || found->is_null())) {
        object.erase(found);
      }
    }
  }
}

}  // namespace

Json& metadataOf(Json& object) {
  Json& metadata = object["metadata"];
  if (!metadata.is_object()) metadata = Json::object();
  return metadata;
}

std::optional<Reply> invalidName(const ServedResource& resource, const std::string& name) {
  if (name.empty()) {
    return invalidField(resource, name, "metadata.name", "FieldValueRequired",
                        "Required value: name or generateName is required");
  }
  const std::vector<std::string> errors = &resource == &namespaceResource()
                                              ? dns1123LabelErrors(name)
                                              : meta::dns1123SubdomainErrors(name);
  if (errors.empty()) return std::nullopt;
  return invalidField(resource, name, "metadata.name", "FieldValueInvalid",
                      "Invalid value: \"" + name + "\": " + joined(errors));
}

Result<Json> prepareCreate(const ServedResource& resource, Json object, const std::string& uid,
                           const std::string& now) {
  Json& metadata = metadataOf(object);
  for (const char* field : kServerFields) metadata.erase(field);
  metadata["uid"] = uid;
  metadata["creationTimestamp"] = now;
  if (resource.has_generation) metadata["generation"] = 1;
  object["kind"] = resource.kind;
  object["apiVersion"] = resource.apiVersion();
  if (resource.status_subresource) object.erase("status");
  if (&resource == &namespaceResource()) applyNamespaceDefaults(object);
  if (resource.plural == "secrets") {
    KF_TRYV(normalizeSecret(object));
  }
  dropEmptyFields(resource, object);
  return object;
}

Result<Json> prepareUpdate(const ServedResource& resource, Json object, const Json& stored) {
  Json& metadata = metadataOf(object);
  const Json& stored_metadata = stored.at("metadata");
  for (const char* field : kServerFields) {
    metadata.erase(field);
    if (auto kept = stored_metadata.find(field); kept != stored_metadata.end()) {
      metadata[field] = *kept;
    }
  }
  object["kind"] = resource.kind;
  object["apiVersion"] = resource.apiVersion();
  if (resource.status_subresource) {
    object.erase("status");
    if (auto status = stored.find("status"); status != stored.end()) object["status"] = *status;
  }
  if (&resource == &namespaceResource()) {
    if (auto spec = stored.find("spec"); spec != stored.end()) object["spec"] = *spec;
    Json& labels = metadata["labels"];
    if (!labels.is_object()) labels = Json::object();
    labels["kubernetes.io/metadata.name"] = stored_metadata.value("name", "");
  }
  if (resource.plural == "secrets") {
    KF_TRYV(normalizeSecret(object));
  }
  dropEmptyFields(resource, object);
  if (resource.has_generation &&
      withoutMetadataAndStatus(object) != withoutMetadataAndStatus(stored)) {
    metadata["generation"] = stored_metadata.value("generation", 0) + 1;
  }
  return object;
}

Json prepareStatusUpdate(const Json& object, const Json& stored) {
  Json updated = stored;
  if (auto status = object.find("status"); status != object.end()) {
    updated["status"] = *status;
  } else {
    updated.erase("status");
  }
  return updated;
}

bool sameContent(const Json& a, const Json& b) {
  Json left = a;
  Json right = b;
  metadataOf(left).erase("resourceVersion");
  metadataOf(right).erase("resourceVersion");
  return left == right;
}

void applyMergePatch(Json& target, const Json& patch) {
  if (!patch.is_object()) {
    target = patch;
    return;
  }
  if (!target.is_object()) target = Json::object();
  for (const auto& [key, value] : patch.items()) {
    if (value.is_null()) {
      target.erase(key);
    } else {
      applyMergePatch(target[key], value);
    }
  }
}

}  // namespace kf::sim
