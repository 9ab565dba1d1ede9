// libFuzzer target for the admission webhook: any bytes are sent, as an application/json body,
// to each of KubeFed's four admission handlers the way the webhook server does. Every answer must
// be an AdmissionReview the API server can read: a JSON object whose response says allowed or
// not with a status code, the request's uid when the review decoded, and a one-operation JSON
// patch only on an allowed response. Build and run: tests/fuzz/CMakeLists.txt.

#include <spdlog/spdlog.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "federation/admission/kubefed_handlers.h"
#include "federation/admission/webhook.h"
#include "federation/client/base64.h"

namespace kf {
namespace {

void check(bool condition, const char* what) {
  if (condition) return;
  std::fprintf(stderr, "invariant violated: %s\n", what);
  std::abort();
}

void checkPatch(const Json& response) {
  check(response.value("allowed", false), "only an allowed response carries a patch");
  check(response.value("patchType", "") == "JSONPatch", "a patch is a JSONPatch");
  const auto bytes = base64Decode(response.value("patch", ""));
  check(bytes.has_value(), "the patch is base64");
  const Json patch = Json::parse(*bytes, nullptr, false);
  check(patch.is_array() && patch.size() == 1, "the patch is one operation");
  check(patch[0].value("op", "") == "replace" && patch[0].value("path", "") == "/spec",
        "the operation replaces /spec");
}

void exercise(const std::string& body) {
  static const std::vector<std::pair<const char*, admission::AdmissionHandler>> handlers{
      {"/validate-federatedtypeconfigs", admission::validateFederatedTypeConfigRequest},
      {"/validate-kubefedcluster", admission::validateKubeFedClusterRequest},
      {"/validate-kubefedconfig", admission::validateKubeFedConfigRequest},
      {"/default-kubefedconfig", admission::defaultKubeFedConfigRequest}};
  const auto decoded = admission::decodeAdmissionReview(body);
  for (const auto& [path, handler] : handlers) {
    serving::ServerRequest request;
    request.method = "POST";
    request.path = path;
    request.content_type = "application/json";
    request.body = body;
    const serving::ServerReply reply = admission::serveAdmissionReview(path, request, handler);
    check(reply.status == 200, "every answer is HTTP 200");
    const Json review = Json::parse(reply.body, nullptr, false);
    check(review.is_object() && review.contains("response"), "the answer is a review");
    const Json& response = review["response"];
    check(response.contains("allowed") && response["allowed"].is_boolean(), "allowed is set");
    check(response["status"]["code"].is_number_integer(), "the status has a code");
    if (decoded) {
      check(response.value("uid", "") == decoded.value().request.uid, "the uid is echoed");
    } else {
      check(!response.value("allowed", true) && response["status"]["code"] == 400,
            "an unreadable review is denied with 400");
    }
    if (response.contains("patch")) checkPatch(response);
  }
}

}  // namespace
}  // namespace kf

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  spdlog::set_level(spdlog::level::off);  // undecodable input is logged; not worth the time here
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  kf::exercise(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}
