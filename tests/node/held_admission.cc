#include "tests/node/held_admission.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "tests/node/control_plane.h"

namespace kf::node {
namespace {

constexpr const char* kConfigurationName = "kubefed-node-test-held-admission";
constexpr const char* kProbeLabel = "kubefed-node-test/admission-probe";

// Two webhooks on the one endpoint, loaded together by the API server: the holding one, and a
// probe on labelled ConfigMaps that shows when the configuration is in effect.
std::string configuration(const std::string& group, const std::string& resource, int port) {
  const std::string url = "https://127.0.0.1:" + std::to_string(port) + "/hold";
  const std::string common =
      std::string("  admissionReviewVersions: [v1]\n") +
      "  sideEffects: None\n  failurePolicy: Ignore\n" + "  clientConfig: {url: \"" + url +
      "\"}\n" + "  namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: " + kNamespace +
      "}}\n";
  return std::string("apiVersion: admissionregistration.k8s.io/v1\n") +
         "kind: ValidatingWebhookConfiguration\nmetadata:\n  name: " + kConfigurationName +
         "\nwebhooks:\n- name: hold.kubefed-node-test.io\n" + common + "  timeoutSeconds: 30\n" +
         "  rules: [{operations: [CREATE], apiGroups: [\"" + group +
         "\"], apiVersions: [\"*\"], resources: [" + resource + "]}]\n" +
         "- name: probe.kubefed-node-test.io\n" + common + "  timeoutSeconds: 1\n" +
         "  objectSelector: {matchLabels: {" + kProbeLabel + ": \"true\"}}\n" +
         "  rules: [{operations: [CREATE], apiGroups: [\"\"], apiVersions: [v1], "
         "resources: [configmaps]}]\n";
}

}  // namespace

void HeldAdmission::hold(const std::string& group, const std::string& resource) {
  listener_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(listener_, 0) << std::strerror(errno);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);  // the clusters' namespace: the API server's
  socklen_t length = sizeof(address);
  ASSERT_EQ(bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0)
      << std::strerror(errno);
  ASSERT_EQ(listen(listener_, 64), 0) << std::strerror(errno);
  ASSERT_EQ(getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length), 0);
  ASSERT_EQ(pipe2(wake_, O_CLOEXEC), 0) << std::strerror(errno);
  accepting_ = std::thread([this] { accept(); });

  std::string out;
  ASSERT_TRUE(applyYaml("host", configuration(group, resource, ntohs(address.sin_port)), &out))
      << out;
  ASSERT_TRUE(waitFor([this] { return probeHeld(); }, std::chrono::seconds(60)))
      << "the API server does not call the held webhook";
}

HeldAdmission::~HeldAdmission() {
  release();
  if (listener_ >= 0) close(listener_);
  for (int fd : wake_) {
    if (fd >= 0) close(fd);
  }
  kubectl("host", std::string("delete validatingwebhookconfiguration ") + kConfigurationName +
                      " --ignore-not-found");
}

bool HeldAdmission::probeHeld() {
  const int before = held_.load();
  const std::string probe = std::string("apiVersion: v1\nkind: ConfigMap\nmetadata:\n") +
                            "  name: admission-probe\n  labels: {" + kProbeLabel + ": \"true\"}\n";
  // held for the probe webhook's 1 s timeout once the configuration is in effect
  kubectlWithYaml("host", std::string("-n ") + kNamespace + " create --dry-run=server", probe);
  return held_.load() > before;
}

void HeldAdmission::accept() {
  pollfd watched[2] = {{listener_, POLLIN, 0}, {wake_[0], POLLIN, 0}};
  while (poll(watched, 2, -1) >= 0 || errno == EINTR) {
    if (watched[1].revents != 0) return;
    if ((watched[0].revents & POLLIN) == 0) continue;
    const int connection = accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (connection < 0) continue;
    connections_.push_back(connection);  // never read, never answered: the request waits
    ++held_;
  }
}

void HeldAdmission::release() {
  if (!accepting_.joinable()) return;
  const char stop = 1;
  (void)!write(wake_[1], &stop, 1);
  accepting_.join();
  for (int connection : connections_) close(connection);
  connections_.clear();
  close(listener_);
  listener_ = -1;
}

}  // namespace kf::node
