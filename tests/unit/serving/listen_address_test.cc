#include "federation/serving/listen_address.h"

#include <gtest/gtest.h>

namespace kf::serving {
namespace {

// Verifies the address forms KubeFed's flags accept.
TEST(ListenAddressTest, ParsesHostAndPort) {
  auto any = parseListenAddress(":8080");
  ASSERT_TRUE(any) << any.error().describe();
  EXPECT_EQ(any.value().host, "");
  EXPECT_EQ(any.value().port, 8080);

  auto loopback = parseListenAddress("127.0.0.1:0");
  ASSERT_TRUE(loopback);
  EXPECT_EQ(loopback.value().host, "127.0.0.1");
  EXPECT_EQ(loopback.value().port, 0);

  auto v6 = parseListenAddress("[::1]:9090");
  ASSERT_TRUE(v6);
  EXPECT_EQ(v6.value().host, "::1");
  EXPECT_EQ(v6.value().port, 9090);

  auto named = parseListenAddress("localhost:65535");
  ASSERT_TRUE(named);
  EXPECT_EQ(named.value().host, "localhost");
  EXPECT_EQ(named.value().port, 65535);
}

// Verifies malformed addresses fail with kBadConfig and a message naming the address.
TEST(ListenAddressTest, RejectsMalformedAddresses) {
  for (const char* bad :
       {"8080", "", ":", ":http", ":65536", ":-1", ":80x", "::1:80", "[::1:80", "host:"}) {
    auto parsed = parseListenAddress(bad);
    ASSERT_FALSE(parsed) << bad;
    EXPECT_EQ(parsed.error().reason, Reason::kBadConfig) << bad;
    EXPECT_NE(parsed.error().message.find(std::string("\"") + bad + "\""), std::string::npos)
        << parsed.error().message;
  }
}

}  // namespace
}  // namespace kf::serving
