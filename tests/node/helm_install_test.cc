// `helm install kubefed charts/kubefed` with the image built here: the controller manager (two
// replicas, exactly one leading) and the webhook run under the chart's service accounts, and the
// chart's default types are enabled.

#include <gtest/gtest.h>

#include "tests/integration/resources.h"
#include "tests/node/control_plane.h"

namespace kf::node {
namespace {

TEST(HelmInstallTest, ControlPlaneRunsWithExactlyOneLeader) {
  ASSERT_NO_FATAL_FAILURE(ensureInstalled(Scope::kCluster));
  const std::vector<std::string> pods = controllerPods();
  EXPECT_EQ(pods.size(), 2u);
  const std::string leader = leaderPod();
  ASSERT_FALSE(leader.empty());
  int promoted = 0;
  for (const std::string& pod : pods) {
    const std::string log =
        kubectl("host", std::string("-n ") + kNamespace + " logs " + pod).output;
    if (log.find("promoted as leader") != std::string::npos) {
      ++promoted;
      EXPECT_EQ(pod, leader) << "a pod that does not hold the lock says it leads";
    }
  }
  EXPECT_EQ(promoted, 1) << controllerLogs();

  // the chart's defaults name the image hack/build-image.sh built and loaded
  Json deployment = getObject("host", "deployments", "kubefed-controller-manager", kNamespace);
  ASSERT_TRUE(deployment.is_object());
  const Json& container = deployment["spec"]["template"]["spec"]["containers"][0];
  EXPECT_EQ(container.value("image", ""), "localhost/kubefed-cpp/kubefed:canary");
  EXPECT_EQ(deployment["spec"]["template"]["metadata"]["labels"].value("kubefed-control-plane", ""),
            "controller-manager");
}

TEST(HelmInstallTest, WebhookRunsAndIsReady) {
  ASSERT_NO_FATAL_FAILURE(ensureInstalled(Scope::kCluster));
  Json deployment = getObject("host", "deployments", "kubefed-admission-webhook", kNamespace);
  ASSERT_TRUE(deployment.is_object());
  EXPECT_EQ(deployment["status"].value("readyReplicas", 0), 1) << deployment["status"].dump();
  EXPECT_EQ(
      deployment["spec"]["template"]["metadata"]["labels"].value("kubefed-admission-webhook", ""),
      "true");
}

TEST(HelmInstallTest, DefaultTypesAreEnabledAndTheirControllersRun) {
  ASSERT_NO_FATAL_FAILURE(ensureInstalled(Scope::kCluster));
  for (const std::string& type : integration::kKubefedDefaultTypes) {
    EXPECT_TRUE(waitFor(
        [&] {
          Json ftc = getObject("host", "federatedtypeconfigs", type, kNamespace);
          return ftc.is_object() &&
                 ftc.value("status", Json::object()).value("propagationController", "") ==
                     "Running";
        },
        std::chrono::seconds(60)))
        << type << ": " << getObject("host", "federatedtypeconfigs", type, kNamespace).dump();
  }
}

// The chart's pods run in a namespace that enforces Pod Security "restricted" (ensureInstalled
// labels it before it installs). The API server enforces it (a pod that does not meet the profile
// is refused there), and admits the chart's pod templates as they are.
TEST(HelmInstallTest, PodsRunInANamespaceThatEnforcesPodSecurityRestricted) {
  ASSERT_NO_FATAL_FAILURE(ensureInstalled(Scope::kCluster));
  const Json ns = getObject("host", "namespaces", kNamespace);
  ASSERT_TRUE(ns.is_object());
  EXPECT_EQ(ns["metadata"]["labels"].value("pod-security.kubernetes.io/enforce", ""), "restricted");

  const std::string image = "localhost/kubefed-cpp/kubefed:canary";
  CommandResult refused =
      kubectl("host", std::string("-n ") + kNamespace + " run pod-security-probe --image=" + image +
                          " --restart=Never --dry-run=server");
  EXPECT_NE(refused.status, 0) << "Pod Security admission is not enforced: " << refused.output;
  EXPECT_NE(refused.output.find("violates PodSecurity \"restricted"), std::string::npos)
      << refused.output;

  for (const char* name : {"kubefed-controller-manager", "kubefed-admission-webhook"}) {
    const Json deployment = getObject("host", "deployments", name, kNamespace);
    ASSERT_TRUE(deployment.is_object()) << name;
    EXPECT_EQ(deployment["status"].value("readyReplicas", 0),
              deployment["spec"].value("replicas", -1))
        << name << ": " << deployment["status"].dump();
    const Json pod = {{"apiVersion", "v1"},
                      {"kind", "Pod"},
                      {"metadata", {{"name", std::string(name) + "-probe"}}},
                      {"spec", deployment["spec"]["template"]["spec"]}};
    CommandResult admitted = kubectlWithYaml(
        "host", std::string("-n ") + kNamespace + " create --dry-run=server", pod.dump());
    EXPECT_EQ(admitted.status, 0) << name << ": " << admitted.output;
    EXPECT_EQ(admitted.output.find("PodSecurity"), std::string::npos) << admitted.output;
  }
}

TEST(HelmInstallTest, NoImageIsEverPulled) {
  ASSERT_NO_FATAL_FAILURE(ensureInstalled(Scope::kCluster));
  // kubelet reports every pull it starts or fails as an event
  CommandResult events = kubectl(
      "host", "get events --all-namespaces -o custom-columns=REASON:.reason,MESSAGE:.message");
  ASSERT_EQ(events.status, 0) << events.output;
  EXPECT_NE(events.output.find("Started"), std::string::npos) << "no container events at all";
  for (const char* reason : {"Pulling", "ErrImagePull", "ImagePullBackOff"}) {
    EXPECT_EQ(events.output.find(reason), std::string::npos) << events.output;
  }
}

}  // namespace
}  // namespace kf::node
