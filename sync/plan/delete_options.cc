#include "sync/plan/delete_options.h"

#include <algorithm>
#include <cctype>
#include <limits>

#include "apis/meta/field_errors.h"
#include "apis/meta/object.h"

namespace kf::sync {

namespace {

ApiError deserializeError(const std::string& what) {
  return makeError(Reason::kBadRequest, "failed to deserialize delete options: " + what);
}

std::string jsonTypeName(const Json& value) {
  if (value.is_string()) return "string";
  if (value.is_boolean()) return "bool";
  if (value.is_number()) return "number";
  if (value.is_array()) return "array";
  return "object";
}

// Go's UnmarshalTypeError text (numbers are named by their literal, as Go does).
ApiError typeError(const Json& value, const std::string& field, const std::string& go_type) {
  const std::string what = value.is_number() ? "number " + value.dump() : jsonTypeName(value);
  return deserializeError("json: cannot unmarshal " + what + " into Go struct field " + field +
                          " of type " + go_type);
}

bool equalsIgnoringCase(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

// The value of `key` in `object` as Go's decoder finds it: an exact match first, then any key
// equal ignoring case; nullptr when absent or null.
const Json* member(const Json& object, std::string_view key) {
  auto exact = object.find(std::string(key));
  const Json* found = exact != object.end() ? &*exact : nullptr;
  if (found == nullptr) {
    for (const auto& [name, value] : object.items()) {
      if (equalsIgnoringCase(name, key)) found = &value;
    }
  }
  return found == nullptr || found->is_null() ? nullptr : found;
}

Result<std::optional<std::string>> stringMember(const Json& object, std::string_view key,
                                                const std::string& field) {
  const Json* value = member(object, key);
  if (value == nullptr) return std::optional<std::string>();
  if (!value->is_string()) return typeError(*value, field, "string");
  return std::optional<std::string>(value->get<std::string>());
}

Result<std::optional<std::int64_t>> gracePeriod(const Json& object) {
  const Json* value = member(object, "gracePeriodSeconds");
  if (value == nullptr) return std::optional<std::int64_t>();
  const std::string field = "DeleteOptions.gracePeriodSeconds";
  const bool fits = value->is_number_integer() &&
                    !(value->is_number_unsigned() &&
                      value->get<std::uint64_t>() >
                          static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()));
  if (!fits) return typeError(*value, field, "int64");
  return std::optional<std::int64_t>(value->get<std::int64_t>());
}

Status readPreconditions(const Json& object, DeleteOptions& out) {
  const Json* preconditions = member(object, "preconditions");
  if (preconditions == nullptr) return boost::outcome_v2::success();
  if (!preconditions->is_object()) {
    return typeError(*preconditions, "DeleteOptions.preconditions", "v1.Preconditions");
  }
  KF_TRY(uid, stringMember(*preconditions, "uid", "DeleteOptions.preconditions.uid"));
  KF_TRY(resource_version, stringMember(*preconditions, "resourceVersion",
                                        "DeleteOptions.preconditions.resourceVersion"));
  out.precondition_uid = std::move(uid);
  out.precondition_resource_version = std::move(resource_version);
  return boost::outcome_v2::success();
}

// Fields Go decodes but KubeFed does not use: only their types matter.
Status checkUnusedFields(const Json& object) {
  KF_TRYV(stringMember(object, "kind", "DeleteOptions.kind"));
  KF_TRYV(stringMember(object, "apiVersion", "DeleteOptions.apiVersion"));
  const Json* orphan = member(object, "orphanDependents");
  if (orphan != nullptr && !orphan->is_boolean()) {
    return typeError(*orphan, "DeleteOptions.orphanDependents", "bool");
  }
  const Json* dry_run = member(object, "dryRun");
  if (dry_run == nullptr) return boost::outcome_v2::success();
  if (!dry_run->is_array()) return typeError(*dry_run, "DeleteOptions.dryRun", "[]string");
  for (const Json& entry : *dry_run) {
    if (!entry.is_string()) return typeError(entry, "DeleteOptions.dryRun", "string");
  }
  return boost::outcome_v2::success();
}

}  // namespace

Result<DeleteOptions> parseDeleteOptions(std::string_view json_text) {
  const Json parsed = Json::parse(json_text.begin(), json_text.end(), nullptr, false);
  if (parsed.is_discarded()) return deserializeError("not valid JSON: " + meta::goQuote(json_text));
  DeleteOptions out;
  if (parsed.is_null()) return out;
  if (!parsed.is_object()) {
    return deserializeError("json: cannot unmarshal " + jsonTypeName(parsed) +
                            " into Go value of type v1.DeleteOptions");
  }
  KF_TRYV(checkUnusedFields(parsed));
  KF_TRY(grace_period, gracePeriod(parsed));
  KF_TRY(policy, stringMember(parsed, "propagationPolicy", "DeleteOptions.propagationPolicy"));
  out.grace_period_seconds = grace_period;
  out.propagation_policy = std::move(policy);
  KF_TRYV(readPreconditions(parsed, out));
  return out;
}

Result<std::optional<DeleteOptions>> deleteOptionsOf(const Json& federated_object) {
  auto annotation = annotationValue(federated_object, kDeleteOptionAnnotation);
  if (!annotation) return std::optional<DeleteOptions>();
  KF_TRY(options, parseDeleteOptions(*annotation));
  return std::optional<DeleteOptions>(std::move(options));
}

}  // namespace kf::sync
