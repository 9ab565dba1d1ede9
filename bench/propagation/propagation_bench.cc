// Propagation benchmark: how long the controller manager takes to propagate COUNT federated
// ConfigMaps to every member, and what a direct writer (the same objects created straight into
// the members with the controller's member-client limits) takes: our physical limit. And a cold
// restart of the controller manager once everything is propagated (cold_restart.h).
//
//   propagation_bench --kubeconfig F [--members N] federated NAMESPACE COUNT MANAGER_PID [CREATORS]
//   propagation_bench --kubeconfig F [--members N] direct NAMESPACE COUNT [MEMBER_QPS MEMBER_BURST]
//   propagation_bench --kubeconfig F [--members N] restart RUN_DIR [PROBES [BINARY]]
//
// federated: CREATORS writers create the federated objects in parallel (default 1: one after
// the other); create_seconds says how long the creates took, the floor of the propagation time.
// restart: PROBES users' writes during the re-check (cold_restart.h), BINARY the controller
// manager to restart with (default: the one that runs).
// The members are member1..memberN (N = 2 unless given). The direct writer's limits default to
// the controller's member-client limits (KubeFed's QPS 20, burst 30).
//
// Prints one line of key=value figures for bench/propagation/run.sh.

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench/propagation/bench_support.h"
#include "bench/propagation/cold_restart.h"
#include "federation/client/resource_client.h"
#include "federation/informer/shared_informer.h"

namespace {

using Clock = std::chrono::steady_clock;
using kf::GroupVersionResource;
using kf::Json;
using kf::bench::clientFor;
using kf::bench::percentile;
using kf::bench::ProcessUsage;
using kf::bench::usageOf;
using kf::bench::writesTo;

const GroupVersionResource kConfigMaps{"", "v1", "configmaps", true};
const GroupVersionResource kFederatedConfigMaps{"types.kubefed.io", "v1beta1",
                                                "federatedconfigmaps", true};

long configMapWrites(kf::RestClient& client) { return writesTo(client, {"configmaps"}); }

// What the sync controller writes to the host per federated object (and the bench's creates).
const std::vector<std::string> kHostResources = {"federatedconfigmaps", "propagatedversions"};

std::string objectName(int i) { return "bench-" + std::to_string(i); }

Json federatedConfigMap(const std::string& ns, int i, const std::vector<std::string>& members) {
  Json clusters = Json::array();
  for (const auto& m : members) clusters.push_back({{"name", m}});
  return {{"apiVersion", "types.kubefed.io/v1beta1"},
          {"kind", "FederatedConfigMap"},
          {"metadata", {{"name", objectName(i)}, {"namespace", ns}}},
          {"spec",
           {{"template", {{"data", {{"index", std::to_string(i)}, {"payload", "x"}}}}},
            {"placement", {{"clusters", clusters}}}}}};
}

// Records when each ConfigMap first appears in one member.
class Arrivals {
 public:
  void seen(const std::string& member, const std::string& name) {
    std::lock_guard lock(mu_);
    arrivals_.try_emplace(member + "/" + name, Clock::now());
  }
  std::size_t count() {
    std::lock_guard lock(mu_);
    return arrivals_.size();
  }
  std::map<std::string, Clock::time_point> all() {
    std::lock_guard lock(mu_);
    return arrivals_;
  }

 private:
  std::mutex mu_;
  std::map<std::string, Clock::time_point> arrivals_;
};

bool propagated(const Json& federated) {
  for (const auto& c :
       federated.value("status", Json::object()).value("conditions", Json::array())) {
    if (c.value("type", "") == "Propagation" && c.value("status", "") == "True") return true;
  }
  return false;
}

// Creates the COUNT federated objects with `creators` writers in parallel (object i by writer
// i mod creators), each noting when its creates returned. False if one failed.
bool createFederated(kf::ResourceClient& federated, const std::vector<std::string>& member_names,
                     const std::string& ns, int count, int creators,
                     std::vector<Clock::time_point>& created) {
  std::atomic<bool> failed{false};
  std::vector<std::thread> writers;
  for (int writer = 0; writer < creators; ++writer) {
    writers.emplace_back([&, writer] {
      for (int i = writer; i < count && !failed; i += creators) {
        auto done = federated.create(federatedConfigMap(ns, i, member_names));
        if (!done) {
          std::fprintf(stderr, "create %s: %s\n", objectName(i).c_str(),
                       done.error().describe().c_str());
          failed = true;
          return;
        }
        created[static_cast<std::size_t>(i)] = Clock::now();
      }
    });
  }
  for (auto& w : writers) w.join();
  return !failed;
}

int runFederated(const std::string& kubeconfig, const std::vector<std::string>& member_names,
                 const std::string& ns, int count, int pid, int creators) {
  auto host = clientFor(kubeconfig, "host", 1000, 2000);
  std::map<std::string, std::unique_ptr<kf::RestClient>> members;
  for (const auto& m : member_names) members[m] = clientFor(kubeconfig, m, 1000, 2000);
  std::map<std::string, long> writes_before;
  for (const auto& [name, client] : members) writes_before[name] = configMapWrites(*client);
  const long host_writes_before = writesTo(*host, kHostResources);
  const long apf_rejected_before =
      kf::bench::metricTotal(*host, "apiserver_flowcontrol_rejected_requests_total");

  Arrivals arrivals;
  std::vector<std::unique_ptr<kf::SharedInformer>> informers;
  for (const auto& [member, client] : members) {
    auto informer = std::make_unique<kf::SharedInformer>(
        kf::makeListerWatcher(*client, kConfigMaps, ns, "kubefed.io/managed=true", ""),
        kf::realClock());
    auto handler = std::make_shared<kf::EventHandlerFuncs>();
    handler->on_add = [&arrivals, m = member](const kf::ObjectPtr& o, bool) {
      arrivals.seen(m, kf::objectName(*o));
    };
    informer->addEventHandler(handler);
    informer->start();
    informer->waitForSync(Clock::now() + std::chrono::seconds(60));
    informers.push_back(std::move(informer));
  }

  const ProcessUsage usage_before = usageOf(pid);
  kf::ResourceClient federated(*host, kFederatedConfigMaps, ns);
  std::vector<Clock::time_point> created(static_cast<std::size_t>(count));
  const auto start = Clock::now();
  if (!createFederated(federated, member_names, ns, count, creators, created)) return 1;
  const auto all_created = Clock::now();
  const auto expected = static_cast<std::size_t>(count) * member_names.size();
  const auto deadline = Clock::now() + std::chrono::minutes(30);
  while (arrivals.count() < expected && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const auto finished = Clock::now();
  if (arrivals.count() < expected) {
    std::fprintf(stderr, "only %zu of %zu member objects arrived\n", arrivals.count(), expected);
    return 1;
  }
  // Writes are counted once every federated object reports Propagation=True: the controller
  // has finished its work for each, including version bookkeeping.
  while (Clock::now() < deadline) {
    auto listed = federated.listAll({});
    if (listed &&
        std::all_of(listed.value().items.begin(), listed.value().items.end(), propagated)) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  const ProcessUsage usage_after = usageOf(pid);
  long writes = 0;
  for (const auto& [name, client] : members) {
    writes += configMapWrites(*client) - writes_before[name];
  }
  // Less the bench's own creates of the federated objects.
  const long host_writes = writesTo(*host, kHostResources) - host_writes_before - count;
  // Requests the host's API Priority and Fairness refused (429) during the run: the server's
  // own protection, what the client-side limit would otherwise stand in for.
  const long apf_rejected =
      kf::bench::metricTotal(*host, "apiserver_flowcontrol_rejected_requests_total") -
      apf_rejected_before;

  std::vector<double> latencies;
  for (const auto& [key, at] : arrivals.all()) {
    const int index = std::stoi(key.substr(key.rfind('-') + 1));
    latencies.push_back(
        std::chrono::duration<double>(at - created[static_cast<std::size_t>(index)]).count());
  }
  for (auto& informer : informers) informer->stop();
  const double cpu_seconds = usage_after.cpu_seconds - usage_before.cpu_seconds;
  // Growth per object: the peak less what the process held before the first create (its
  // caches of the empty federation).
  const double rss_growth_kib =
      static_cast<double>(usage_after.peak_rss_kib - usage_before.rss_kib);
  std::printf(
      "mode=federated objects=%d seconds=%.2f p50=%.3f p99=%.3f cpu_seconds=%.2f "
      "cpu_ms_per_object=%.2f peak_rss_mib=%.1f rss_growth_kib_per_object=%.1f "
      "member_writes_per_object=%.2f host_writes_per_object=%.2f host_apf_rejected=%ld "
      "creators=%d create_seconds=%.2f\n",
      count, std::chrono::duration<double>(finished - start).count(), percentile(latencies, 0.5),
      percentile(latencies, 0.99), cpu_seconds, 1000 * cpu_seconds / count,
      static_cast<double>(usage_after.peak_rss_kib) / 1024.0, rss_growth_kib / count,
      static_cast<double>(writes) / static_cast<double>(count),
      static_cast<double>(host_writes) / static_cast<double>(count), apf_rejected, creators,
      std::chrono::duration<double>(all_created - start).count());
  return 0;
}

int runDirect(const std::string& kubeconfig, const std::vector<std::string>& member_names,
              const std::string& ns, int count, double qps, int burst) {
  // The controller's member-client limits, one writer per member, concurrently, as the
  // controller dispatches to clusters in parallel.
  std::map<std::string, std::unique_ptr<kf::RestClient>> members;
  for (const auto& m : member_names) members[m] = clientFor(kubeconfig, m, qps, burst);
  std::mutex mu;
  std::vector<double> latencies;
  std::atomic<bool> failed{false};
  const auto start = Clock::now();
  std::vector<std::thread> writers;
  for (auto& [member, client] : members) {
    writers.emplace_back([&, c = client.get()] {
      kf::ResourceClient configmaps(*c, kConfigMaps, ns);
      for (int i = 0; i < count && !failed; ++i) {
        auto done = configmaps.create({{"apiVersion", "v1"},
                                       {"kind", "ConfigMap"},
                                       {"metadata", {{"name", objectName(i)}, {"namespace", ns}}},
                                       {"data", {{"index", std::to_string(i)}, {"payload", "x"}}}});
        if (!done) failed = true;
        std::lock_guard lock(mu);
        // Latency from the start, as a federated object created at t=0 could at best arrive.
        latencies.push_back(std::chrono::duration<double>(Clock::now() - start).count());
      }
    });
  }
  for (auto& w : writers) w.join();
  if (failed) return 1;
  std::printf("mode=direct objects=%d seconds=%.2f p50=%.3f p99=%.3f member_writes_per_object=%d\n",
              count, std::chrono::duration<double>(Clock::now() - start).count(),
              percentile(latencies, 0.5), percentile(latencies, 0.99),
              static_cast<int>(member_names.size()));
  return 0;
}

// The mode the arguments after --kubeconfig (and --members) name.
int runMode(const std::string& kubeconfig, const std::vector<std::string>& members,
            const std::vector<std::string>& args, const char* usage) {
  if ((args.size() == 4 || args.size() == 5) && args[0] == "federated") {
    const int creators = args.size() == 5 ? std::stoi(args[4]) : 1;
    if (creators < 1) {
      std::fprintf(stderr, "federated: CREATORS %d: give 1 or more writers\n", creators);
      return 2;
    }
    return runFederated(kubeconfig, members, args[1], std::stoi(args[2]), std::stoi(args[3]),
                        creators);
  }
  if ((args.size() == 3 || args.size() == 5) && args[0] == "direct") {
    // KubeFed's member-client limits (spec §2.1) unless given.
    const double qps = args.size() == 5 ? std::stod(args[3]) : 20;
    const int burst = args.size() == 5 ? std::stoi(args[4]) : 30;
    return runDirect(kubeconfig, members, args[1], std::stoi(args[2]), qps, burst);
  }
  if (args.size() >= 2 && args.size() <= 4 && args[0] == "restart") {
    kf::bench::RestartOptions options;
    if (args.size() >= 3) options.probes = std::stoi(args[2]);
    if (args.size() == 4) options.binary = args[3];
    return kf::bench::runColdRestart(kubeconfig, members, args[1], options);
  }
  std::fprintf(stderr, "%s", usage);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  const char* usage =
      "usage: propagation_bench --kubeconfig F [--members N] federated NAMESPACE COUNT "
      "MANAGER_PID [CREATORS]\n"
      "       propagation_bench --kubeconfig F [--members N] direct NAMESPACE COUNT "
      "[MEMBER_QPS MEMBER_BURST]\n"
      "       propagation_bench --kubeconfig F [--members N] restart RUN_DIR [PROBES [BINARY]]\n";
  if (args.size() < 3 || args[0] != "--kubeconfig") {
    std::fprintf(stderr, "%s", usage);
    return 2;
  }
  const std::string kubeconfig = args[1];
  args.erase(args.begin(), args.begin() + 2);
  int member_count = 2;
  if (args.size() >= 2 && args[0] == "--members") {
    member_count = std::atoi(args[1].c_str());
    if (member_count < 1) {
      std::fprintf(stderr, "--members %s: give the number of members, 1 or more\n",
                   args[1].c_str());
      return 2;
    }
    args.erase(args.begin(), args.begin() + 2);
  }
  const std::vector<std::string> members = kf::bench::memberNames(member_count);
  try {
    return runMode(kubeconfig, members, args, usage);
  } catch (const std::logic_error& e) {  // std::stoi/stod on what is not a number
    std::fprintf(stderr, "propagation_bench: a COUNT, PID, QPS or burst is not a number (%s)\n%s",
                 e.what(), usage);
    return 2;
  }
}
