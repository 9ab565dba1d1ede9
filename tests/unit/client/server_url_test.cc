#include "federation/client/server_url.h"

#include <gtest/gtest.h>

namespace kf {
namespace {

TEST(ServerUrlTest, ParsesHttpsWithPortAndPrefix) {
  auto url = parseServerUrl("https://127.0.0.1:6443/some/prefix/");
  ASSERT_TRUE(url) << url.error().describe();
  EXPECT_EQ(url.value().host, "127.0.0.1");
  EXPECT_EQ(url.value().port, "6443");
  EXPECT_EQ(url.value().path_prefix, "/some/prefix");
  EXPECT_TRUE(url.value().tls());
}

TEST(ServerUrlTest, DefaultsSchemeAndPort) {
  auto bare = parseServerUrl("example.com");
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare.value().scheme, "https");
  EXPECT_EQ(bare.value().port, "443");
  auto http = parseServerUrl("http://example.com");
  ASSERT_TRUE(http);
  EXPECT_EQ(http.value().port, "80");
}

TEST(ServerUrlTest, ParsesBracketedIpv6) {
  auto url = parseServerUrl("https://[::1]:8443");
  ASSERT_TRUE(url);
  EXPECT_EQ(url.value().host, "::1");
  EXPECT_EQ(url.value().authority(), "[::1]:8443");
  EXPECT_TRUE(isIpLiteral("::1"));
  EXPECT_TRUE(isIpLiteral("127.0.0.1"));
  EXPECT_FALSE(isIpLiteral("localhost"));
}

// KubeFedCluster endpoints take any URL Go parses; Go dials such a URL's host as these do.
TEST(ServerUrlTest, TakesTheSchemeInAnyCaseAndDropsUserInformation) {
  auto url = parseServerUrl("HTTPS://admin:secret@Member.Example.COM.:6443/prefix");
  ASSERT_TRUE(url) << url.error().describe();
  EXPECT_EQ(url.value().scheme, "https");
  EXPECT_EQ(url.value().host, "Member.Example.COM.");
  EXPECT_EQ(url.value().authority(), "Member.Example.COM.:6443");
  EXPECT_EQ(url.value().path_prefix, "/prefix");
  auto http = parseServerUrl("Http://user@example.com");
  ASSERT_TRUE(http) << http.error().describe();
  EXPECT_EQ(http.value().authority(), "example.com:80");
}

// Go's TLS client neither sends nor checks the dot that ends a fully qualified name, and Go
// servers refuse a server name that ends in one.
TEST(ServerUrlTest, TlsServerNameHasNoTrailingDot) {
  EXPECT_EQ(tlsServerName("member.example.com."), "member.example.com");
  EXPECT_EQ(tlsServerName("LOCALHOST"), "LOCALHOST");
  EXPECT_EQ(tlsServerName("127.0.0.1"), "127.0.0.1");
  EXPECT_EQ(tlsServerName(""), "");
}

TEST(ServerUrlTest, RejectsBadSchemeAndPort) {
  auto scheme = parseServerUrl("tcp://h:1");
  ASSERT_FALSE(scheme);
  EXPECT_EQ(scheme.error().reason, Reason::kBadConfig);
  EXPECT_NE(scheme.error().message.find("tcp"), std::string::npos);
  EXPECT_FALSE(parseServerUrl("https://h:0"));
  EXPECT_FALSE(parseServerUrl("https://h:70000"));
  EXPECT_FALSE(parseServerUrl("https://h:abc"));
  EXPECT_FALSE(parseServerUrl("https://:443"));
}

}  // namespace
}  // namespace kf
