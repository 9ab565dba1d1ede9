// The controller-manager binary as a process against the real local clusters: leader election
// between two processes, graceful stop, configuration errors, cluster health after
// `kubefedctl join`, and FederatedTypeConfig lifecycle through `kubefedctl enable/disable`.

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <regex>
#include <set>

#include "federation/client/resource_client.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/process.h"
#include "tests/integration/resources.h"
#include "tests/support/temp_dir.h"

namespace kf::integration {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

constexpr auto kLeaseDuration = seconds(4);  // --leader-elect-lease-duration below

std::string managerBinary() { return builtBinary("cmd/controller-manager/controller-manager"); }

// A KubeFed system namespace of the test's own, with a KubeFedConfig tuned for quick tests.
class ControlPlane {
 public:
  explicit ControlPlane(const std::string& prefix)
      : host_(LocalClusters::get().client("host")), namespace_(*host_, prefix) {
    EXPECT_EQ(ensureKubeFedCrds(), "");
  }

  const std::string& ns() const { return namespace_.name(); }
  RestClient& host() { return *host_; }

  void writeConfig(const Json& spec_overrides = Json::object()) {
    Json spec = kubeFedConfigSpec(
        {{"clusterHealthCheck",
          {{"period", "1s"}, {"timeout", "1s"}, {"failureThreshold", 2}, {"successThreshold", 1}}},
         {"controllerDuration", {{"availableDelay", "1s"}, {"unavailableDelay", "1s"}}}});
    spec.merge_patch(spec_overrides);
    ResourceClient configs(*host_, kKubeFedConfigs, ns());
    auto created = configs.create({{"apiVersion", "core.kubefed.io/v1beta1"},
                                   {"kind", "KubeFedConfig"},
                                   {"metadata", {{"name", "kubefed"}, {"namespace", ns()}}},
                                   {"spec", spec}});
    ASSERT_TRUE(created) << created.error().describe();
  }

  std::unique_ptr<ChildProcess> start(std::vector<std::string> extra = {}) {
    return std::make_unique<ChildProcess>(managerBinary(), arguments(std::move(extra)));
  }

  // The flags start() passes, then `extra`.
  std::vector<std::string> arguments(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"--kubeconfig",
                                     LocalClusters::get().kubeconfigPath(),
                                     "--kubefed-namespace",
                                     ns(),
                                     "--healthz-addr",
                                     "127.0.0.1:0",
                                     "--metrics-addr",
                                     "127.0.0.1:0",
                                     "--leader-elect-lease-duration",
                                     "4s",
                                     "--leader-elect-renew-deadline",
                                     "3s",
                                     "--leader-elect-retry-period",
                                     "1s"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }

  // The record in KubeFed's default lock: the leader annotation of the ConfigMap
  // kubefed-controller-manager, client-go's record format; null when it cannot be read.
  Json leaderRecord() {
    ResourceClient config_maps(*host_, kConfigMaps, ns());
    auto lock = config_maps.get("kubefed-controller-manager");
    if (!lock) return Json();
    const Json annotations = lock.value()["metadata"].value("annotations", Json::object());
    const Json record = Json::parse(
        annotations.value("control-plane.alpha.kubernetes.io/leader", "{}"), nullptr, false);
    return record.is_object() ? record : Json();
  }

  // The holder in KubeFed's default lock.
  std::string leaseHolder() {
    const Json record = leaderRecord();
    return record.is_object() ? record.value("holderIdentity", "") : "";
  }

  std::string holderOfLease() {
    ResourceClient leases(*host_, kLeases, ns());
    auto lease = leases.get("kubefed-controller-manager");
    if (!lease) return "";
    return lease.value().value("spec", Json::object()).value("holderIdentity", "");
  }

  // The messages of the LeaderElection events about `kind` kubefed-controller-manager.
  std::vector<std::string> leaderElectionEvents(const std::string& kind) {
    ResourceClient events(*host_, kEvents, ns());
    auto listed = events.listAll({});
    std::vector<std::string> messages;
    if (!listed) return messages;
    for (const auto& event : listed.value().items) {
      if (event.value("reason", "") == "LeaderElection" &&
          event["involvedObject"].value("kind", "") == kind &&
          event["involvedObject"].value("name", "") == "kubefed-controller-manager") {
        messages.push_back(event.value("message", ""));
      }
    }
    return messages;
  }

 private:
  std::unique_ptr<RestClient> host_;
  TestNamespace namespace_;
};

// The identity a process logged ("Leader election identity: <id>").
std::string identityOf(const ChildProcess& process) {
  std::smatch match;
  const std::string log = process.log();
  static const std::regex pattern("Leader election identity: (\\S+)");
  return std::regex_search(log, match, pattern) ? match[1].str() : "";
}

// Whether `process` keeps running, leading, while it renews its lease `renewals` times (its
// record's renewTime changing; one renewal per retry period, 1 s): a window of work observed,
// not slept. False as soon as it exits, or when it stops leading.
bool staysUpRenewing(ControlPlane& plane, ChildProcess& process, int renewals) {
  const std::string identity = identityOf(process);
  std::string last_renewal;
  int seen = -1;  // the first renewTime read is not a renewal seen
  bool lost = false;
  eventually(
      [&] {
        const Json record = plane.leaderRecord();
        if (process.wait(milliseconds(0)).has_value() || !record.is_object() ||
            record.value("holderIdentity", "") != identity) {
          lost = true;
          return true;
        }
        const std::string renewal = record.value("renewTime", "");
        if (renewal != last_renewal) {
          last_renewal = renewal;
          ++seen;
        }
        return seen >= renewals;
      },
      seconds(60));
  return !lost && seen >= renewals && !process.wait(milliseconds(0)).has_value();
}

TEST(ControllerManagerTest, ExactlyOneOfTwoLeadsAndTheOtherTakesOverAfterKill9) {
  ControlPlane plane("kf-cm-leader");
  plane.writeConfig();
  auto first = plane.start();
  auto second = plane.start();
  ASSERT_TRUE(first->waitForLog("Using valid KubeFedConfig \"" + plane.ns() + "/kubefed\""))
      << first->log();
  ASSERT_TRUE(eventually([&] {
    return first->log().find("promoted as leader") != std::string::npos ||
           second->log().find("promoted as leader") != std::string::npos;
  })) << first->log()
      << second->log();
  ChildProcess* leader =
      first->log().find("promoted as leader") != std::string::npos ? first.get() : second.get();
  ChildProcess* standby = leader == first.get() ? second.get() : first.get();
  EXPECT_EQ(standby->log().find("promoted as leader"), std::string::npos)
      << "both processes lead:\n"
      << first->log() << second->log();
  EXPECT_EQ(plane.leaseHolder(), identityOf(*leader));
  EXPECT_TRUE(leader->waitForLog("Starting cluster controller")) << leader->log();
  // KubeFed's default lock, with client-go's LeaderElection event on it.
  EXPECT_TRUE(leader->waitForLog("Leader election lock: configmaps " + plane.ns() +
                                 "/kubefed-controller-manager"))
      << leader->log();
  const std::string became = identityOf(*leader) + " became leader";
  EXPECT_TRUE(eventually([&] {
    const auto messages = plane.leaderElectionEvents("ConfigMap");
    return std::find(messages.begin(), messages.end(), became) != messages.end();
  })) << Json(plane.leaderElectionEvents("ConfigMap")).dump();

  leader->signal(SIGKILL);
  // Once the killed leader's lease expired; the deadline is generous for a loaded machine, not a
  // bound on how fast the takeover is (the elector's unit tests time it on a fake clock).
  ASSERT_TRUE(standby->waitForLog("promoted as leader", kLeaseDuration + seconds(60)))
      << standby->log();
  EXPECT_EQ(plane.leaseHolder(), identityOf(*standby));
}

// The manager with its stderr in a file of its own; the process log then holds stdout only.
std::unique_ptr<ChildProcess> startWithStderrIn(ControlPlane& plane, const std::string& path,
                                                std::vector<std::string> extra) {
  std::vector<std::string> args = {"-c", "exec \"$0\" \"$@\" 2>\"$KF_STDERR\"", managerBinary()};
  for (auto& arg : plane.arguments(std::move(extra))) args.push_back(std::move(arg));
  return std::make_unique<ChildProcess>("/bin/sh", args,
                                        std::map<std::string, std::string>{{"KF_STDERR", path}});
}

// Verifies issue 14 items 7 and 9: klog's flags are accepted (KubeFed's scripts pass --v=2),
// logs go to stderr as klog's do, and --logtostderr=false --log-file moves them to the file.
TEST(ControllerManagerTest, LogsGoToStderrOrToTheLogFile) {
  ControlPlane plane("kf-cm-logs");
  plane.writeConfig();
  const std::string dir = std::to_string(::getpid());
  const std::string err_path = "/tmp/kf-cm-stderr-" + dir;
  auto manager = startWithStderrIn(plane, err_path, {"--v=2", "--vmodule=sync=4", "-v", "2"});
  ASSERT_TRUE(eventually([&] {
    return readFile(err_path).find("promoted as leader") != std::string::npos;
  })) << readFile(err_path);
  EXPECT_NE(readFile(err_path).find("Using valid KubeFedConfig"), std::string::npos);
  EXPECT_NE(readFile(err_path).find("--vmodule is accepted but ignored"), std::string::npos);
  // stdout has the version line only.
  EXPECT_EQ(manager->log().rfind("KubeFed controller-manager version: version.Info{", 0), 0u)
      << manager->log();
  EXPECT_EQ(manager->log().find("promoted as leader"), std::string::npos) << manager->log();
  manager->signal(SIGTERM);
  EXPECT_EQ(manager->wait(seconds(20)).value_or(-1), 0);

  const std::string log_path = "/tmp/kf-cm-log-" + dir;
  auto to_file = startWithStderrIn(
      plane, err_path, {"--logtostderr=false", "--log-file", log_path, "--skip-headers"});
  ASSERT_TRUE(eventually([&] {
    return readFile(log_path).find("\npromoted as leader") != std::string::npos;
  })) << readFile(log_path)
      << readFile(err_path);
  EXPECT_EQ(readFile(err_path).find("promoted as leader"), std::string::npos) << readFile(err_path);
  to_file->signal(SIGTERM);
  EXPECT_EQ(to_file->wait(seconds(20)).value_or(-1), 0);
  std::remove(err_path.c_str());
  std::remove(log_path.c_str());
}

// Verifies spec.leaderElect.resourceLock chooses the lock: with leases, the Lease holds the
// record and carries the LeaderElection event; no ConfigMap lock is written.
TEST(ControllerManagerTest, TheKubeFedConfigChoosesTheLock) {
  ControlPlane plane("kf-cm-lock");
  plane.writeConfig({{"leaderElect", {{"resourceLock", "leases"}}}});
  auto manager = plane.start();
  ASSERT_TRUE(manager->waitForLog("promoted as leader")) << manager->log();
  EXPECT_TRUE(manager->waitForLog("Leader election lock: leases " + plane.ns() +
                                  "/kubefed-controller-manager"))
      << manager->log();
  EXPECT_EQ(plane.holderOfLease(), identityOf(*manager));
  EXPECT_EQ(plane.leaseHolder(), "");
  const std::string became = identityOf(*manager) + " became leader";
  EXPECT_TRUE(eventually([&] {
    const auto messages = plane.leaderElectionEvents("Lease");
    return std::find(messages.begin(), messages.end(), became) != messages.end();
  })) << Json(plane.leaderElectionEvents("Lease")).dump();
}

TEST(ControllerManagerTest, SigtermStopsEveryControllerAndExitsZero) {
  ControlPlane plane("kf-cm-sigterm");
  plane.writeConfig();
  auto manager = plane.start();
  ASSERT_TRUE(manager->waitForLog("Starting cluster controller")) << manager->log();
  manager->signal(SIGTERM);
  auto code = manager->wait(seconds(20));
  ASSERT_TRUE(code.has_value()) << "did not exit after SIGTERM:\n" << manager->log();
  EXPECT_EQ(*code, 0) << manager->log();
  // Released on a graceful stop, so that a successor need not wait for the lease to expire.
  EXPECT_EQ(plane.leaseHolder(), "");
}

// A pod of a `helm upgrade` can start before Helm writes the new KubeFedConfig (custom resources
// come last): the controller manager restarts on a changed spec instead of running with the old.
TEST(ControllerManagerTest, AChangedKubeFedConfigStopsItSoThatTheRestartAppliesIt) {
  ControlPlane plane("kf-cm-changed");
  plane.writeConfig();
  auto manager = plane.start();
  ASSERT_TRUE(manager->waitForLog("Starting cluster controller")) << manager->log();
  ResourceClient configs(plane.host(), kKubeFedConfigs, plane.ns());
  // metadata only: not a change to act on
  auto labelled =
      configs.patch("kubefed", PatchType::kMerge, R"({"metadata":{"labels":{"touched":"yes"}}})");
  ASSERT_TRUE(labelled) << labelled.error().describe();
  // an invalid spec (the webhook is not installed here): kept running with the one read at start
  auto invalid = configs.patch("kubefed", PatchType::kMerge,
                               R"({"spec":{"clusterHealthCheck":{"period":"0s"}}})");
  ASSERT_TRUE(invalid) << invalid.error().describe();
  ASSERT_TRUE(manager->waitForLog("changed to an invalid spec")) << manager->log();
  EXPECT_TRUE(staysUpRenewing(plane, *manager, 3)) << manager->log();

  auto changed = configs.patch("kubefed", PatchType::kMerge,
                               R"({"spec":{"clusterHealthCheck":{"period":"2s"}}})");
  ASSERT_TRUE(changed) << changed.error().describe();
  auto code = manager->wait(seconds(20));
  ASSERT_TRUE(code.has_value()) << "still running after its KubeFedConfig changed:\n"
                                << manager->log();
  EXPECT_EQ(*code, 0) << manager->log();
  EXPECT_NE(manager->log().find("KubeFedConfig \"" + plane.ns() +
                                "/kubefed\" changed since it "
                                "was read"),
            std::string::npos)
      << manager->log();
  EXPECT_EQ(manager->log().find("\"" + plane.ns() + "/kubefed\" changed since it was read"),
            manager->log().rfind("\"" + plane.ns() + "/kubefed\" changed since it was read"))
      << "one stop, however many events: " << manager->log();
  EXPECT_EQ(plane.leaseHolder(), "") << "the lease is released for the next leader";

  // started again, it runs with the changed spec and stays up
  auto restarted = plane.start();
  ASSERT_TRUE(restarted->waitForLog("Starting cluster controller")) << restarted->log();
  EXPECT_TRUE(staysUpRenewing(plane, *restarted, 3)) << restarted->log();
  restarted->signal(SIGTERM);
  EXPECT_EQ(restarted->wait(seconds(20)).value_or(-1), 0) << restarted->log();
}

TEST(ControllerManagerTest, InvalidKubeFedConfigIsFatalWithTheFieldErrors) {
  ControlPlane plane("kf-cm-invalid");
  plane.writeConfig({{"leaderElect", {{"leaseDuration", "5s"}, {"renewDeadline", "10s"}}}});
  auto manager = plane.start();
  auto code = manager->wait(seconds(20));
  ASSERT_TRUE(code.has_value()) << manager->log();
  EXPECT_EQ(*code, 255);
  EXPECT_NE(manager->log().find("invalid KubeFedConfig \"" + plane.ns() + "/kubefed\""),
            std::string::npos)
      << manager->log();
  EXPECT_NE(manager->log().find("leaseDuration must be greater than renewDeadline"),
            std::string::npos)
      << manager->log();
  // ... and says so where `kubectl describe kubefedconfig` shows it.
  ResourceClient events(plane.host(), kEvents, plane.ns());
  auto listed = events.listAll({});
  ASSERT_TRUE(listed) << listed.error().describe();
  ASSERT_EQ(listed.value().items.size(), 1u);
  const Json& event = listed.value().items.front();
  EXPECT_EQ(event["reason"], "InvalidKubeFedConfig");
  EXPECT_EQ(event["type"], "Warning");
  EXPECT_EQ(event["involvedObject"]["kind"], "KubeFedConfig");
  EXPECT_NE(event.value("message", "").find("leaseDuration must be greater than renewDeadline"),
            std::string::npos);
}

TEST(ControllerManagerTest, CreatesADefaultedKubeFedConfigWhenAbsent) {
  ControlPlane plane("kf-cm-create");
  auto manager = plane.start();
  ASSERT_TRUE(manager->waitForLog("Using valid KubeFedConfig")) << manager->log();
  ResourceClient configs(plane.host(), kKubeFedConfigs, plane.ns());
  auto config = configs.get("kubefed");
  ASSERT_TRUE(config) << config.error().describe();
  EXPECT_EQ(config.value()["spec"]["scope"], "Cluster");
  EXPECT_EQ(config.value()["spec"]["clusterHealthCheck"]["period"], "10s");
  EXPECT_EQ(config.value()["spec"]["featureGates"].size(), 3u);
}

// How many times `text` occurs in `log`.
std::size_t occurrences(const std::string& log, const std::string& text) {
  std::size_t count = 0;
  for (auto at = log.find(text); at != std::string::npos; at = log.find(text, at + text.size())) {
    ++count;
  }
  return count;
}

// Verifies issue 13 item 5: the local kube-apiserver runs API Priority and Fairness (on by
// default), so without --rest-config-qps/--rest-config-burst the host clients get 100/200; a flag
// given wins, with KubeFed's default for the other one.
TEST(ControllerManagerTest,
     HostClientLimitsAre100And200OnAServerWithPriorityAndFairnessUnlessAFlagIsGiven) {
  ControlPlane plane("kf-cm-limits");
  plane.writeConfig();
  auto manager = plane.start({"-v", "1"});
  ASSERT_TRUE(manager->waitForLog("Starting cluster controller")) << manager->log();
  EXPECT_NE(manager->log().find("Host client limits: QPS 100, burst 200 (the host API server has "
                                "API Priority and Fairness; --rest-config-qps/--rest-config-burst "
                                "override)"),
            std::string::npos)
      << manager->log();
  EXPECT_EQ(occurrences(manager->log(), "Host client limits:"), 1u) << manager->log();
  EXPECT_NE(manager->log().find(" --rest-config-qps= --rest-config-burst= "), std::string::npos)
      << "the Flags line shows them as not given:\n"
      << manager->log();
  manager->signal(SIGTERM);
  EXPECT_EQ(manager->wait(seconds(20)).value_or(-1), 0) << manager->log();

  auto flagged = plane.start({"-v", "1", "--rest-config-qps", "7"});
  ASSERT_TRUE(flagged->waitForLog("Starting cluster controller")) << flagged->log();
  EXPECT_NE(flagged->log().find("Host client limits: QPS 7, burst 10 (from "
                                "--rest-config-qps/--rest-config-burst"),
            std::string::npos)
      << flagged->log();
  EXPECT_EQ(occurrences(flagged->log(), "Host client limits:"), 1u) << flagged->log();
  EXPECT_NE(flagged->log().find(" --rest-config-qps=7 --rest-config-burst= "), std::string::npos)
      << flagged->log();
  flagged->signal(SIGTERM);
  EXPECT_EQ(flagged->wait(seconds(20)).value_or(-1), 0) << flagged->log();
}

struct CliResult {
  int exit_code = -1;
  std::string output;
};

CliResult kubefedctl(const ControlPlane& plane, std::vector<std::string> args,
                     const std::string& kubeconfig = LocalClusters::get().kubeconfigPath()) {
  args.insert(args.end(), {"--kubeconfig", kubeconfig, "--host-cluster-context", "host",
                           "--kubefed-namespace", plane.ns()});
  ChildProcess cli(builtBinary("cmd/kubefedctl/kubefedctl"), args);
  CliResult result;
  result.exit_code = cli.wait(seconds(90)).value_or(-1);
  result.output = cli.log();
  return result;
}

// `kubefedctl join` with a host name of the test's own, so that the cluster-scoped RBAC join
// creates in the member (named after it) never collides with another test's.
CliResult join(const ControlPlane& plane, const std::string& member) {
  return kubefedctl(
      plane, {"join", member, "--cluster-context", member, "--host-cluster-name", plane.ns()});
}

void unjoin(const ControlPlane& plane, const std::string& member) {
  kubefedctl(plane, {"unjoin", member, "--cluster-context", member, "--host-cluster-name",
                     plane.ns(), "--force"});
}

std::string conditionStatus(const Json& cluster, const std::string& type) {
  for (const auto& c : cluster.value("status", Json::object()).value("conditions", Json::array())) {
    if (c.value("type", "") == type) return c.value("status", "");
  }
  return "";
}

TEST(ControllerManagerTest, JoinedClustersBecomeReadyGoOfflineWhenStoppedAndComeBack) {
  ControlPlane plane("kf-cm-health");
  plane.writeConfig();
  auto manager = plane.start();
  ASSERT_TRUE(manager->waitForLog("Starting cluster controller")) << manager->log();
  for (const std::string member : {"member1", "member2"}) {
    auto joined = join(plane, member);
    ASSERT_EQ(joined.exit_code, 0) << joined.output;
  }
  ResourceClient clusters(plane.host(), kKubeFedClusters, plane.ns());
  auto ready = [&](const std::string& name) {
    auto cluster = clusters.get(name);
    return cluster && conditionStatus(cluster.value(), "Ready") == "True";
  };
  auto offline = [&](const std::string& name) {
    auto cluster = clusters.get(name);
    return cluster && conditionStatus(cluster.value(), "Offline") == "True" &&
           conditionStatus(cluster.value(), "Ready").empty();
  };
  // A new cluster is probed at once (health period 1 s); the deadline is generous for a loaded
  // machine, not a bound on how fast it happens.
  EXPECT_TRUE(eventually([&] { return ready("member1") && ready("member2"); }, seconds(30)))
      << manager->log();

  // Restarted below even if an assertion fails.
  struct Restart {
    ~Restart() { LocalClusters::get().script("start member2"); }
  } restart_member2;
  ASSERT_EQ(LocalClusters::get().script("stop member2"), 0);
  EXPECT_TRUE(eventually([&] { return offline("member2"); }, seconds(15))) << manager->log();
  EXPECT_TRUE(ready("member1"));
  ASSERT_EQ(LocalClusters::get().script("start member2"), 0);
  EXPECT_TRUE(eventually([&] { return ready("member2"); }, seconds(20))) << manager->log();

  ResourceClient events(plane.host(), kEvents, plane.ns());
  auto listed = events.listAll({});
  ASSERT_TRUE(listed) << listed.error().describe();
  std::set<std::string> reasons;
  for (const auto& event : listed.value().items) {
    if (event["involvedObject"].value("name", "") == "member2") {
      reasons.insert(event.value("reason", ""));
    }
  }
  EXPECT_TRUE(reasons.count("ClusterOffline") == 1 && reasons.count("ClusterReady") == 1)
      << "events about member2: " << Json(reasons).dump();

  const std::string metrics = httpGet(servedPort(*manager, "/metrics"), "/metrics");
  EXPECT_NE(metrics.find("kubefedcluster_total{cluster=\"member1\",state=\"ready\"} 1"),
            std::string::npos)
      << metrics.substr(0, 2000);
  EXPECT_EQ(httpGet(servedPort(*manager, "/healthz and /readyz"), "/healthz"), "OK");

  for (const std::string member : {"member1", "member2"}) unjoin(plane, member);
  EXPECT_TRUE(eventually([&] {
    auto listed_clusters = clusters.listAll({});
    return listed_clusters && listed_clusters.value().items.empty();
  }));
}

// The local clusters' kubeconfig with the server of `context` reached through `host` instead of
// 127.0.0.1, written to `dir`; "" when that server is not on 127.0.0.1.
std::string kubeconfigReaching(const std::string& context, const std::string& host,
                               const test::TempDir& dir) {
  const std::string server = LocalClusters::get().config(context).server;
  const std::string loopback = "https://127.0.0.1:";
  const std::string key = "server: ";
  std::string text = readFile(LocalClusters::get().kubeconfigPath());
  const auto at = text.find(key + server + "\n");
  if (server.rfind(loopback, 0) != 0 || at == std::string::npos) return "";
  text.replace(at + key.size(), server.size(),
               "https://" + host + ":" + server.substr(loopback.size()));
  dir.write("kubeconfig", text);
  return dir.file("kubeconfig");
}

// Verifies a member whose kubeconfig names its server in upper case (as EKS endpoints are, in
// upper-case hex) is joined with that endpoint and becomes Ready: host names compare without
// case in DNS and in TLS (the local members' certificates name "localhost"), and KubeFed has no
// rule against them.
TEST(ControllerManagerTest, AMemberJoinedThroughAnUpperCaseHostNameBecomesReady) {
  ControlPlane plane("kf-cm-upper");
  plane.writeConfig();
  auto manager = plane.start();
  ASSERT_TRUE(manager->waitForLog("Starting cluster controller")) << manager->log();
  test::TempDir dir;
  const std::string kubeconfig = kubeconfigReaching("member1", "LOCALHOST", dir);
  ASSERT_NE(kubeconfig, "") << "member1's server is not https://127.0.0.1:<port>";
  const auto server = LocalClusters::get().config("member1").server;
  const std::string endpoint = "https://LOCALHOST" + server.substr(server.rfind(':'));

  auto joined = kubefedctl(
      plane, {"join", "member1", "--cluster-context", "member1", "--host-cluster-name", plane.ns()},
      kubeconfig);
  ASSERT_EQ(joined.exit_code, 0) << joined.output;
  ResourceClient clusters(plane.host(), kKubeFedClusters, plane.ns());
  auto cluster = clusters.get("member1");
  ASSERT_TRUE(cluster) << cluster.error().describe();
  EXPECT_EQ(cluster.value()["spec"]["apiEndpoint"], endpoint);
  EXPECT_TRUE(eventually(
      [&] {
        auto probed = clusters.get("member1");
        return probed && conditionStatus(probed.value(), "Ready") == "True";
      },
      seconds(30)))
      << manager->log();
  unjoin(plane, "member1");
}

TEST(ControllerManagerTest, FederatedTypeConfigLifecycleStartsAndStopsTheSyncController) {
  ControlPlane plane("kf-cm-ftc");
  plane.writeConfig();
  auto manager = plane.start();
  ASSERT_TRUE(manager->waitForLog("Starting FederatedTypeConfig controller")) << manager->log();
  // A namespaced type's sync controller needs the namespaces FTC (spec §2.3 step 6).
  for (const std::string type : {"namespaces", "configmaps"}) {
    auto enabled = kubefedctl(plane, {"enable", type});
    ASSERT_EQ(enabled.exit_code, 0) << enabled.output;
  }
  ResourceClient ftcs(plane.host(), kTypeConfigs, plane.ns());
  auto controller_state = [&]() -> std::string {
    auto ftc = ftcs.get("configmaps");
    if (!ftc) return "";
    const Json& status = ftc.value().value("status", Json::object());
    if (status.value("observedGeneration", 0) != ftc.value()["metadata"].value("generation", -1)) {
      return "";
    }
    return status.value("propagationController", "");
  };
  EXPECT_TRUE(eventually([&] { return controller_state() == "Running"; })) << manager->log();
  EXPECT_TRUE(manager->waitForLog("Started sync controller for \"configmaps\"")) << manager->log();
  auto ftc = ftcs.get("configmaps");
  ASSERT_TRUE(ftc);
  EXPECT_EQ(ftc.value()["metadata"]["finalizers"],
            Json::array({"core.kubefed.io/federated-type-config"}));

  // disable turns propagation off, waits for NotRunning, and deletes the FTC, whose finalizer
  // the FTC controller removes.
  auto disabled = kubefedctl(plane, {"disable", "configmaps"});
  ASSERT_EQ(disabled.exit_code, 0) << disabled.output << manager->log();
  EXPECT_TRUE(manager->waitForLog("Stopped sync controller for \"configmaps\"")) << manager->log();
  EXPECT_TRUE(eventually([&] {
    auto gone = ftcs.get("configmaps");
    return !gone && isNotFound(gone.error());
  })) << manager->log();
  EXPECT_EQ(kubefedctl(plane, {"disable", "namespaces"}).exit_code, 0);
}

}  // namespace
}  // namespace kf::integration
