#include "federation/client/status_error.h"

#include <gtest/gtest.h>

namespace kf {
namespace {

TEST(StatusErrorTest, MapsNotFoundStatus) {
  const auto error =
      errorFromResponse(404, R"({"kind":"Status","apiVersion":"v1","status":"Failure",
      "message":"configmaps \"x\" not found","reason":"NotFound",
      "details":{"name":"x","kind":"configmaps"},"code":404})",
                        std::nullopt);
  EXPECT_TRUE(isNotFound(error));
  EXPECT_EQ(error.http_code, 404);
  EXPECT_EQ(error.message, "configmaps \"x\" not found");
}

TEST(StatusErrorTest, MapsInvalidWithCauses) {
  const auto error = errorFromResponse(422, R"({"kind":"Status","status":"Failure",
      "message":"ConfigMap \"Bad\" is invalid","reason":"Invalid","code":422,
      "details":{"causes":[{"reason":"FieldValueInvalid","message":"Invalid value: \"Bad\"",
      "field":"metadata.name"}]}})",
                                       std::nullopt);
  ASSERT_TRUE(isInvalid(error));
  ASSERT_EQ(error.causes.size(), 1u);
  EXPECT_EQ(error.causes[0].field, "metadata.name");
  EXPECT_EQ(error.causes[0].reason, "FieldValueInvalid");
  EXPECT_NE(error.describe().find("metadata.name: Invalid value"), std::string::npos);
}

struct ReasonCase {
  const char* reason;
  int code;
  Reason want;
};

class StatusReasonTest : public ::testing::TestWithParam<ReasonCase> {};

TEST_P(StatusReasonTest, MapsReasonField) {
  const auto& c = GetParam();
  const std::string body = std::string(R"({"kind":"Status","reason":")") + c.reason +
                           R"(","code":)" + std::to_string(c.code) + "}";
  EXPECT_EQ(errorFromResponse(c.code, body, std::nullopt).reason, c.want) << c.reason;
}

INSTANTIATE_TEST_SUITE_P(
    Reasons, StatusReasonTest,
    ::testing::Values(ReasonCase{"AlreadyExists", 409, Reason::kAlreadyExists},
                      ReasonCase{"Conflict", 409, Reason::kConflict},
                      ReasonCase{"Forbidden", 403, Reason::kForbidden},
                      ReasonCase{"Unauthorized", 401, Reason::kUnauthorized},
                      ReasonCase{"Gone", 410, Reason::kGone},
                      ReasonCase{"Expired", 410, Reason::kExpired},
                      ReasonCase{"TooManyRequests", 429, Reason::kTooManyRequests},
                      ReasonCase{"Timeout", 504, Reason::kTimeout},
                      ReasonCase{"ServerTimeout", 500, Reason::kServerTimeout},
                      ReasonCase{"InternalError", 500, Reason::kInternalError},
                      ReasonCase{"ServiceUnavailable", 503, Reason::kServiceUnavailable},
                      ReasonCase{"", 404, Reason::kNotFound},
                      ReasonCase{"", 502, Reason::kInternalError}));

TEST(StatusErrorTest, FallsBackToHttpCodeForNonStatusBody) {
  const auto error = errorFromResponse(503, "<html>down</html>", std::nullopt);
  EXPECT_EQ(error.reason, Reason::kServiceUnavailable);
  EXPECT_EQ(error.message, "<html>down</html>");
}

TEST(StatusErrorTest, EmptyBodyGetsMessageFromCode) {
  const auto error = errorFromResponse(401, "", std::nullopt);
  EXPECT_TRUE(isUnauthorized(error));
  EXPECT_NE(error.message.find("401"), std::string::npos);
}

TEST(StatusErrorTest, ReadsRetryAfterHeaderAndDetails) {
  const auto from_header = errorFromResponse(429, R"({"kind":"Status","reason":"TooManyRequests"})",
                                             std::string_view("7"));
  ASSERT_TRUE(from_header.retry_after.has_value());
  EXPECT_EQ(*from_header.retry_after, std::chrono::seconds(7));
  const auto from_details = errorFromResponse(
      429, R"({"kind":"Status","reason":"TooManyRequests","details":{"retryAfterSeconds":3}})",
      std::nullopt);
  ASSERT_TRUE(from_details.retry_after.has_value());
  EXPECT_EQ(*from_details.retry_after, std::chrono::seconds(3));
  EXPECT_FALSE(errorFromResponse(429, "", std::string_view("soon")).retry_after.has_value());
}

TEST(StatusErrorTest, DecodesWatchErrorStatusAsGone) {
  const auto error = errorFromStatusObject(Json::parse(
      R"json({"kind":"Status","status":"Failure","message":"too old resource version: 1 (5)",
          "reason":"Expired","code":410})json"));
  EXPECT_TRUE(isGone(error));
  EXPECT_EQ(error.http_code, 410);
}

TEST(StatusErrorTest, ClassifiesRetriableErrors) {
  EXPECT_TRUE(isRetriable(makeError(Reason::kConnectionFailed, "")));
  EXPECT_TRUE(isRetriable(makeError(Reason::kTooManyRequests, "")));
  EXPECT_TRUE(isRetriable(makeError(Reason::kServiceUnavailable, "")));
  EXPECT_FALSE(isRetriable(makeError(Reason::kNotFound, "")));
  EXPECT_FALSE(isRetriable(makeError(Reason::kConflict, "")));
  EXPECT_FALSE(isRetriable(makeError(Reason::kTlsVerification, "")));
}

}  // namespace
}  // namespace kf
