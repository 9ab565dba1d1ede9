// Lists and watches every ConfigMap of a cluster with one shared informer and reports the time
// until it has synced and the resident memory it took per cached object.
//
//   informer_bench --kubeconfig FILE --context NAME populate NAMESPACE COUNT
//   informer_bench --kubeconfig FILE --context NAME sync
//
// `sync` prints one line: objects=<n> sync_seconds=<s> rss_before_kib=<k> rss_after_kib=<k>
// bytes_per_object=<b> peak_bytes_per_object=<b>. bytes_per_object is what the cache holds: the
// resident memory once synced, after the allocator returned what is free (malloc_trim), less
// the memory before; peak_bytes_per_object the high-water mark of resident memory (the list's
// transient trees included) less the memory before; allocated_bytes_per_object the bytes the
// allocator counts in use (mallinfo2) once synced, less those before: the cache without the
// allocator's fragmentation.

#include <malloc.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <future>
#include <string>
#include <vector>

#include "federation/client/kubeconfig.h"
#include "federation/client/resource_client.h"
#include "federation/informer/shared_informer.h"

namespace {

using kf::Json;

// A field of /proc/self/status in KiB ("VmRSS:", "VmHWM:").
long statusKib(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(field, 0) == 0) return std::stol(line.substr(field.size()));
  }
  return -1;
}

int populate(kf::RestClient& client, const std::string& ns, int count) {
  kf::ResourceClient namespaces(client, {"", "v1", "namespaces", false});
  (void)namespaces.create(
      {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}});
  kf::ResourceClient configmaps(client, {"", "v1", "configmaps", true}, ns);
  constexpr int kWriters = 8;
  std::vector<std::future<int>> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.push_back(std::async(std::launch::async, [&, w] {
      int failures = 0;
      for (int i = w; i < count; i += kWriters) {
        Json object = {
            {"apiVersion", "v1"},
            {"kind", "ConfigMap"},
            {"metadata", {{"name", "bench-" + std::to_string(i)}, {"labels", {{"app", "bench"}}}}},
            {"data", {{"index", std::to_string(i)}, {"payload", std::string(64, 'x')}}}};
        auto created = configmaps.create(object);
        if (!created && !kf::isAlreadyExists(created.error())) ++failures;
      }
      return failures;
    }));
  }
  int failures = 0;
  for (auto& writer : writers) failures += writer.get();
  std::fprintf(stderr, "populated %s with %d configmaps (%d failures)\n", ns.c_str(), count,
               failures);
  return failures == 0 ? 0 : 1;
}

int measureSync(kf::RestClient& client) {
  malloc_trim(0);
  const long before = statusKib("VmRSS:");
  const std::size_t allocated_before = mallinfo2().uordblks;
  const auto started = std::chrono::steady_clock::now();
  kf::SharedInformer informer(
      kf::makeListerWatcher(client, {"", "v1", "configmaps", true}, "", "", ""), kf::realClock());
  informer.start();
  if (!informer.waitForSync(started + std::chrono::minutes(10))) {
    std::fprintf(stderr, "the informer did not sync within 10 minutes\n");
    return 1;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const long peak = statusKib("VmHWM:");
  malloc_trim(0);
  const long after = statusKib("VmRSS:");
  const std::size_t allocated_after = mallinfo2().uordblks;
  const std::size_t objects = informer.store().size();
  const auto per_object = [objects](double bytes) {
    return objects == 0 ? 0.0 : bytes / static_cast<double>(objects);
  };
  const auto kib = [](long value) { return static_cast<double>(value) * 1024.0; };
  std::printf(
      "objects=%zu sync_seconds=%.3f rss_before_kib=%ld rss_after_kib=%ld "
      "bytes_per_object=%.0f peak_bytes_per_object=%.0f allocated_bytes_per_object=%.0f\n",
      objects, seconds, before, after, per_object(kib(after - before)),
      per_object(kib(peak - before)),
      per_object(static_cast<double>(allocated_after) - static_cast<double>(allocated_before)));
  informer.stop();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  kf::KubeconfigOptions options;
  std::vector<std::string> positional;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--kubeconfig" && i + 1 < args.size()) {
      options.kubeconfig_path = args[++i];
    } else if (args[i] == "--context" && i + 1 < args.size()) {
      options.context = args[++i];
    } else {
      positional.push_back(args[i]);
    }
  }
  auto config = kf::loadRestConfig(options);
  if (!config) {
    std::fprintf(stderr, "%s\n", config.error().describe().c_str());
    return 2;
  }
  config.value().qps = 1000;  // a benchmark of the informer, not of the client's limiter
  config.value().burst = 2000;
  auto client = kf::RestClient::create(config.value(), kf::realClock());
  if (!client) {
    std::fprintf(stderr, "%s\n", client.error().describe().c_str());
    return 2;
  }
  if (positional.size() == 3 && positional[0] == "populate") {
    return populate(*client.value(), positional[1], std::stoi(positional[2]));
  }
  if (positional.size() == 1 && positional[0] == "sync") return measureSync(*client.value());
  std::fprintf(stderr, "usage: informer_bench --kubeconfig F --context C (populate NS N | sync)\n");
  return 2;
}
