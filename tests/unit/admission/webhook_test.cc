// One admission path as the API server sees it: the review that comes back for a request, for a
// request the webhook cannot read, and the routes of KubeFed's webhook server.

#include "federation/admission/webhook.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "federation/admission/kubefed_handlers.h"
#include "federation/admission/webhook_routes.h"
#include "federation/client/base64.h"
#include "tests/unit/admission/review_support.h"

namespace kf::admission {
namespace {

using testing::HasSubstr;

Json configRequest(Json spec) {
  return test::requestFor("kubefedconfigs", "CREATE",
                          {{"metadata", {{"name", "kubefed"}}}, {"spec", std::move(spec)}});
}

Json replyJson(const serving::ServerReply& reply) {
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.content_type, "application/json");
  return Json::parse(reply.body, nullptr, false);
}

// Verifies the answer is a review of the request's version with its uid, for v1 and v1beta1.
TEST(AdmissionWebhookTest, AnswersInTheRequestsReviewVersionWithItsUid) {
  for (const char* version : {"admission.k8s.io/v1", "admission.k8s.io/v1beta1"}) {
    const Json review = replyJson(test::send(
        validateKubeFedConfigRequest, test::reviewBody(configRequest({{"scope", "x"}}), version)));
    EXPECT_EQ(review.value("apiVersion", ""), version);
    EXPECT_EQ(review.value("kind", ""), "AdmissionReview");
    EXPECT_EQ(review["response"].value("uid", ""), "0b3c7d5e-uid");
    EXPECT_FALSE(review.contains("request"));
  }
}

// Verifies a review that names no version is answered as admission.k8s.io/v1.
TEST(AdmissionWebhookTest, ReviewWithoutVersionIsAnsweredAsV1) {
  const Json body = {{"request", configRequest({{"scope", "Cluster"}})}};
  const Json review = replyJson(test::send(validateKubeFedConfigRequest, body.dump()));
  EXPECT_EQ(review.value("apiVersion", ""), "admission.k8s.io/v1");
  EXPECT_EQ(review.value("kind", ""), "AdmissionReview");
}

// Verifies the exact response of an allowed and of a denied request, as Go encodes them.
TEST(AdmissionWebhookTest, AllowedAndDeniedResponsesAreShapedAsKubeFeds) {
  const Json allowed = test::respond(defaultKubeFedConfigRequest,
                                     test::requestFor("kubefedconfigs", "DELETE", Json::object()));
  EXPECT_EQ(allowed, Json::parse(R"({"uid": "0b3c7d5e-uid", "allowed": true,
                                     "status": {"metadata": {}, "code": 200}})"));

  const Json denied =
      test::respond(validateKubeFedConfigRequest, configRequest({{"scope", "Cluster"}}));
  EXPECT_EQ(denied["uid"], "0b3c7d5e-uid");
  EXPECT_EQ(denied["allowed"], false);
  EXPECT_EQ(denied["status"]["metadata"], Json::object());
  EXPECT_EQ(denied["status"]["status"], "Failure");
  EXPECT_EQ(denied["status"]["reason"], "Forbidden");
  EXPECT_EQ(denied["status"]["code"], 403);
  EXPECT_EQ(denied["status"]["message"],
            "[spec.controllerDuration: Required value, spec.leaderElect: Required value, "
            "spec.featureGates: Required value, spec.clusterHealthCheck: Required value, "
            "spec.syncController: Required value, spec.statusController: Required value]");
}

// Verifies a patch travels base64-encoded with patchType JSONPatch in an allowed response.
TEST(AdmissionWebhookTest, PatchIsBase64EncodedJsonPatch) {
  const Json response =
      test::respond(defaultKubeFedConfigRequest, configRequest({{"scope", "Cluster"}}));
  EXPECT_TRUE(response.value("allowed", false));
  EXPECT_EQ(response["status"]["code"], 200);
  EXPECT_EQ(response.value("patchType", ""), "JSONPatch");
  const auto patch = base64Decode(response.value("patch", ""));
  ASSERT_TRUE(patch.has_value());
  const Json operations = Json::parse(*patch);
  ASSERT_EQ(operations.size(), 1u);
  EXPECT_EQ(operations[0]["op"], "replace");
  EXPECT_EQ(operations[0]["path"], "/spec");
  EXPECT_EQ(operations[0]["value"]["scope"], "Cluster");
}

struct BadBody {
  std::string name;
  std::string body;
  std::string content_type;
  std::string message;  // what the 400 says
};

std::string badBodyName(const testing::TestParamInfo<BadBody>& param) { return param.param.name; }

class UnreadableReviewTest : public testing::TestWithParam<BadBody> {};

// Verifies a body the webhook cannot read is answered as controller-runtime answers it: HTTP 200
// with an untyped review, denied, code 400 and what was wrong, without calling the handler; and
// that the next request is served normally.
TEST_P(UnreadableReviewTest, IsDeniedWithCode400InAnUntypedReview) {
  bool called = false;
  const AdmissionHandler handler = [&called](const AdmissionRequest&) {
    called = true;
    return allowed();
  };
  const Json review = replyJson(test::send(handler, GetParam().body, GetParam().content_type));
  EXPECT_FALSE(called);
  EXPECT_FALSE(review.contains("apiVersion"));
  EXPECT_FALSE(review.contains("kind"));
  const Json& response = review["response"];
  EXPECT_EQ(response["uid"], "");
  EXPECT_EQ(response["allowed"], false);
  EXPECT_EQ(response["status"]["code"], 400);
  EXPECT_FALSE(response["status"].contains("reason"));
  EXPECT_THAT(response["status"].value("message", ""), HasSubstr(GetParam().message));

  EXPECT_EQ(replyJson(test::send(handler, test::reviewBody(configRequest({}))))["response"].value(
                "allowed", false),
            true);
}

INSTANTIATE_TEST_SUITE_P(
    Bodies, UnreadableReviewTest,
    testing::Values(BadBody{"Empty", "", "application/json", "request body is empty"},
                    BadBody{"NotJson", "{\"request\":", "application/json", "not valid JSON"},
                    BadBody{"NotAnObject", "[1,2]", "application/json", "expected object"},
                    BadBody{"WrongContentType", "{}", "text/plain",
                            "contentType=text/plain, expected application/json"},
                    BadBody{"NoContentType", "{}", "", "contentType=, expected application/json"},
                    BadBody{"RequestNotAnObject", R"({"request": "x"})", "application/json",
                            "request: expected object"},
                    BadBody{"UidNotAString", R"({"request": {"uid": 5}})", "application/json",
                            "request.uid: expected string"},
                    BadBody{"ResourceNotAnObject", R"({"request": {"resource": []}})",
                            "application/json", "request.resource: expected object"}),
    badBodyName);

// Verifies the routes of KubeFed's webhook server: the four admission paths, each with its own
// handler, and /readyz (also /readyz/) answering "ok".
TEST(WebhookRoutesTest, ServeKubeFedsPaths) {
  const serving::Routes routes = kubefedWebhookRoutes();
  for (const char* path : {"/readyz", "/readyz/"}) {
    ASSERT_TRUE(routes.count(path)) << path;
    const serving::ServerReply reply = routes.at(path)(serving::ServerRequest{.path = path});
    EXPECT_EQ(reply.status, 200);
    EXPECT_EQ(reply.body, "ok");
  }
  const auto call = [&routes](const std::string& path, const Json& request) {
    serving::ServerRequest http{.method = "POST",
                                .path = path,
                                .content_type = "application/json",
                                .body = test::reviewBody(request)};
    return Json::parse(routes.at(path)(http).body)["response"];
  };
  const Json ftc = {{"metadata", {{"name", "x"}}}};
  EXPECT_THAT(test::messageOf(call("/validate-federatedtypeconfigs",
                                   test::requestFor("federatedtypeconfigs", "CREATE", ftc))),
              HasSubstr("name must be"));
  EXPECT_THAT(test::messageOf(call("/validate-kubefedcluster",
                                   test::requestFor("kubefedclusters", "CREATE", ftc))),
              HasSubstr("spec.apiEndpoint: Required value"));
  EXPECT_THAT(test::messageOf(call("/validate-kubefedconfig", configRequest({}))),
              HasSubstr("spec.scope: Required value"));
  EXPECT_TRUE(call("/default-kubefedconfig", configRequest({})).contains("patch"));
  EXPECT_EQ(routes.size(), 6u);
}

}  // namespace
}  // namespace kf::admission
