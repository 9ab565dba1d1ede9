#include "bench/propagation/bench_support.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "federation/client/kubeconfig.h"
#include "federation/metrics/sample_parse.h"

namespace kf::bench {

std::vector<std::string> memberNames(int count) {
  std::vector<std::string> names;
  for (int i = 1; i <= count; ++i) names.push_back("member" + std::to_string(i));
  return names;
}

std::unique_ptr<RestClient> clientFor(const std::string& kubeconfig, const std::string& context,
                                      double qps, int burst) {
  auto config = loadRestConfig({kubeconfig, context, "", ""});
  if (!config) {
    std::fprintf(stderr, "%s: %s\n", context.c_str(), config.error().describe().c_str());
    std::exit(2);
  }
  config.value().qps = qps;
  config.value().burst = burst;
  auto client = RestClient::create(config.value(), realClock());
  if (!client) {
    std::fprintf(stderr, "%s: %s\n", context.c_str(), client.error().describe().c_str());
    std::exit(2);
  }
  return std::move(client).value();
}

long writesTo(RestClient& client, const std::vector<std::string>& resources) {
  auto metrics = client.send({.path = "/metrics"});
  if (!metrics) return -1;
  long total = 0;
  for (const std::string& resource : resources) {
    total += metrics::apiServerWrites(metrics.value().body, resource);
  }
  return total;
}

long metricTotal(RestClient& client, const std::string& metric) {
  auto metrics = client.send({.path = "/metrics"});
  if (!metrics) return -1;
  double total = 0;
  for (const auto& sample : metrics::samplesNamed(metrics.value().body, metric)) {
    total += sample.value;
  }
  return std::lround(total);
}

ProcessUsage usageOf(int pid) {
  ProcessUsage usage;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const auto command_end = text.rfind(')');
  if (command_end == std::string::npos) return usage;
  std::istringstream fields(text.substr(command_end + 2));
  std::vector<std::string> f;
  for (std::string field; fields >> field;) f.push_back(field);
  if (f.size() > 13) {
    // utime and stime are fields 14 and 15 of /proc/PID/stat (11 and 12 after the command).
    usage.cpu_seconds =
        (std::stod(f[11]) + std::stod(f[12])) / static_cast<double>(sysconf(_SC_CLK_TCK));
  }
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmHWM:", 0) == 0) usage.peak_rss_kib = std::stol(line.substr(6));
    if (line.rfind("VmRSS:", 0) == 0) usage.rss_kib = std::stol(line.substr(6));
  }
  return usage;
}

double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto index = static_cast<std::size_t>(p * static_cast<double>(values.size() - 1) + 0.5);
  return values[std::min(index, values.size() - 1)];
}

}  // namespace kf::bench
