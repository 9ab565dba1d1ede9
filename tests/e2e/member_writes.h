#pragma once
// Counting the writes a member API server received, from its own request metrics: how e2e tests
// check that a controller wrote exactly what it should (and nothing after a restart).

#include <regex>
#include <sstream>
#include <string>

#include "federation/client/rest_client.h"

namespace kf::integration {

// Write requests the API server itself counted for one resource (apiserver_request_total): every
// POST, PUT, PATCH, DELETE or APPLY, answered or refused, changing the object or not. -1 when the
// metrics cannot be read.
inline long writesCounted(RestClient& client, const std::string& resource) {
  auto metrics = client.send({.path = "/metrics"});
  if (!metrics) return -1;
  std::istringstream lines(metrics.value().body);
  long total = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("apiserver_request_total{", 0) != 0) continue;
    if (line.find("resource=\"" + resource + "\"") == std::string::npos) continue;
    static const std::regex write_verb("verb=\"(POST|PUT|PATCH|DELETE|APPLY)\"");
    if (!std::regex_search(line, write_verb)) continue;
    total += std::stol(line.substr(line.rfind(' ') + 1));
  }
  return total;
}

}  // namespace kf::integration
