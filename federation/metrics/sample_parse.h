#pragma once
// Reading samples back from a Prometheus text exposition (format 0.0.4): how tests and benchmarks
// count what a kube-apiserver (or our controller manager) says it did.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kf::metrics {

// One sample line: `name{label="value",...} value [timestamp]`.
struct Sample {
  std::string name;
  std::map<std::string, std::string, std::less<>> labels;  // values unescaped
  double value = 0;
};

// The sample of one line; nullopt for comments, blank lines and malformed lines.
std::optional<Sample> parseSample(std::string_view line);

// Every sample of the metric `name` in a metrics text, in order.
std::vector<Sample> samplesNamed(std::string_view metrics_text, std::string_view name);

// The write requests (verbs POST, PUT, PATCH, DELETE, APPLY; answered or refused, changing the
// object or not) a kube-apiserver counted in its apiserver_request_total for `resource`
// (main resource and subresources alike), from the text of its /metrics. Dry runs store nothing
// and are not counted.
long apiServerWrites(std::string_view metrics_text, std::string_view resource);

}  // namespace kf::metrics
