#include "federation/admission/admission_review.h"

#include "federation/client/base64.h"

namespace kf::admission {
namespace {

using meta::FieldPath;
using meta::ObjectReader;

// Reads {group, version, <last>} into three strings; absent or null leaves them empty.
Status readGroupVersion(ObjectReader& parent, std::string_view key, std::string_view last,
                        std::string& group, std::string& version, std::string& name) {
  const Json* value = parent.plainValue(key);
  if (value == nullptr) return boost::outcome_v2::success();
  KF_TRY(reader, ObjectReader::open(*value, parent.path(key)));
  KF_TRY(read_group, reader.string("group"));
  KF_TRY(read_version, reader.string("version"));
  KF_TRY(read_name, reader.string(last));
  group = std::move(read_group);
  version = std::move(read_version);
  name = std::move(read_name);
  return boost::outcome_v2::success();
}

// A RawExtension: absent stays nullopt, anything else (null included) is kept as sent.
std::optional<Json> rawObject(const Json& request, const char* key) {
  const auto it = request.find(key);
  if (it == request.end()) return std::nullopt;
  return *it;
}

Result<AdmissionRequest> readRequest(const Json& json) {
  AdmissionRequest out;
  if (json.is_null()) return out;
  KF_TRY(reader, ObjectReader::open(json, FieldPath("request")));
  KF_TRY(uid, reader.string("uid"));
  out.uid = std::move(uid);
  KF_TRYV(readGroupVersion(reader, "kind", "kind", out.kind_group, out.kind_version, out.kind));
  KF_TRYV(readGroupVersion(reader, "resource", "resource", out.resource_group, out.resource_version,
                           out.resource));
  KF_TRY(sub_resource, reader.string("subResource"));
  out.sub_resource = std::move(sub_resource);
  KF_TRY(name, reader.string("name"));
  out.name = std::move(name);
  KF_TRY(namespace_name, reader.string("namespace"));
  out.namespace_name = std::move(namespace_name);
  KF_TRY(operation, reader.string("operation"));
  out.operation = std::move(operation);
  out.object = rawObject(json, "object");
  out.old_object = rawObject(json, "oldObject");
  return out;
}

Json statusJson(const ResponseStatus& status) {
  // metav1.Status as Go writes it: the (empty) list metadata always, the rest when set.
  Json out = {{"metadata", Json::object()}};
  if (!status.status.empty()) out["status"] = status.status;
  if (!status.message.empty()) out["message"] = status.message;
  if (!status.reason.empty()) out["reason"] = status.reason;
  if (status.code != 0) out["code"] = status.code;
  return out;
}

AdmissionResponse denied(std::string status, std::string reason, int code, std::string message) {
  AdmissionResponse out;
  out.allowed = false;
  out.status = ResponseStatus{std::move(status), std::move(message), std::move(reason), code};
  return out;
}

}  // namespace

Result<AdmissionReview> decodeAdmissionReview(std::string_view body) {
  const Json json = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) {
    return makeError(Reason::kBadRequest, "the AdmissionReview is not valid JSON");
  }
  KF_TRY(reader, ObjectReader::open(json, FieldPath()));
  AdmissionReview out;
  KF_TRY(api_version, reader.string("apiVersion"));
  KF_TRY(kind, reader.string("kind"));
  out.api_version = std::move(api_version);
  out.kind = std::move(kind);
  const Json* request = reader.plainValue("request");
  KF_TRY(decoded, readRequest(request != nullptr ? *request : Json()));
  out.request = std::move(decoded);
  return out;
}

std::string encodeAdmissionReview(std::string_view api_version, std::string_view kind,
                                  const AdmissionResponse& response) {
  Json body = {{"uid", response.uid}, {"allowed", response.allowed}};
  if (response.status) body["status"] = statusJson(*response.status);
  if (response.json_patch) {
    body["patch"] = base64Encode(response.json_patch->dump());
    body["patchType"] = "JSONPatch";
  }
  Json review = Json::object();
  if (!api_version.empty()) review["apiVersion"] = api_version;
  if (!kind.empty()) review["kind"] = kind;
  review["response"] = std::move(body);
  // Replace, not throw, should a message ever carry bytes that are not UTF-8.
  return review.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

AdmissionResponse allowed() {
  AdmissionResponse out;
  out.allowed = true;
  return out;
}

AdmissionResponse patched(Json operations) {
  AdmissionResponse out = allowed();
  out.json_patch = std::move(operations);
  return out;
}

AdmissionResponse fromFieldErrors(const meta::ErrorList& errors) {
  if (errors.empty()) return allowed();
  return denied("Failure", "Forbidden", 403, meta::aggregate(errors));
}

AdmissionResponse badRequest(std::string message) {
  return denied("Failure", "BadRequest", 400, std::move(message));
}

AdmissionResponse errored(int code, std::string message) {
  return denied("", "", code, std::move(message));
}

AdmissionResponse complete(AdmissionResponse response, const std::string& uid) {
  response.uid = uid;
  if (!response.status) response.status.emplace();
  if (response.status->code == 0) response.status->code = 200;
  return response;
}

}  // namespace kf::admission
