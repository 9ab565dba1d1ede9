#pragma once
// Sending an AdmissionReview to a handler the way a kube-apiserver does, and reading the answer.

#include <gtest/gtest.h>

#include <string>

#include "federation/admission/webhook.h"

namespace kf::admission::test {

// An AdmissionRequest as the API server sends it for `operation` on a core.kubefed.io resource.
inline Json requestFor(const std::string& resource, const std::string& operation,
                       const Json& object, const std::string& sub_resource = "") {
  Json request = {
      {"uid", "0b3c7d5e-uid"},
      {"kind", {{"group", "core.kubefed.io"}, {"version", "v1beta1"}, {"kind", "X"}}},
      {"resource", {{"group", "core.kubefed.io"}, {"version", "v1beta1"}, {"resource", resource}}},
      {"name",
       object.is_object() ? object.value("metadata", Json::object()).value("name", "") : ""},
      {"namespace", "kube-federation-system"},
      {"operation", operation},
      {"userInfo", {{"username", "admin"}}},
      {"object", object}};
  if (!sub_resource.empty()) request["subResource"] = sub_resource;
  return request;
}

inline std::string reviewBody(const Json& request,
                              const std::string& api_version = "admission.k8s.io/v1") {
  return Json{{"apiVersion", api_version}, {"kind", "AdmissionReview"}, {"request", request}}
      .dump();
}

// The whole reply to a review body sent as application/json.
inline serving::ServerReply send(const AdmissionHandler& handler, const std::string& body,
                                 const std::string& content_type = "application/json") {
  serving::ServerRequest http;
  http.method = "POST";
  http.path = "/test";
  http.content_type = content_type;
  http.body = body;
  return serveAdmissionReview("/test", http, handler);
}

// The "response" of the review a handler answers `request` with.
inline Json respond(const AdmissionHandler& handler, const Json& request) {
  const serving::ServerReply reply = send(handler, reviewBody(request));
  EXPECT_EQ(reply.status, 200);
  const Json review = Json::parse(reply.body, nullptr, false);
  EXPECT_TRUE(review.is_object()) << reply.body;
  return review.is_object() ? review.value("response", Json()) : Json();
}

inline std::string messageOf(const Json& response) {
  return response.value("status", Json::object()).value("message", "");
}

}  // namespace kf::admission::test
