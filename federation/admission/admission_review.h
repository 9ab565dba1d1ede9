#pragma once
// admission.k8s.io AdmissionReview (v1, and v1beta1 which has the same shape): the request a
// kube-apiserver sends to a webhook and the response it expects back, with the response helpers
// of controller-runtime's admission package that KubeFed's handlers use.

#include <optional>
#include <string>
#include <string_view>

#include "apis/meta/field_errors.h"
#include "apis/meta/json_reader.h"

namespace kf::admission {

inline constexpr std::string_view kAdmissionReviewV1 = "admission.k8s.io/v1";
inline constexpr std::string_view kAdmissionReviewKind = "AdmissionReview";

struct AdmissionRequest {
  std::string uid;
  std::string kind_group;  // kind: the object's group/version/kind
  std::string kind_version;
  std::string kind;
  std::string resource_group;  // resource: the group/version/resource the request was made to
  std::string resource_version;
  std::string resource;
  std::string sub_resource;  // "status", ...; "" for the main resource
  std::string name;
  std::string namespace_name;
  std::string operation;           // CREATE | UPDATE | DELETE | CONNECT
  std::optional<Json> object;      // nullopt when absent (as Go's empty RawExtension)
  std::optional<Json> old_object;  // set on UPDATE
};

struct AdmissionReview {
  std::string api_version;  // as sent; the response echoes it
  std::string kind;
  AdmissionRequest request;
};

// metav1.Status inside a response.
struct ResponseStatus {
  std::string status;  // "Failure" or ""
  std::string message;
  std::string reason;  // "Forbidden", "BadRequest", ...
  int code = 0;
};

struct AdmissionResponse {
  std::string uid;
  bool allowed = false;
  std::optional<ResponseStatus> status;
  std::optional<Json> json_patch;  // RFC 6902 operations; sent base64-encoded, patchType JSONPatch
};

// Decodes a review body. Fails with kBadRequest on anything that is not a JSON object or whose
// request fields have the wrong JSON types; a review without a request decodes to an empty one.
Result<AdmissionReview> decodeAdmissionReview(std::string_view body);

// The response inside a review of `api_version`/`kind`; both empty give a review without them, as
// controller-runtime answers a request it could not decode.
std::string encodeAdmissionReview(std::string_view api_version, std::string_view kind,
                                  const AdmissionResponse& response);

// Allowed, nothing else said.
AdmissionResponse allowed();
// Allowed with a JSON patch.
AdmissionResponse patched(Json operations);
// KubeFed's answer to field errors: allowed when there are none, else denied with Status
// Failure, code 403, reason Forbidden and the aggregated errors as the message.
AdmissionResponse fromFieldErrors(const meta::ErrorList& errors);
// KubeFed's answer to an object it cannot decode: denied, Status Failure, code 400, BadRequest.
AdmissionResponse badRequest(std::string message);
// controller-runtime's Errored(code, err): denied with only a code and a message.
AdmissionResponse errored(int code, std::string message);
// controller-runtime's Response.Complete: the request's uid, and a status with code 200 when the
// handler set no status or no code.
AdmissionResponse complete(AdmissionResponse response, const std::string& uid);

}  // namespace kf::admission
