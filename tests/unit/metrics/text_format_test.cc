#include "federation/metrics/text_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace kf::metrics {
namespace {

// Verifies values are written as the Go client writes them (strconv 'g', shortest digits).
TEST(FormatValueTest, MatchesGoShortestGeneralFormat) {
  EXPECT_EQ(formatValue(0), "0");
  EXPECT_EQ(formatValue(-0.0), "0");
  EXPECT_EQ(formatValue(1), "1");
  EXPECT_EQ(formatValue(-1), "-1");
  EXPECT_EQ(formatValue(0.01), "0.01");
  EXPECT_EQ(formatValue(2.5), "2.5");
  EXPECT_EQ(formatValue(1000), "1000");
  EXPECT_EQ(formatValue(123456), "123456");
  EXPECT_EQ(formatValue(1e6), "1e+06");
  EXPECT_EQ(formatValue(1.5e7), "1.5e+07");
  EXPECT_EQ(formatValue(1234567), "1.234567e+06");
  EXPECT_EQ(formatValue(0.0001), "0.0001");
  EXPECT_EQ(formatValue(0.00001), "1e-05");
  EXPECT_EQ(formatValue(1.25e-100), "1.25e-100");
  EXPECT_EQ(formatValue(0.1 + 0.2), "0.30000000000000004");
  EXPECT_EQ(formatValue(-3.75), "-3.75");
}

// Verifies the special values use Prometheus' spelling.
TEST(FormatValueTest, WritesSpecialValuesInPrometheusSpelling) {
  EXPECT_EQ(formatValue(std::numeric_limits<double>::quiet_NaN()), "NaN");
  EXPECT_EQ(formatValue(std::numeric_limits<double>::infinity()), "+Inf");
  EXPECT_EQ(formatValue(-std::numeric_limits<double>::infinity()), "-Inf");
}

// Verifies label values escape backslash, double quote and newline, and nothing else.
TEST(EscapeTest, EscapesLabelValues) {
  EXPECT_EQ(escapeLabelValue(R"(a\b"c)"
                             "\n"
                             "d\te"),
            R"(a\\b\"c\nd)"
            "\te");
}

// Verifies HELP text escapes backslash and newline but keeps double quotes.
TEST(EscapeTest, EscapesHelpText) {
  EXPECT_EQ(escapeHelp("say \"hi\"\\\nbye"), "say \"hi\"\\\\\\nbye");
}

}  // namespace
}  // namespace kf::metrics
