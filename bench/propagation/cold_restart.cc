#include "bench/propagation/cold_restart.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <thread>

#include "bench/propagation/bench_support.h"
#include "bench/propagation/user_probes.h"
#include "federation/client/resource_client.h"
#include "federation/metrics/sample_parse.h"

namespace kf::bench {
namespace {

using Clock = std::chrono::steady_clock;

// Every sync controller's reconciles that found a federated object: one per federated object
// and pass (the sync controllers do not report controller_runtime_reconcile_*). The run's one
// FederatedNamespace counts too: at most one reconcile more than the ConfigMaps' own.
constexpr const char* kFederatedReconciles = "reconcile_federated_resources_duration_seconds";
// The FederatedConfigMaps' sync queue.
constexpr const char* kSyncQueue = "federatedconfigmap";
// A restart makes KubeFed's sync controller look at objects more than once, by design: the
// member informers' initial adds enqueue each federated object again after RetryDelay (10 s); a
// reconcile before every cache synced returns NotSynced and is requeued after
// clusterAvailableDelay (20 s), as is every object once a cluster becomes available. Writes are
// counted again once these passes are over.
constexpr double kSettleSeconds = 30;
// What the sync controller writes: the member objects of the enabled types, and in the host the
// federated objects (finalizer, status) and their PropagatedVersions.
const std::vector<std::string> kMemberResources = {"configmaps", "namespaces"};
const std::vector<std::string> kHostResources = {"federatedconfigmaps", "federatednamespaces",
                                                 "propagatedversions"};

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string readFile(const std::string& path, std::streamoff from = 0) {
  std::ifstream in(path);
  in.seekg(from);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The command line of a running process, argument by argument.
std::vector<std::string> commandLineOf(int pid) {
  const std::string raw = readFile("/proc/" + std::to_string(pid) + "/cmdline");
  std::vector<std::string> args;
  std::string arg;
  for (const char c : raw) {
    if (c == '\0') {
      args.push_back(arg);
      arg.clear();
    } else {
      arg += c;
    }
  }
  return args;
}

// Gone, or a zombie nobody reaped yet: either way it no longer runs.
bool running(int pid) {
  const std::string stat = readFile("/proc/" + std::to_string(pid) + "/stat");
  const auto command_end = stat.rfind(')');
  return command_end != std::string::npos && command_end + 2 < stat.size() &&
         stat[command_end + 2] != 'Z';
}

long federatedConfigMaps(RestClient& host) {
  ResourceClient all(host, {"types.kubefed.io", "v1beta1", "federatedconfigmaps", true}, "");
  auto listed = all.listAll({});
  if (!listed) {
    std::fprintf(stderr, "list federatedconfigmaps: %s\n", listed.error().describe().c_str());
    return -1;
  }
  return static_cast<long>(listed.value().items.size());
}

long memberWrites(const std::vector<std::unique_ptr<RestClient>>& members) {
  long total = 0;
  for (const auto& member : members) total += writesTo(*member, kMemberResources);
  return total;
}

// Starts `args` in `dir` with its output appended to `log`; the child's PID.
int spawn(const std::vector<std::string>& args, const std::string& dir, const std::string& log) {
  // Built before fork(): the child of a threaded process may only make async-signal-safe calls.
  std::vector<char*> argv;
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid != 0) return pid;
  const int out = open(log.c_str(), O_WRONLY | O_APPEND | O_CREAT, 0644);
  const int in = open("/dev/null", O_RDONLY);
  if (chdir(dir.c_str()) != 0 || out < 0 || in < 0) _exit(126);
  dup2(in, 0);
  dup2(out, 1);
  dup2(out, 2);
  execv(argv[0], argv.data());
  _exit(127);
}

// What the restarted process's /metrics say about its sync controllers.
struct SyncProgress {
  long reconciles = 0;
  double reconcile_seconds = 0;  // the sum of their durations
  bool queue_empty = false;
  long queue_depth = 0;
  long queue_adds = 0;  // keys that became waiting (client-go's count), delayed ones on arrival
  long queue_done = 0;  // keys its workers finished
};

std::optional<SyncProgress> syncProgress(int port) {
  RestConfig config;
  config.server = "http://127.0.0.1:" + std::to_string(port);
  auto client = RestClient::create(config, realClock());
  if (!client) return std::nullopt;
  auto response = client.value()->send({.path = "/metrics"});
  if (!response) return std::nullopt;
  const std::string& text = response.value().body;
  SyncProgress progress;
  for (const auto& s : metrics::samplesNamed(text, std::string(kFederatedReconciles) + "_count")) {
    progress.reconciles += std::lround(s.value);
  }
  for (const auto& s : metrics::samplesNamed(text, std::string(kFederatedReconciles) + "_sum")) {
    progress.reconcile_seconds += s.value;
  }
  for (const auto& s : metrics::samplesNamed(text, "workqueue_depth")) {
    const auto name = s.labels.find("name");
    if (name != s.labels.end() && name->second == kSyncQueue) {
      progress.queue_depth = std::lround(s.value);
      progress.queue_empty = progress.queue_depth == 0;
    }
  }
  for (const auto& s : metrics::samplesNamed(text, "workqueue_work_duration_seconds_count")) {
    const auto name = s.labels.find("name");
    if (name != s.labels.end() && name->second == kSyncQueue) {
      progress.queue_done = std::lround(s.value);
    }
  }
  for (const auto& s : metrics::samplesNamed(text, "workqueue_adds_total")) {
    const auto name = s.labels.find("name");
    if (name != s.labels.end() && name->second == kSyncQueue)
      progress.queue_adds = std::lround(s.value);
  }
  return progress;
}

// The probes' figures, on the same line as the restart's.
void printProbes(const ProbeFigures& figures, double sent_seconds, long backlog) {
  std::vector<double> all = figures.create_seconds;
  all.insert(all.end(), figures.edit_seconds.begin(), figures.edit_seconds.end());
  // -1 where there is nothing to measure (no probes, or none of the kind).
  const auto most = [](const std::vector<double>& values) {
    return values.empty() ? -1.0 : *std::max_element(values.begin(), values.end());
  };
  const auto median = [](const std::vector<double>& values) {
    return values.empty() ? -1.0 : percentile(values, 0.5);
  };
  std::printf(
      " probes=%zu probes_failed=%d probes_sent_seconds=%.2f backlog=%ld "
      "probe_create_p50=%.3f probe_create_max=%.3f probe_edit_p50=%.3f probe_edit_max=%.3f "
      "probe_max=%.3f",
      all.size() + static_cast<std::size_t>(figures.failed), figures.failed, sent_seconds, backlog,
      median(figures.create_seconds), most(figures.create_seconds), median(figures.edit_seconds),
      most(figures.edit_seconds), most(all));
}

}  // namespace

int runColdRestart(const std::string& kubeconfig, const std::vector<std::string>& members,
                   const std::string& run_dir, const RestartOptions& options) {
  const std::string pid_file = run_dir + "/controller-manager.pid";
  const std::string log = run_dir + "/controller-manager.log";
  int old_pid = 0;
  try {
    old_pid = std::stoi(readFile(pid_file));
  } catch (const std::exception&) {
    // Reported below with the other ways the file can be wrong.
  }
  std::vector<std::string> args = old_pid > 0 ? commandLineOf(old_pid) : std::vector<std::string>{};
  if (args.empty() || args[0].find("controller-manager") == std::string::npos) {
    std::fprintf(stderr,
                 "%s: no running controller manager's PID in it (give the run directory of a "
                 "federation that hack/federation.sh brought up)\n",
                 pid_file.c_str());
    return 1;
  }
  const std::string dir =
      std::filesystem::read_symlink("/proc/" + std::to_string(old_pid) + "/cwd").string();
  if (!options.binary.empty()) args[0] = options.binary;

  auto host = clientFor(kubeconfig, "host", 1000, 2000);
  std::vector<std::unique_ptr<RestClient>> member_clients;
  for (const auto& m : members) member_clients.push_back(clientFor(kubeconfig, m, 1000, 2000));
  const long expected = federatedConfigMaps(*host);
  if (expected < 0) return 1;
  const long member_writes_before = memberWrites(member_clients);
  const long host_writes_before = writesTo(*host, kHostResources);
  // Watching before the stop, so that the watch's own start is not in the figures.
  std::optional<UserProbes> probes;
  if (options.probes > 0) {
    probes.emplace(kubeconfig, members, options.probe_namespace, std::to_string(old_pid), expected);
    if (!probes->watch()) {
      std::fprintf(stderr, "the probes' watch of the members did not sync\n");
      return 1;
    }
  }
  // Declared after `probes`, so that leaving early joins it before the probes go.
  std::jthread probe_sender;
  std::optional<double> probes_sent_seconds;
  long backlog_at_probes = -1;

  const auto stopping = Clock::now();
  kill(old_pid, SIGTERM);
  while (running(old_pid) && secondsSince(stopping) < 120) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (running(old_pid)) {
    std::fprintf(stderr, "the controller manager (PID %d) still runs 120 s after SIGTERM\n",
                 old_pid);
    return 1;
  }
  const double stop_seconds = secondsSince(stopping);

  const auto log_offset = static_cast<std::streamoff>(std::filesystem::file_size(log));
  const auto start = Clock::now();
  const int pid = spawn(args, dir, log);
  if (pid < 0) {
    std::perror("fork");
    return 1;
  }
  std::ofstream(pid_file) << pid << "\n";

  static const std::regex metrics_port(R"(Serving /metrics on \S+ \(port ([0-9]+)\))");
  std::optional<int> port;
  // The phases: leader elected; the host's list of federated objects delivered (its adds are
  // immediate, so the queue holds most of them at once; the member informers' adds, and the
  // requeues of objects reconciled before every cache synced, wait in the delaying queue and
  // leave its depth alone); first reconcile (of any federated type); every object reconciled.
  // Each change of the figures goes to stderr as a timeline, for finding where the time goes.
  std::optional<double> leader_seconds, host_listed_seconds, first_reconcile_seconds;
  std::string last_timeline;
  SyncProgress progress;
  while (secondsSince(start) < 1800) {
    if (waitpid(pid, nullptr, WNOHANG) == pid) {
      std::fprintf(stderr, "the restarted controller manager exited:\n%s\n",
                   readFile(log, log_offset).c_str());
      return 1;
    }
    const std::string output = readFile(log, log_offset);
    std::smatch found;
    if (!port && std::regex_search(output, found, metrics_port)) port = std::stoi(found[1].str());
    if (!leader_seconds && output.find("promoted as leader") != std::string::npos) {
      leader_seconds = secondsSince(start);
    }
    if (port) {
      if (auto now = syncProgress(*port)) progress = *now;
      const std::string timeline = "reconciles=" + std::to_string(progress.reconciles) +
                                   " queue_adds=" + std::to_string(progress.queue_adds) +
                                   " queue_done=" + std::to_string(progress.queue_done) +
                                   " queue_depth=" + std::to_string(progress.queue_depth);
      if (timeline != last_timeline) {
        std::fprintf(stderr, "restart t=%.1f %s\n", secondsSince(start), timeline.c_str());
        last_timeline = timeline;
      }
      if (!host_listed_seconds && 2 * progress.queue_depth >= expected) {
        host_listed_seconds = secondsSince(start);
      }
      if (!first_reconcile_seconds && progress.reconciles > 0) {
        first_reconcile_seconds = secondsSince(start);
      }
      // The FederatedConfigMaps' re-check has begun (their worker finished a key that found its
      // object; "first reconcile" may be another type's): the users write behind (or, with
      // priorities, before) what the queue holds now.
      if (probes && first_reconcile_seconds && progress.queue_done > 0 &&
          !probe_sender.joinable()) {
        probes_sent_seconds = secondsSince(start);
        backlog_at_probes = progress.queue_depth;
        probe_sender = std::jthread(
            [&probes, n = options.probes] { probes->send(n, std::chrono::milliseconds(100)); });
      }
      // Every federated object was queued by the host informer's initial list before the first
      // reconcile; an empty queue after `expected` reconciles means each was taken at least once
      // (reconciles of one object repeated by the later passes leave others still queued).
      if (progress.reconciles >= expected && progress.queue_empty) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  const double seconds = secondsSince(start);
  const ProcessUsage usage = usageOf(pid);
  if (probe_sender.joinable()) probe_sender.join();
  ProbeFigures probe_figures;
  if (probes) probe_figures = probes->collect(std::chrono::seconds(120));
  if (progress.reconciles < expected || !progress.queue_empty) {
    std::fprintf(stderr, "after %.0f s the restarted process reconciled %ld of %ld\n", seconds,
                 progress.reconciles, expected);
    return 1;
  }
  const long member_writes = memberWrites(member_clients) - member_writes_before;
  const long host_writes = writesTo(*host, kHostResources) - host_writes_before;

  // The later passes: wait past them until the queue is empty and the count stands still.
  long last_reconciles = -1;
  while (secondsSince(start) < 1800 && port) {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    const auto now = syncProgress(*port);
    if (!now) break;
    if (secondsSince(start) >= kSettleSeconds && now->queue_empty &&
        now->reconciles == last_reconciles) {
      break;
    }
    last_reconciles = now->reconciles;
  }
  const double settled_seconds = secondsSince(start);
  const ProcessUsage settled_usage = usageOf(pid);
  const auto settled = port ? syncProgress(*port) : std::nullopt;
  std::printf(
      "mode=restart federated_objects=%ld stop_seconds=%.2f leader_seconds=%.2f "
      "host_listed_seconds=%.2f first_reconcile_seconds=%.2f seconds=%.2f reconciles=%ld "
      "reconcile_ms_mean=%.2f "
      "cpu_seconds=%.2f peak_rss_mib=%.1f member_writes=%ld host_writes=%ld "
      "settled_seconds=%.2f settled_reconciles=%ld settled_cpu_seconds=%.2f "
      "settled_peak_rss_mib=%.1f settled_member_writes=%ld settled_host_writes=%ld",
      expected, stop_seconds, leader_seconds.value_or(-1), host_listed_seconds.value_or(-1),
      first_reconcile_seconds.value_or(-1), seconds, progress.reconciles,
      progress.reconciles > 0 ? 1000 * progress.reconcile_seconds / progress.reconciles : 0.0,
      usage.cpu_seconds, static_cast<double>(usage.peak_rss_kib) / 1024.0, member_writes,
      host_writes, settled_seconds, settled ? settled->reconciles : -1, settled_usage.cpu_seconds,
      static_cast<double>(settled_usage.peak_rss_kib) / 1024.0,
      memberWrites(member_clients) - member_writes_before,
      writesTo(*host, kHostResources) - host_writes_before);
  printProbes(probe_figures, probes_sent_seconds.value_or(-1), backlog_at_probes);
  std::printf("\n");
  return 0;
}

}  // namespace kf::bench
