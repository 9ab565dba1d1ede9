// When an OpenID Connect id-token counts as expired: its exp claim, 10 s early, as client-go.

#include "federation/client/id_token.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "federation/client/base64.h"

namespace kf {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;

std::string jwtPart(const std::string& bytes) {
  std::string text = base64Encode(bytes);
  while (!text.empty() && text.back() == '=') text.pop_back();
  for (char& c : text) c = c == '+' ? '-' : c == '/' ? '_' : c;
  return text;
}

std::string tokenWithClaims(const std::string& claims) {
  return jwtPart(R"({"alg":"RS256"})") + "." + jwtPart(claims) + ".c2lnbmF0dXJl";
}

WallTime at(std::int64_t seconds) { return WallTime{std::chrono::seconds(seconds)}; }

std::string problemWith(const std::string& token) {
  auto expiry = idTokenExpiry(token);
  EXPECT_FALSE(expiry.has_value());
  return expiry ? "" : expiry.error().message;
}

TEST(IdTokenTest, ReadsTheExpiryClaim) {
  EXPECT_EQ(idTokenExpiry(tokenWithClaims(R"({"sub":"a","exp":1700000000})")).value(),
            at(1700000000));
  // A fraction is dropped, as client-go drops it.
  EXPECT_EQ(idTokenExpiry(tokenWithClaims(R"({"exp":1700000000.9})")).value(), at(1700000000));
  // Payload bytes that need base64url's own alphabet (a '>' and a '?' in a claim).
  const std::string url_alphabet = tokenWithClaims(R"({"name":"?>?>","exp":1700000001})");
  EXPECT_NE(url_alphabet.find_first_of("-_"), std::string::npos);
  EXPECT_EQ(idTokenExpiry(url_alphabet).value(), at(1700000001));
}

TEST(IdTokenTest, ATokenWithoutExpiryHasExpired) {
  const auto expiry = idTokenExpiry(tokenWithClaims(R"({"sub":"a"})"));
  ASSERT_TRUE(expiry.has_value());
  EXPECT_TRUE(idTokenExpiredAt(expiry.value(), at(0)));
}

TEST(IdTokenTest, CountsAsExpiredTenSecondsEarly) {
  EXPECT_FALSE(idTokenExpiredAt(at(1000), at(989)));
  EXPECT_TRUE(idTokenExpiredAt(at(1000), at(990)));
  EXPECT_TRUE(idTokenExpiredAt(at(1000), at(2000)));
  EXPECT_FALSE(idTokenExpiredAt(idTokenExpiry(tokenWithClaims(R"({"exp":1e300})")).value(),
                                std::chrono::system_clock::now()));
}

TEST(IdTokenTest, ExplainsWhatIsNotAJwt) {
  EXPECT_EQ(problemWith("opaque-access-token"),
            "the id-token is not a valid JWT: expected three parts separated by dots");
  EXPECT_EQ(problemWith("a.b.c.d"),
            "the id-token is not a valid JWT: expected three parts separated by dots");
  EXPECT_EQ(problemWith("a.%%%.c"),
            "the id-token is not a valid JWT: its payload is not base64url");
  EXPECT_EQ(problemWith("a." + jwtPart("[1]") + ".c"),
            "the id-token is not a valid JWT: its payload is not a JSON object");
  EXPECT_EQ(problemWith(tokenWithClaims(R"({"exp":"tomorrow"})")),
            "the id-token is not a valid JWT: its exp claim is not a number");
  EXPECT_THAT(problemWith(tokenWithClaims(R"({"exp":"tomorrow"})")),
              ::testing::Not(HasSubstr("eyJ")));
}

}  // namespace
}  // namespace kf
