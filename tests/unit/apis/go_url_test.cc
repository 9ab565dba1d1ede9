#include "apis/core/go_url.h"

#include <gtest/gtest.h>

namespace kf::core {
namespace {

TEST(GoUrlTest, KeepsTheHostAsWrittenAndDropsTheUserInformation) {
  const auto url = parseGoUrl("HTTPS://admin:secret@Member_1.Example.COM.:6443/prefix/");
  ASSERT_TRUE(url) << url.error().message;
  EXPECT_EQ(url.value().scheme, "https");
  EXPECT_EQ(url.value().host, "Member_1.Example.COM.:6443");
  EXPECT_EQ(url.value().port(), "6443");
  EXPECT_EQ(url.value().path, "/prefix/");
}

TEST(GoUrlTest, DecodesEscapesOfTheHostAndOfAnIpv6Zone) {
  const auto named = parseGoUrl("https://ex%C3%A4mple.com");
  ASSERT_TRUE(named) << named.error().message;
  EXPECT_EQ(named.value().host, "ex\xC3\xA4mple.com");
  const auto zoned = parseGoUrl("https://[fe80::1%25eth0]:6443");
  ASSERT_TRUE(zoned) << zoned.error().message;
  EXPECT_EQ(zoned.value().host, "[fe80::1%eth0]:6443");
  EXPECT_EQ(zoned.value().port(), "6443");
}

TEST(GoUrlTest, PortIsTheDigitsAfterTheLastColon) {
  for (const auto& [text, port] :
       std::vector<std::pair<std::string, std::string>>{{"https://h", ""},
                                                        {"https://h:", ""},
                                                        {"https://h:80", "80"},
                                                        {"https://[::1]", ""},
                                                        {"https://[::1]:8080", "8080"},
                                                        {"https://a:b:80", "80"}}) {
    const auto url = parseGoUrl(text);
    ASSERT_TRUE(url) << text << ": " << url.error().message;
    EXPECT_EQ(url.value().port(), port) << text;
  }
}

TEST(GoUrlTest, TextsWithoutAnAuthorityHaveNoHost) {
  for (const char* text : {"example.com", "example.com:6443", "mailto:a@b", "///h/path"}) {
    const auto url = parseGoUrl(text);
    ASSERT_TRUE(url) << text << ": " << url.error().message;
    EXPECT_EQ(url.value().host, "") << text;
  }
  EXPECT_EQ(parseGoUrl("example.com:6443").value().scheme, "example.com");
}

TEST(GoUrlTest, ErrorsReadAsGoPrintsThem) {
  for (const auto& [text, message] : std::vector<std::pair<std::string, std::string>>{
           {"1.2.3.4:80", "parse \"1.2.3.4:80\": first path segment in URL cannot contain colon"},
           {":80", "parse \":80\": missing protocol scheme"},
           {"https://a b", "parse \"https://a b\": invalid character \" \" in host name"},
           {"https://h\x7f", "parse \"https://h\\x7f\": net/url: invalid control character in URL"},
           {"https://[::1%25a b]",
            "parse \"https://[::1%25a b]\": invalid character \" \" in host "
            "name"},
           {"https://[::1%25%41]", ""},
           {"https://[::1%25%2F]", "parse \"https://[::1%25%2F]\": invalid URL escape \"%2F\""},
           {"https://h/%", "parse \"https://h/%\": invalid URL escape \"%\""}}) {
    const auto url = parseGoUrl(text);
    if (message.empty()) {
      EXPECT_TRUE(url) << text << ": " << url.error().message;
    } else {
      ASSERT_FALSE(url) << text;
      EXPECT_EQ(url.error().message, message);
    }
  }
}

}  // namespace
}  // namespace kf::core
