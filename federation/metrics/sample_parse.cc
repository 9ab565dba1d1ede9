#include "federation/metrics/sample_parse.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace kf::metrics {
namespace {

// A label value from just after its opening quote; its end (the closing quote) in *end.
std::optional<std::string> quotedLabelValue(std::string_view text, std::size_t* end) {
  std::string value;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      *end = i;
      return value;
    }
    if (c != '\\') {
      value += c;
      continue;
    }
    if (++i == text.size()) return std::nullopt;
    value += text[i] == 'n' ? '\n' : text[i];
  }
  return std::nullopt;
}

// The labels between `{` and `}` into *labels; the rest of the line after `}`, nullopt if
// malformed.
std::optional<std::string_view> parseLabels(
    std::string_view text, std::map<std::string, std::string, std::less<>>* labels) {
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == '}') return text.substr(i + 1);
    const std::size_t equals = text.find("=\"", i);
    if (equals == std::string_view::npos) return std::nullopt;
    std::size_t close = 0;
    auto value = quotedLabelValue(text.substr(equals + 2), &close);
    if (!value) return std::nullopt;
    (*labels)[std::string(text.substr(i, equals - i))] = std::move(*value);
    i = equals + 2 + close + 1;
    if (i < text.size() && text[i] == ',') ++i;
  }
  return std::nullopt;
}

std::optional<double> parseValue(std::string_view text) {
  const std::size_t start = text.find_first_not_of(' ');
  if (start == std::string_view::npos) return std::nullopt;
  text = text.substr(start);
  text = text.substr(0, text.find(' '));  // a timestamp may follow
  if (text == "+Inf") return INFINITY;
  if (text == "-Inf") return -INFINITY;
  if (text == "NaN") return NAN;
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

}  // namespace

std::optional<Sample> parseSample(std::string_view line) {
  if (line.empty() || line.front() == '#') return std::nullopt;
  Sample sample;
  const std::size_t name_end = line.find_first_of("{ ");
  if (name_end == 0 || name_end == std::string_view::npos) return std::nullopt;
  sample.name = std::string(line.substr(0, name_end));
  std::string_view rest = line.substr(name_end);
  if (rest.front() == '{') {
    auto after = parseLabels(rest.substr(1), &sample.labels);
    if (!after) return std::nullopt;
    rest = *after;
  }
  auto value = parseValue(rest);
  if (!value) return std::nullopt;
  sample.value = *value;
  return sample;
}

std::vector<Sample> samplesNamed(std::string_view metrics_text, std::string_view name) {
  std::vector<Sample> samples;
  while (!metrics_text.empty()) {
    const std::size_t end = metrics_text.find('\n');
    auto sample = parseSample(metrics_text.substr(0, end));
    metrics_text = end == std::string_view::npos ? "" : metrics_text.substr(end + 1);
    if (sample && sample->name == name) samples.push_back(std::move(*sample));
  }
  return samples;
}

long apiServerWrites(std::string_view metrics_text, std::string_view resource) {
  static constexpr std::array<std::string_view, 5> kWriteVerbs = {"POST", "PUT", "PATCH", "DELETE",
                                                                  "APPLY"};
  const auto labeled = [](const Sample& sample, std::string_view label) -> std::string_view {
    const auto found = sample.labels.find(label);
    return found == sample.labels.end() ? std::string_view() : std::string_view(found->second);
  };
  long total = 0;
  for (const Sample& sample : samplesNamed(metrics_text, "apiserver_request_total")) {
    if (labeled(sample, "resource") != resource || !labeled(sample, "dry_run").empty()) continue;
    const std::string_view verb = labeled(sample, "verb");
    for (const std::string_view write : kWriteVerbs) {
      if (verb == write) total += std::lround(sample.value);
    }
  }
  return total;
}

}  // namespace kf::metrics
