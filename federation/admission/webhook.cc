#include "federation/admission/webhook.h"

#include <spdlog/spdlog.h>

namespace kf::admission {
namespace {

constexpr char kJson[] = "application/json";

serving::ServerReply reviewReply(std::string_view api_version, std::string_view kind,
                                 const AdmissionResponse& response) {
  return serving::ServerReply{200, kJson, encodeAdmissionReview(api_version, kind, response)};
}

// controller-runtime's answer to a request it could not decode: not typed, no uid.
serving::ServerReply undecodable(const std::string& path, std::string message) {
  spdlog::warn("Cannot handle the admission request to {}: {}", path, message);
  return reviewReply("", "", complete(errored(400, std::move(message)), ""));
}

std::string describe(const AdmissionRequest& request) {
  std::string name =
      request.namespace_name.empty() ? request.name : request.namespace_name + "/" + request.name;
  return "uid=" + request.uid + " operation=" + request.operation +
         " resource=" + request.resource +
         (request.resource_group.empty() ? "" : "." + request.resource_group) +
         (request.sub_resource.empty() ? "" : "/" + request.sub_resource) + " name=" + name;
}

}  // namespace

serving::ServerReply serveAdmissionReview(const std::string& path,
                                          const serving::ServerRequest& request,
                                          const AdmissionHandler& handler) {
  if (request.body.empty()) return undecodable(path, "request body is empty");
  if (request.content_type != kJson) {
    return undecodable(path, "contentType=" + request.content_type + ", expected " + kJson);
  }
  auto review = decodeAdmissionReview(request.body);
  if (!review) return undecodable(path, review.error().message);
  const AdmissionRequest& admission = review.value().request;
  const AdmissionResponse response = complete(handler(admission), admission.uid);
  spdlog::debug("Admission review path={} {} allowed={} code={}", path, describe(admission),
                response.allowed, response.status ? response.status->code : 0);
  // An apiserver that allows several review versions needs its own one back; a review that named
  // none is answered as v1.
  const bool untyped = review.value().api_version.empty() && review.value().kind.empty();
  return reviewReply(untyped ? kAdmissionReviewV1 : review.value().api_version,
                     untyped ? kAdmissionReviewKind : review.value().kind, response);
}

}  // namespace kf::admission
