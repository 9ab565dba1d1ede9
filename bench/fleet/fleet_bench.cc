// Fleet benchmark: N simulated members (tests/support/simulated_member, served from this
// process) joined to a real host where the controller manager runs. Measures, for one federated
// ConfigMap placed in every member, the time from a template edit to every member holding it
// (repeated edits: P50/P99), a burst of new federated ConfigMaps (per object: until every member
// holds it), and the controller's CPU and memory; then the same writes made straight into every
// member by a direct writer with the controller's member-client limits (the baseline).
//
//   fleet_bench --kubeconfig F --members N --manager-pid PID [--apiserver-pid PID]
//               [--manager-metrics-port PORT] [--edits E] [--burst B] [--member-qps Q]
//               [--member-burst B] [--idle-seconds S] [--threads T] [--kubefed-namespace NS]
//
// Prints one line of key=value figures for bench/fleet/run.sh.

#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "bench/fleet/arrivals.h"
#include "bench/fleet/direct_writer.h"
#include "bench/fleet/fleet_setup.h"
#include "bench/propagation/bench_support.h"
#include "federation/client/resource_client.h"
#include "federation/metrics/sample_parse.h"
#include "tests/support/simulated_member/simulated_members.h"

namespace kf::bench {
namespace {

constexpr const char* kNamespace = "bench";
constexpr const char* kDirectNamespace = "bench-direct";
constexpr const char* kEditTarget = "edited";
constexpr auto kWaitLimit = std::chrono::minutes(5);

struct Options {
  std::string kubeconfig;
  std::string kubefed_namespace = "kube-federation-system";
  int members = 10;
  int manager_pid = 0;
  int apiserver_pid = 0;
  int manager_metrics_port = 0;
  int edits = 100;
  int burst = 100;
  double member_qps = 20;
  int member_burst = 30;
  int idle_seconds = 20;
  int threads = 2;
};

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fleet_bench: %s\n", what.c_str());
  std::exit(1);
}

void check(const Status& status, const std::string& what) {
  if (!status) fail(what + ": " + status.error().describe());
}

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

double ownCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

// CPU seconds of the controller, the host API server and this process (the simulated members).
struct Cpu {
  double controller = 0;
  double apiserver = 0;
  double members = 0;
};

Cpu cpuNow(const Options& options) {
  return {usageOf(options.manager_pid).cpu_seconds,
          options.apiserver_pid > 0 ? usageOf(options.apiserver_pid).cpu_seconds : 0,
          ownCpuSeconds()};
}

Cpu since(const Cpu& before, const Options& options) {
  const Cpu now = cpuNow(options);
  return {now.controller - before.controller, now.apiserver - before.apiserver,
          now.members - before.members};
}

// Configmap writes the members counted in their apiserver_request_total.
long memberConfigMapWrites(sim::SimulatedMembers& members) {
  long total = 0;
  for (std::size_t i = 0; i < members.members().size(); ++i) {
    total += metrics::apiServerWrites(members.metrics(i).text(), "configmaps");
  }
  return total;
}

// The FederatedConfigMap sync queue's own timings, from the controller's /metrics: how long an
// object waited in the queue, how long its reconciles took (the member writes included).
struct QueueTimes {
  double wait_sum = 0;
  double wait_count = 0;
  double work_sum = 0;
  double work_count = 0;
};

QueueTimes queueTimes(const Options& options) {
  QueueTimes times;
  if (options.manager_metrics_port <= 0) return times;
  static std::unique_ptr<RestClient> client = [&] {
    RestConfig config;
    config.server = "http://127.0.0.1:" + std::to_string(options.manager_metrics_port);
    config.qps = 0;
    auto created = RestClient::create(config, realClock());
    if (!created) fail("controller metrics: " + created.error().describe());
    return std::move(created).value();
  }();
  auto text = client->send({.path = "/metrics"});
  if (!text) fail("controller metrics: " + text.error().describe());
  const auto add = [&](const char* name, double& into) {
    for (const auto& sample : metrics::samplesNamed(text.value().body, name)) {
      const auto queue = sample.labels.find("name");
      if (queue != sample.labels.end() && queue->second == "federatedconfigmap") {
        into += sample.value;
      }
    }
  };
  add("workqueue_queue_duration_seconds_sum", times.wait_sum);
  add("workqueue_queue_duration_seconds_count", times.wait_count);
  add("workqueue_work_duration_seconds_sum", times.work_sum);
  add("workqueue_work_duration_seconds_count", times.work_count);
  return times;
}

struct Latencies {
  std::vector<double> until_all;   // per edit or object: until the last member held it
  std::vector<double> per_member;  // every member's arrival
  double seconds = 0;              // the phase, from its first request to the last arrival
};

// Edits come no faster than the member clients' limit refills (one token per 1/QPS seconds):
// an edit's latency is then the controller's, not the wait in a rate limiter's queue that edits
// sent back to back would build up (the burst measures that).
class Pacer {
 public:
  explicit Pacer(double qps)
      : interval_(std::chrono::duration_cast<Clock::duration>(
            std::chrono::duration<double>(qps > 0 ? 1.0 / qps : 0))) {}
  void waitForTurn() {
    std::this_thread::sleep_until(last_ + interval_);
    last_ = Clock::now();
  }

 private:
  Clock::duration interval_;
  Clock::time_point last_{};
};

void addArrivals(Latencies& out, Arrivals& arrivals, const std::string& key,
                 Clock::time_point requested) {
  out.until_all.push_back(seconds(arrivals.lastArrival(key) - requested));
  for (const auto at : arrivals.arrivals(key)) out.per_member.push_back(seconds(at - requested));
}

// Template edits of one federated ConfigMap, one at a time, each until every member has it, paced
// as Pacer says.
Latencies federatedEdits(RestClient& host, Arrivals& arrivals, const Options& options,
                         const std::vector<sim::SimulatedMember>& members) {
  ResourceClient federated(host, kFederatedConfigMaps, kNamespace);
  auto created = federated.create(federatedConfigMap(kNamespace, kEditTarget, "0", members));
  if (!created) fail("create the edited FederatedConfigMap: " + created.error().describe());
  if (!arrivals.waitForAll(revisionKey(kEditTarget, "0"), Clock::now() + kWaitLimit)) {
    fail("the edited FederatedConfigMap did not reach every member");
  }
  Latencies out;
  Pacer pacer(options.member_qps);
  const auto start = Clock::now();
  for (int edit = 1; edit <= options.edits; ++edit) {
    pacer.waitForTurn();
    const std::string rev = std::to_string(edit);
    const Json patch = {{"spec", {{"template", {{"data", {{"rev", rev}}}}}}}};
    const auto requested = Clock::now();
    auto patched = federated.patch(kEditTarget, PatchType::kMerge, patch.dump());
    if (!patched) fail("edit " + rev + ": " + patched.error().describe());
    if (!arrivals.waitForAll(revisionKey(kEditTarget, rev), Clock::now() + kWaitLimit)) {
      fail("edit " + rev + " reached " +
           std::to_string(arrivals.count(revisionKey(kEditTarget, rev))) + " of " +
           std::to_string(members.size()) + " members");
    }
    addArrivals(out, arrivals, revisionKey(kEditTarget, rev), requested);
  }
  out.seconds = seconds(Clock::now() - start);
  return out;
}

// `burst` new federated ConfigMaps created one after the other, as fast as the host takes them.
Latencies federatedBurst(RestClient& host, Arrivals& arrivals, const Options& options,
                         const std::vector<sim::SimulatedMember>& members) {
  ResourceClient federated(host, kFederatedConfigMaps, kNamespace);
  std::vector<Clock::time_point> requested;
  const auto start = Clock::now();
  for (int i = 0; i < options.burst; ++i) {
    requested.push_back(Clock::now());
    const std::string name = "burst-" + std::to_string(i);
    auto created = federated.create(federatedConfigMap(kNamespace, name, "0", members));
    if (!created) fail("create " + name + ": " + created.error().describe());
  }
  Latencies out;
  for (int i = 0; i < options.burst; ++i) {
    const std::string key = revisionKey("burst-" + std::to_string(i), "0");
    if (!arrivals.waitForAll(key, Clock::now() + kWaitLimit)) {
      fail(key + " reached " + std::to_string(arrivals.count(key)) + " members");
    }
    addArrivals(out, arrivals, key, requested[static_cast<std::size_t>(i)]);
  }
  Clock::time_point last = start;
  for (int i = 0; i < options.burst; ++i) {
    last = std::max(last, arrivals.lastArrival(revisionKey("burst-" + std::to_string(i), "0")));
  }
  out.seconds = seconds(last - start);
  return out;
}

Json configMap(const std::string& name, const std::string& rev) {
  return {{"apiVersion", "v1"},
          {"kind", "ConfigMap"},
          {"metadata", {{"name", name}, {"namespace", kDirectNamespace}}},
          {"data", {{"rev", rev}, {"payload", "x"}}}};
}

// The same edits written straight into every member, each writer updating the object it wrote.
Latencies directEdits(DirectWriter& writer, Arrivals& arrivals, const Options& options) {
  std::vector<Json> last(static_cast<std::size_t>(options.members));
  const bool ready = writer.onEveryMember([&](std::size_t i, RestClient& client) {
    auto ns = ResourceClient(client, kNamespaces)
                  .create({{"apiVersion", "v1"},
                           {"kind", "Namespace"},
                           {"metadata", {{"name", kDirectNamespace}}}});
    if (!ns && !isAlreadyExists(ns.error())) return false;
    auto created = ResourceClient(client, kConfigMaps, kDirectNamespace)
                       .create(configMap("direct-edited", "0"));
    if (created) last[i] = std::move(created).value();
    return static_cast<bool>(created);
  });
  if (!ready) fail("the direct writer could not create its ConfigMaps");
  Latencies out;
  Pacer pacer(options.member_qps);
  const auto start = Clock::now();
  for (int edit = 1; edit <= options.edits; ++edit) {
    pacer.waitForTurn();
    const std::string rev = std::to_string(edit);
    const auto requested = Clock::now();
    const bool written = writer.onEveryMember([&](std::size_t i, RestClient& client) {
      Json changed = last[i];
      changed["data"]["rev"] = rev;
      auto updated = ResourceClient(client, kConfigMaps, kDirectNamespace).update(changed);
      if (updated) last[i] = std::move(updated).value();
      return static_cast<bool>(updated);
    });
    if (!written) fail("direct edit " + rev + " failed");
    addArrivals(out, arrivals, revisionKey("direct-edited", rev), requested);
  }
  out.seconds = seconds(Clock::now() - start);
  return out;
}

// The burst written straight into every member; each object's latency from the burst's start,
// as if every object had been asked for at once (a lower bound for the controller's objects,
// which are asked for one after the other).
Latencies directBurst(DirectWriter& writer, Arrivals& arrivals, const Options& options) {
  const auto start = Clock::now();
  const bool written = writer.onEveryMember([&](std::size_t, RestClient& client) {
    ResourceClient configmaps(client, kConfigMaps, kDirectNamespace);
    for (int i = 0; i < options.burst; ++i) {
      if (!configmaps.create(configMap("direct-burst-" + std::to_string(i), "0"))) return false;
    }
    return true;
  });
  if (!written) fail("the direct burst failed");
  Latencies out;
  Clock::time_point last = start;
  for (int i = 0; i < options.burst; ++i) {
    const std::string key = revisionKey("direct-burst-" + std::to_string(i), "0");
    addArrivals(out, arrivals, key, start);
    last = std::max(last, arrivals.lastArrival(key));
  }
  out.seconds = seconds(last - start);
  return out;
}

Options parse(int argc, char** argv) {
  Options options;
  const std::map<std::string, std::function<void(const char*)>> flags = {
      {"--kubeconfig", [&](const char* v) { options.kubeconfig = v; }},
      {"--kubefed-namespace", [&](const char* v) { options.kubefed_namespace = v; }},
      {"--members", [&](const char* v) { options.members = std::atoi(v); }},
      {"--manager-pid", [&](const char* v) { options.manager_pid = std::atoi(v); }},
      {"--apiserver-pid", [&](const char* v) { options.apiserver_pid = std::atoi(v); }},
      {"--manager-metrics-port",
       [&](const char* v) { options.manager_metrics_port = std::atoi(v); }},
      {"--edits", [&](const char* v) { options.edits = std::atoi(v); }},
      {"--burst", [&](const char* v) { options.burst = std::atoi(v); }},
      {"--member-qps", [&](const char* v) { options.member_qps = std::atof(v); }},
      {"--member-burst", [&](const char* v) { options.member_burst = std::atoi(v); }},
      {"--idle-seconds", [&](const char* v) { options.idle_seconds = std::atoi(v); }},
      {"--threads", [&](const char* v) { options.threads = std::atoi(v); }},
  };
  for (int i = 1; i < argc; i += 2) {
    const auto flag = flags.find(argv[i]);
    if (flag == flags.end() || i + 1 >= argc) {
      fail(std::string("unknown flag or missing value: ") + argv[i] +
           " (see the top of bench/fleet/fleet_bench.cc)");
    }
    flag->second(argv[i + 1]);
  }
  if (options.kubeconfig.empty() || options.manager_pid <= 0 || options.members < 1 ||
      options.edits < 1 || options.burst < 1 || options.threads < 1) {
    fail("give --kubeconfig, --manager-pid and positive --members, --edits, --burst, --threads");
  }
  return options;
}

// Everything one run measures.
struct Figures {
  double join_s = 0;
  Cpu join_cpu;
  Cpu idle_cpu;
  long rss_kib = 0;  // once joined and idle
  Latencies edits;
  Cpu edit_cpu;
  long edit_writes = 0;
  QueueTimes edit_queue;
  Latencies burst;
  Cpu burst_cpu;
  long peak_rss_kib = 0;
  Latencies direct_edits;
  Latencies direct_burst;
};

QueueTimes difference(const QueueTimes& after, const QueueTimes& before) {
  return {after.wait_sum - before.wait_sum, after.wait_count - before.wait_count,
          after.work_sum - before.work_sum, after.work_count - before.work_count};
}

void print(const Options& options, const Figures& f) {
  const auto p = [](const std::vector<double>& v, double q) { return percentile(v, q); };
  std::printf(
      "members=%d edits=%d burst=%d join_s=%.2f join_cpu_s=%.2f idle_s=%d idle_cpu_s=%.3f "
      "rss_mib=%.1f p50_s=%.3f p99_s=%.3f max_s=%.3f member_p50_s=%.3f member_p99_s=%.3f "
      "edit_cpu_s=%.2f edit_cpu_ms_per_edit=%.1f edit_apiserver_cpu_s=%.2f "
      "edit_members_cpu_s=%.2f member_writes_per_edit=%.2f reconciles_per_edit=%.2f "
      "queue_wait_ms=%.1f reconcile_ms=%.1f burst_s=%.2f burst_p50_s=%.3f burst_p99_s=%.3f "
      "burst_cpu_s=%.2f burst_apiserver_cpu_s=%.2f direct_p50_s=%.3f direct_p99_s=%.3f "
      "direct_burst_s=%.2f direct_burst_p50_s=%.3f direct_burst_p99_s=%.3f ratio_p99=%.2f "
      "ratio_burst_s=%.2f cpu_s=%.2f peak_rss_mib=%.1f\n",
      options.members, options.edits, options.burst, f.join_s, f.join_cpu.controller,
      options.idle_seconds, f.idle_cpu.controller, static_cast<double>(f.rss_kib) / 1024.0,
      p(f.edits.until_all, 0.5), p(f.edits.until_all, 0.99), p(f.edits.until_all, 1.0),
      p(f.edits.per_member, 0.5), p(f.edits.per_member, 0.99), f.edit_cpu.controller,
      1000 * f.edit_cpu.controller / options.edits, f.edit_cpu.apiserver, f.edit_cpu.members,
      static_cast<double>(f.edit_writes) / options.edits, f.edit_queue.work_count / options.edits,
      1000 * f.edit_queue.wait_sum / std::max(1.0, f.edit_queue.wait_count),
      1000 * f.edit_queue.work_sum / std::max(1.0, f.edit_queue.work_count), f.burst.seconds,
      p(f.burst.until_all, 0.5), p(f.burst.until_all, 0.99), f.burst_cpu.controller,
      f.burst_cpu.apiserver, p(f.direct_edits.until_all, 0.5), p(f.direct_edits.until_all, 0.99),
      f.direct_burst.seconds, p(f.direct_burst.until_all, 0.5), p(f.direct_burst.until_all, 0.99),
      p(f.edits.until_all, 0.99) / std::max(1e-9, p(f.direct_edits.until_all, 0.99)),
      f.burst.seconds / std::max(1e-9, f.direct_burst.seconds),
      f.join_cpu.controller + f.idle_cpu.controller + f.edit_cpu.controller +
          f.burst_cpu.controller,
      static_cast<double>(f.peak_rss_kib) / 1024.0);
}

// Every member's Secret and KubeFedCluster, until all are Ready and hold the federated
// namespace; then what the controller spends on N members with nothing to do.
void measureJoinAndIdle(const Options& options, RestClient& host, Arrivals& arrivals,
                        sim::SimulatedMembers& members, const std::string& ca_pem, Figures& f) {
  const auto join_start = Clock::now();
  const Cpu before_join = cpuNow(options);
  check(joinMembers(host, members.members(), ca_pem, options.kubefed_namespace), "join");
  check(waitUntilClustersReady(host, options.kubefed_namespace, options.members,
                               std::chrono::seconds(300)),
        "clusters");
  check(federateNamespace(host, kNamespace, members.members()), "federated namespace");
  if (!arrivals.waitForAll(kNamespace, Clock::now() + kWaitLimit)) {
    fail("namespace " + std::string(kNamespace) + " reached " +
         std::to_string(arrivals.count(kNamespace)) + " members");
  }
  f.join_s = seconds(Clock::now() - join_start);
  f.join_cpu = since(before_join, options);

  const Cpu before_idle = cpuNow(options);
  std::this_thread::sleep_for(std::chrono::seconds(options.idle_seconds));
  f.idle_cpu = since(before_idle, options);
  f.rss_kib = usageOf(options.manager_pid).rss_kib;
}

void measureController(const Options& options, RestClient& host, Arrivals& arrivals,
                       sim::SimulatedMembers& members, Figures& f) {
  const long writes_before = memberConfigMapWrites(members);
  const Cpu before_edits = cpuNow(options);
  const QueueTimes queue_before = queueTimes(options);
  f.edits = federatedEdits(host, arrivals, options, members.members());
  f.edit_cpu = since(before_edits, options);
  f.edit_queue = difference(queueTimes(options), queue_before);
  // Less the create of the edited ConfigMap in every member.
  f.edit_writes = memberConfigMapWrites(members) - writes_before - options.members;

  const Cpu before_burst = cpuNow(options);
  f.burst = federatedBurst(host, arrivals, options, members.members());
  f.burst_cpu = since(before_burst, options);
  f.peak_rss_kib = usageOf(options.manager_pid).peak_rss_kib;
}

int run(const Options& options) {
  Arrivals arrivals(options.members);
  const sim::ServingCertificate certificate = sim::makeServingCertificate();
  auto started = sim::SimulatedMembers::start({.members = options.members,
                                               .cert_pem = certificate.cert_pem,
                                               .key_pem = certificate.key_pem,
                                               .threads = options.threads,
                                               .observer = arrivals.observer()});
  if (!started) fail("simulated members: " + started.error().describe());
  sim::SimulatedMembers& members = *started.value();
  auto host = clientFor(options.kubeconfig, "host", 1000, 2000);

  Figures figures;
  measureJoinAndIdle(options, *host, arrivals, members, certificate.ca_pem, figures);
  measureController(options, *host, arrivals, members, figures);
  DirectWriter writer(members.members(), certificate.ca_pem, options.member_qps,
                      options.member_burst);
  figures.direct_edits = directEdits(writer, arrivals, options);
  figures.direct_burst = directBurst(writer, arrivals, options);
  print(options, figures);
  return 0;
}

}  // namespace
}  // namespace kf::bench

int main(int argc, char** argv) { return kf::bench::run(kf::bench::parse(argc, argv)); }
