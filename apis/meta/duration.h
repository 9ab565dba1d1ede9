#pragma once
// Go time.Duration text: time.ParseDuration and Duration.String(), as metav1.Duration uses
// them for its JSON form ("20s", "1m30s", "1500ms" reads back as "1.5s").

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace kf::meta {

// nullopt on anything time.ParseDuration rejects (syntax, unknown unit, overflow).
std::optional<std::chrono::nanoseconds> parseGoDuration(std::string_view text);

// Duration.String(): "0s", "1.5ms", "1µs", "1m30s", "1h0m0s", "-2s".
std::string formatGoDuration(std::chrono::nanoseconds value);

// A metav1.Duration field: the value plus the text it was read from, so an object read and
// written back keeps "1500ms" instead of turning it into "1.5s".
class Duration {
 public:
  Duration() = default;
  explicit Duration(std::chrono::nanoseconds value) : value_(value) {}
  static std::optional<Duration> parse(std::string_view text);

  std::chrono::nanoseconds value() const { return value_; }
  void setValue(std::chrono::nanoseconds value) {
    value_ = value;
    text_.clear();
  }
  // The original text while it still denotes value(); otherwise Go's formatting.
  std::string text() const;

 private:
  std::chrono::nanoseconds value_{0};
  std::string text_;
};

}  // namespace kf::meta
