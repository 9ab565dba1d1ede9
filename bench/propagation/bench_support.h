// What the propagation benchmark's modes share: clients of the run's clusters, the API servers'
// own write counts, a process's CPU time and memory from /proc.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "federation/client/rest_client.h"

namespace kf::bench {

// The members a run federates to: member1..memberN.
std::vector<std::string> memberNames(int count);

// A client of one context of the run's kubeconfig with the given limits; exits when the
// kubeconfig cannot be loaded.
std::unique_ptr<RestClient> clientFor(const std::string& kubeconfig, const std::string& context,
                                      double qps, int burst);

// Write requests (POST, PUT, PATCH, DELETE, APPLY) the API server counted for `resources` in
// its own apiserver_request_total; -1 when its metrics cannot be read.
long writesTo(RestClient& client, const std::vector<std::string>& resources);

// The sum of every sample of `metric` in the API server's /metrics; -1 when they cannot be read.
long metricTotal(RestClient& client, const std::string& metric);

struct ProcessUsage {
  double cpu_seconds = 0;
  long rss_kib = 0;       // resident now (VmRSS)
  long peak_rss_kib = 0;  // resident at most, over the process's life (VmHWM)
};

ProcessUsage usageOf(int pid);

// The value at fraction p (0..1) of the sorted values; 0 when there are none.
double percentile(std::vector<double> values, double p);

}  // namespace kf::bench
