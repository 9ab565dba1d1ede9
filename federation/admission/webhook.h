#pragma once
// Serving one admission path the way controller-runtime's webhook server does (KubeFed's webhook
// is built on it), so that a kube-apiserver sees the same answers: decode the AdmissionReview,
// call the handler, complete the response and send it back in a review of the same version.

#include <functional>
#include <string>

#include "federation/admission/admission_review.h"
#include "federation/serving/http_server.h"

namespace kf::admission {

using AdmissionHandler = std::function<AdmissionResponse(const AdmissionRequest&)>;

// Every answer is HTTP 200 with an AdmissionReview (application/json). Bad input gets one too,
// as controller-runtime answers it: a body that is not "application/json", empty or not an
// AdmissionReview is denied with code 400 and what was wrong, in a review without apiVersion and
// kind (there is no request to echo). `path` only names the path in logs.
serving::ServerReply serveAdmissionReview(const std::string& path,
                                          const serving::ServerRequest& request,
                                          const AdmissionHandler& handler);

}  // namespace kf::admission
