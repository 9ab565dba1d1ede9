#pragma once
// Reading Prometheus text metrics (the API servers' and the controller manager's).

#include <cstdint>
#include <string>
#include <vector>

namespace kf::node {

// Sum of the samples of `name` whose label set contains every one of `labels` (each written as
// in the text, e.g. `controller="x"`); -1 when the text has no such sample.
int64_t sampleSum(const std::string& metrics, const std::string& name,
                  const std::vector<std::string>& labels);

// Write requests (POST, PUT, PATCH, DELETE, APPLY; any subresource and code) an API server
// counted for `resource` in apiserver_request_total; -1 when the text has none at all.
int64_t apiServerWrites(const std::string& metrics, const std::string& resource);

}  // namespace kf::node
