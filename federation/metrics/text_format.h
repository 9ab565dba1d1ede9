#pragma once
// Pieces of the Prometheus text exposition format 0.0.4, written as the Go client writes them so
// that scrapers and golden files see the same bytes as from KubeFed.

#include <string>
#include <string_view>

namespace kf::metrics {

// A sample value: "NaN", "+Inf", "-Inf", else Go's strconv.FormatFloat(v, 'g', -1, 64):
// shortest round-trip digits, exponent form when the decimal exponent is below -4 or at least 6
// ("0.0001", "123456", "1e-05", "1e+06", "1.5e+07").
std::string formatValue(double value);

// A label value inside double quotes: backslash, double quote and newline escaped.
std::string escapeLabelValue(std::string_view value);

// HELP text: backslash and newline escaped (double quotes stay as they are).
std::string escapeHelp(std::string_view help);

}  // namespace kf::metrics
