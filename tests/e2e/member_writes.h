#pragma once
// Counting the writes a member API server received, from its own request metrics: how e2e tests
// check that a controller wrote exactly what it should (and nothing after a restart).

#include <string>

#include "federation/client/rest_client.h"
#include "federation/metrics/sample_parse.h"

namespace kf::integration {

// Write requests the API server itself counted for one resource (apiserver_request_total): every
// POST, PUT, PATCH, DELETE or APPLY, answered or refused, changing the object or not. -1 when the
// metrics cannot be read.
inline long writesCounted(RestClient& client, const std::string& resource) {
  auto metrics = client.send({.path = "/metrics"});
  return metrics ? metrics::apiServerWrites(metrics.value().body, resource) : -1;
}

}  // namespace kf::integration
