#include "tests/node/metrics_text.h"

#include <algorithm>
#include <sstream>

namespace kf::node {

int64_t sampleSum(const std::string& metrics, const std::string& name,
                  const std::vector<std::string>& labels) {
  std::istringstream lines(metrics);
  int64_t total = 0;
  bool found = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(name + "{", 0) != 0 && line.rfind(name + " ", 0) != 0) continue;
    const std::string::size_type value_at = line.rfind(' ');
    const std::string label_set = line.substr(name.size(), value_at - name.size());
    const bool matches = std::all_of(labels.begin(), labels.end(), [&](const std::string& label) {
      return label_set.find(label) != std::string::npos;
    });
    if (!matches) continue;
    found = true;
    total += static_cast<int64_t>(std::stod(line.substr(value_at + 1)));
  }
  return found ? total : -1;
}

int64_t apiServerWrites(const std::string& metrics, const std::string& resource) {
  if (metrics.find("apiserver_request_total") == std::string::npos) return -1;
  int64_t total = 0;
  for (const char* verb : {"POST", "PUT", "PATCH", "DELETE", "APPLY"}) {
    const int64_t counted =
        sampleSum(metrics, "apiserver_request_total",
                  {"resource=\"" + resource + "\"", std::string("verb=\"") + verb + "\""});
    if (counted > 0) total += counted;
  }
  return total;
}

}  // namespace kf::node
