#pragma once
// Counting the writes a member API server received, from its own request metrics: how e2e tests
// check that a controller wrote exactly what it should (and nothing after a restart).

#include <map>
#include <optional>
#include <string>

#include "federation/client/rest_client.h"
#include "federation/metrics/sample_parse.h"

namespace kf::integration {

// Write requests the API server itself counted for one resource (apiserver_request_total): every
// POST, PUT, PATCH, DELETE or APPLY, answered or refused, changing the object or not, except dry
// runs. nullopt when the metrics cannot be read, so that a count cannot pass for zero.
inline std::optional<long> writesCounted(RestClient& client, const std::string& resource) {
  auto metrics = client.send({.path = "/metrics"});
  if (!metrics) return std::nullopt;
  return metrics::apiServerWrites(metrics.value().body, resource);
}

// The same writes by "VERB code" ("PUT 409"), to say which writes were unexpected. nullopt when
// the metrics cannot be read.
inline std::optional<std::map<std::string, long>> writesByVerbAndCode(RestClient& client,
                                                                      const std::string& resource) {
  std::map<std::string, long> out;
  auto metrics = client.send({.path = "/metrics"});
  if (!metrics) return std::nullopt;
  for (const auto& sample :
       metrics::samplesNamed(metrics.value().body, "apiserver_request_total")) {
    const auto label = [&](const char* name) {
      const auto found = sample.labels.find(name);
      return found == sample.labels.end() ? std::string() : found->second;
    };
    const std::string verb = label("verb");
    const bool write =
        verb == "POST" || verb == "PUT" || verb == "PATCH" || verb == "DELETE" || verb == "APPLY";
    if (label("resource") != resource || !label("dry_run").empty() || !write) continue;
    out[verb + " " + label("code")] += static_cast<long>(sample.value);
  }
  return out;
}

// What `after` counted more than `before`, as "PUT 409: 1, POST 201: 2".
inline std::string writesAdded(const std::map<std::string, long>& before,
                               const std::map<std::string, long>& after) {
  std::string out;
  for (const auto& [key, count] : after) {
    const auto earlier = before.find(key);
    const long added = count - (earlier == before.end() ? 0 : earlier->second);
    if (added != 0) out += (out.empty() ? "" : ", ") + key + ": " + std::to_string(added);
  }
  return out;
}

}  // namespace kf::integration
