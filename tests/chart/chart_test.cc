// charts/kubefed rendered by helm (lint, template) for both scopes and with cert-manager: the
// objects and values of spec section 4, the image hack/build-image.sh builds, no third-party
// image, pods that Pod Security "restricted" admits, and RBAC without rules the controller does
// not use.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "federation/crdgen/yaml_json.h"
#include "tests/integration/local_clusters.h"

namespace kf {
namespace {

using integration::readFile;
using integration::runCommand;
using integration::sourceDir;

constexpr const char* kNs = "kube-federation-system";

// helm v3 as hack/build-kube-binaries.sh caches it (KUBEFED_CPP_CACHE, else ~/.cache/kubefed-cpp),
// else the one on PATH. Not built from here: a unit test must not start a Go build.
std::string helmBinary() {
  std::string cache;
  if (const char* dir = std::getenv("KUBEFED_CPP_CACHE"); dir != nullptr && *dir != '\0') {
    cache = dir;
  } else if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg != '\0') {
    cache = std::string(xdg) + "/kubefed-cpp";
  } else if (const char* home = std::getenv("HOME"); home != nullptr) {
    cache = std::string(home) + "/.cache/kubefed-cpp";
  }
  const std::string cached = cache + "/bin/helm";
  return access(cached.c_str(), X_OK) == 0 ? cached : "helm";
}

std::string helm(const std::string& arguments, int* status) {
  const std::string output = runCommand("'" + helmBinary() + "' " + arguments, status);
  if (*status == 127) ADD_FAILURE() << "no helm: build it with hack/build-kube-binaries.sh";
  return output;
}

std::string chart() { return "'" + sourceDir() + "/charts/kubefed'"; }

// `helm template` of the chart: its documents, keyed "Kind/name".
std::map<std::string, Json> render(const std::string& set_arguments = "") {
  int status = 0;
  const std::string output =
      helm("template kubefed " + chart() + " -n " + kNs + " " + set_arguments, &status);
  EXPECT_EQ(status, 0) << output;
  auto documents = yamlDocumentsToJson(output);
  EXPECT_TRUE(documents) << (documents ? "" : documents.error().describe());
  std::map<std::string, Json> objects;
  if (!documents) return objects;
  for (Json& document : documents.value()) {
    if (!document.is_object()) continue;
    const std::string key =
        document.value("kind", "") + "/" + document["metadata"].value("name", "");
    EXPECT_FALSE(objects.count(key)) << "rendered twice: " << key;
    objects[key] = std::move(document);
  }
  return objects;
}

const Json& object(const std::map<std::string, Json>& objects, const std::string& key) {
  static const Json kNone;
  auto found = objects.find(key);
  EXPECT_NE(found, objects.end()) << "not rendered: " << key;
  return found == objects.end() ? kNone : found->second;
}

std::vector<std::string> images(const std::map<std::string, Json>& objects) {
  std::vector<std::string> found;
  for (const auto& [key, document] : objects) {
    const std::string text = document.dump();
    static const std::regex image(R"re("image":"([^"]+)")re");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), image);
         it != std::sregex_iterator(); ++it) {
      found.push_back((*it)[1]);
    }
  }
  return found;
}

TEST(HelmChartTest, LintsCleanInBothScopes) {
  for (const std::string set :
       {"", "--set global.scope=Namespaced", "--set controllermanager.certManager.enabled=true"}) {
    int status = 0;
    const std::string output = helm("lint --strict " + chart() + " " + set, &status);
    EXPECT_EQ(status, 0) << set << "\n" << output;
    EXPECT_EQ(output.find("[ERROR]"), std::string::npos) << set << "\n" << output;
    EXPECT_EQ(output.find("[WARNING]"), std::string::npos) << set << "\n" << output;
  }
}

TEST(HelmChartTest, DefaultImageIsTheOneBuildImageBuildsAndNothingElseRuns) {
  const std::string script = readFile(sourceDir() + "/hack/build-image.sh");
  std::smatch match;
  ASSERT_TRUE(std::regex_search(script, match, std::regex("\nIMAGE=([^\n]+)\n")));
  const std::string built = match[1];
  for (const std::string set : {"", "--set global.scope=Namespaced"}) {
    const auto found = images(render(set));
    EXPECT_EQ(found.size(), 2u) << "controller manager and webhook";
    for (const std::string& image : found) EXPECT_EQ(image, built) << set;
  }
}

TEST(HelmChartTest, ClusterScopeRendersKubefedsObjects) {
  auto objects = render();
  const Json& manager = object(objects, "Deployment/kubefed-controller-manager");
  EXPECT_EQ(manager["spec"].value("replicas", 0), 2);
  const Json& pod = manager["spec"]["template"];
  EXPECT_EQ(pod["metadata"]["labels"].value("kubefed-control-plane", ""), "controller-manager");
  EXPECT_EQ(pod["spec"].value("serviceAccountName", ""), "kubefed-controller");
  EXPECT_EQ(pod["spec"]["securityContext"].value("runAsUser", 0), 1001);
  EXPECT_EQ(pod["spec"]["containers"][0]["command"],
            Json::parse(R"(["/hyperfed/controller-manager", "--v=2"])"));
  EXPECT_EQ(pod["spec"]["containers"][0]["livenessProbe"]["httpGet"].value("port", 0), 8080);

  const Json& webhook = object(objects, "Deployment/kubefed-admission-webhook");
  const Json& webhook_pod = webhook["spec"]["template"];
  EXPECT_EQ(webhook_pod["metadata"]["labels"].value("kubefed-admission-webhook", ""), "true");
  EXPECT_EQ(webhook_pod["spec"]["containers"][0]["command"],
            Json::parse(R"(["/hyperfed/webhook", "--secure-port=8443",
                            "--cert-dir=/var/serving-cert/", "--v=8"])"));
  EXPECT_EQ(webhook_pod["spec"]["containers"][0]["readinessProbe"]["httpGet"].value("scheme", ""),
            "HTTPS");

  EXPECT_EQ(object(objects, "Service/kubefed-admission-webhook")["spec"]["ports"][0].value(
                "targetPort", 0),
            8443);
  object(objects, "Service/kubefed-controller-manager-metrics-service");
  object(objects, "ServiceAccount/kubefed-controller");
  object(objects, "ServiceAccount/kubefed-admission-webhook");
  object(objects, "ClusterRole/kubefed-role");
  object(objects, "ClusterRoleBinding/kubefed-rolebinding");
  object(objects, "Role/kubefed-config-role");
  const Json& secret = object(objects, "Secret/kubefed-admission-webhook-serving-cert");
  EXPECT_EQ(secret.value("type", ""), "kubernetes.io/tls");

  const Json& validating =
      object(objects, "ValidatingWebhookConfiguration/validations.core.kubefed.io");
  std::map<std::string, std::string> paths;
  for (const Json& hook : validating.value("webhooks", Json::array())) {
    paths[hook.value("name", "")] = hook["clientConfig"]["service"].value("path", "");
    EXPECT_EQ(hook.value("failurePolicy", ""), "Fail");
    EXPECT_EQ(hook.value("sideEffects", ""), "None");
    EXPECT_EQ(hook["clientConfig"].value("caBundle", ""), secret["data"].value("ca.crt", ""));
    EXPECT_FALSE(hook.contains("namespaceSelector"));
  }
  EXPECT_EQ(paths, (std::map<std::string, std::string>{
                       {"federatedtypeconfigs.core.kubefed.io", "/validate-federatedtypeconfigs"},
                       {"kubefedclusters.core.kubefed.io", "/validate-kubefedcluster"},
                       {"kubefedconfigs.core.kubefed.io", "/validate-kubefedconfig"}}));
  const Json& mutating = object(objects, "MutatingWebhookConfiguration/mutation.core.kubefed.io");
  EXPECT_EQ(mutating["webhooks"][0]["clientConfig"]["service"].value("path", ""),
            "/default-kubefedconfig");
  EXPECT_EQ(mutating["webhooks"][0]["rules"][0]["operations"], Json::parse(R"(["CREATE"])"));

  int type_configs = 0;
  for (const auto& [key, document] : objects) {
    if (document.value("kind", "") != "FederatedTypeConfig") continue;
    ++type_configs;
    EXPECT_EQ(document["metadata"].value("namespace", ""), kNs) << key;
  }
  EXPECT_EQ(type_configs, 10);
}

// KubeFed's controller.annotations and webhook.annotations annotate the Deployments, not their
// pods: tools keyed on Deployment annotations see them, and changing one rolls no pod.
TEST(HelmChartTest, AnnotationValuesGoOnTheDeployments) {
  auto objects =
      render(R"(--set 'controllermanager.controller.annotations.example\.com/owner=federation' )"
             R"(--set 'controllermanager.webhook.annotations.example\.com/owner=admission')");
  for (const auto& [key, owner] :
       std::map<std::string, std::string>{{"Deployment/kubefed-controller-manager", "federation"},
                                          {"Deployment/kubefed-admission-webhook", "admission"}}) {
    const Json& deployment = object(objects, key);
    EXPECT_EQ(deployment["metadata"].value("annotations", Json::object()),
              (Json{{"example.com/owner", owner}}))
        << key;
    const Json pod_annotations =
        deployment["spec"]["template"]["metadata"].value("annotations", Json::object());
    EXPECT_FALSE(pod_annotations.contains("example.com/owner")) << key << " " << pod_annotations;
  }
  // without the values, no annotations at all on the Deployments (as KubeFed's chart)
  for (const auto& [key, document] : render()) {
    if (document.value("kind", "") != "Deployment") continue;
    EXPECT_FALSE(document["metadata"].contains("annotations")) << key;
  }
}

// Every pod of the chart is admitted by a namespace that enforces Pod Security "restricted".
// The node tests run it in one; this checks each field the chart relies on.
TEST(HelmChartTest, EveryPodMeetsPodSecurityRestricted) {
  for (const std::string set :
       {"", "--set global.scope=Namespaced", "--set controllermanager.certManager.enabled=true"}) {
    int deployments = 0;
    for (const auto& [key, document] : render(set)) {
      if (document.value("kind", "") != "Deployment") continue;
      ++deployments;
      const Json& pod = document["spec"]["template"]["spec"];
      const std::string where = set + " " + key;
      EXPECT_EQ(pod["securityContext"], Json::parse(R"({"runAsUser": 1001, "runAsNonRoot": true,
                                                 "seccompProfile": {"type": "RuntimeDefault"}})"))
          << where;
      for (const char* host : {"hostNetwork", "hostPID", "hostIPC"}) {
        EXPECT_FALSE(pod.value(host, false)) << where << " " << host;
      }
      for (const Json& volume : pod.value("volumes", Json::array())) {
        EXPECT_TRUE(volume.contains("secret")) << where << " " << volume;
      }
      ASSERT_FALSE(pod.value("containers", Json::array()).empty()) << where;
      EXPECT_FALSE(pod.contains("initContainers")) << where;
      for (const Json& container : pod["containers"]) {
        EXPECT_EQ(container["securityContext"],
                  Json::parse(R"({"allowPrivilegeEscalation": false, "readOnlyRootFilesystem": true,
                                  "capabilities": {"drop": ["ALL"]}})"))
            << where << " " << container.value("name", "");
        for (const Json& port : container.value("ports", Json::array())) {
          EXPECT_FALSE(port.contains("hostPort")) << where;
        }
      }
    }
    EXPECT_EQ(deployments, 2) << set;
  }
}

TEST(HelmChartTest, KubefedConfigHasKubefedsDefaultsAndTakesValues) {
  const Json defaults = object(render(), "KubeFedConfig/kubefed")["spec"];
  EXPECT_EQ(defaults, Json::parse(R"({
    "scope": "Cluster",
    "controllerDuration": {"availableDelay": "20s", "unavailableDelay": "60s"},
    "leaderElect": {"leaseDuration": "15s", "renewDeadline": "10s", "retryPeriod": "5s",
                    "resourceLock": "configmaps"},
    "clusterHealthCheck": {"period": "10s", "failureThreshold": 3, "successThreshold": 1,
                           "timeout": "3s"},
    "syncController": {"maxConcurrentReconciles": 1, "adoptResources": "Enabled"},
    "statusController": {"maxConcurrentReconciles": 1},
    "featureGates": [{"name": "PushReconciler", "configuration": "Enabled"},
                     {"name": "RawResourceStatusCollection", "configuration": "Disabled"},
                     {"name": "SchedulerPreferences", "configuration": "Enabled"}]})"));
  const Json set =
      object(render("--set controllermanager.clusterAvailableDelay=30s "
                    "--set controllermanager.syncController.maxConcurrentReconciles=4 "
                    "--set controllermanager.syncController.adoptResources=Disabled "
                    "--set controllermanager.featureGates.RawResourceStatusCollection=Enabled"),
             "KubeFedConfig/kubefed")["spec"];
  EXPECT_EQ(set["controllerDuration"].value("availableDelay", ""), "30s");
  EXPECT_EQ(set["syncController"].value("maxConcurrentReconciles", 0), 4);
  EXPECT_EQ(set["syncController"].value("adoptResources", ""), "Disabled");
  EXPECT_EQ(set["featureGates"][1].value("configuration", ""), "Enabled");
}

TEST(HelmChartTest, AChangedKubefedConfigRestartsTheControllerManager) {
  const auto checksum = [](const std::string& set) {
    return object(render(set),
                  "Deployment/kubefed-controller-manager")["spec"]["template"]["metadata"]
                                                          ["annotations"]
                                                              .value("kubefed.io/config-checksum",
                                                                     "");
  };
  const std::string defaults = checksum("");
  EXPECT_FALSE(defaults.empty());
  EXPECT_EQ(checksum(""), defaults);
  EXPECT_NE(checksum("--set controllermanager.featureGates.PushReconciler=Disabled"), defaults);
}

// The release creates the KubeFedConfig after the Deployment (Helm's order): the controller
// manager is told to wait for it rather than create a default that Helm's create would collide
// with. The values' env still applies.
TEST(HelmChartTest, TheControllerManagerWaitsForTheReleasesKubefedConfig) {
  for (const std::string set : {"", "--set global.scope=Namespaced"}) {
    const auto objects = render(set + " --set controllermanager.controller.env.EXTRA=x");
    const Json& pod = object(objects, "Deployment/kubefed-controller-manager")["spec"]["template"];
    EXPECT_EQ(pod["spec"]["containers"][0]["env"],
              Json::parse(R"([{"name": "WAIT_FOR_KUBEFED_CONFIG", "value": "true"},
                              {"name": "EXTRA", "value": "x"}])"))
        << set;
  }
}

TEST(HelmChartTest, NamespacedScopeKeepsToTheReleaseNamespace) {
  auto objects = render("--set global.scope=Namespaced");
  EXPECT_EQ(object(objects, "KubeFedConfig/kubefed")["spec"].value("scope", ""), "Namespaced");
  EXPECT_FALSE(objects.count("ClusterRole/kubefed-role"));
  EXPECT_EQ(object(objects, "Role/kubefed-role")["metadata"].value("namespace", ""), kNs);
  EXPECT_EQ(object(objects, "RoleBinding/kubefed-rolebinding")["roleRef"].value("kind", ""),
            "Role");
  for (const auto& [key, document] : objects) {
    EXPECT_EQ(key.find("ClusterRole/kubefed-"), std::string::npos)
        << "a Namespaced install widens the cluster-wide roles: " << key;
  }
  const std::string suffix = std::string("-") + kNs;
  for (const std::string& key :
       {"ValidatingWebhookConfiguration/validations.core.kubefed.io" + suffix,
        "MutatingWebhookConfiguration/mutation.core.kubefed.io" + suffix}) {
    for (const Json& hook : object(objects, key).value("webhooks", Json::array())) {
      EXPECT_EQ(hook["namespaceSelector"]["matchLabels"].value("name", ""), kNs) << key;
    }
  }
}

TEST(HelmChartTest, CertManagerIssuesTheWebhookCertificateForBothConfigurations) {
  auto objects = render("--set controllermanager.certManager.enabled=true");
  EXPECT_FALSE(objects.count("Secret/kubefed-admission-webhook-serving-cert"));
  const Json& certificate = object(objects, "Certificate/kubefed-admission-webhook-serving-cert");
  EXPECT_EQ(certificate["spec"].value("secretName", ""), "kubefed-admission-webhook-serving-cert");
  object(objects, "Issuer/kubefed-admission-webhook-selfsigned-issuer");
  object(objects, "Issuer/kubefed-admission-webhook-ca-issuer");
  object(objects, "Certificate/kubefed-admission-webhook-root-certificate");
  const std::string inject = std::string(kNs) + "/kubefed-admission-webhook-serving-cert";
  for (const std::string& key :
       {std::string("ValidatingWebhookConfiguration/validations.core.kubefed.io"),
        std::string("MutatingWebhookConfiguration/mutation.core.kubefed.io")}) {
    EXPECT_EQ(
        object(objects, key)["metadata"]["annotations"].value("cert-manager.io/inject-ca-from", ""),
        inject)
        << key;
  }
}

TEST(HelmChartTest, ControllerRbacGrantsOnlyWhatTheControllerUses) {
  for (const std::string set : {"", "--set global.scope=Namespaced"}) {
    auto objects = render(set);
    std::set<std::string> groups;
    for (const auto& [key, document] : objects) {
      const std::string kind = document.value("kind", "");
      if (kind != "Role" && kind != "ClusterRole") continue;
      if (key.find("kubefed-admin") != std::string::npos ||
          key.find("kubefed-edit") != std::string::npos ||
          key.find("kubefed-view") != std::string::npos) {
        continue;  // users' aggregated roles
      }
      for (const Json& rule : document.value("rules", Json::array())) {
        for (const Json& group : rule.value("apiGroups", Json::array()))
          groups.insert(group.get<std::string>());
        EXPECT_EQ(rule["verbs"].dump().find("\"*\""), std::string::npos)
            << key << " " << rule.dump();
        EXPECT_EQ(rule["verbs"].dump().find("deletecollection"), std::string::npos) << key;
      }
    }
    EXPECT_EQ(groups, (std::set<std::string>{"", "core.kubefed.io", "types.kubefed.io",
                                             "scheduling.kubefed.io", "policy.kubefed-cpp.io",
                                             "rollout.kubefed-cpp.io"}))
        << set;
  }
}

// KubeFed's kubefed-admin/edit/view, aggregated into the default roles, in Cluster scope only
// (NamespacedScopeKeepsToTheReleaseNamespace checks there are none there). edit adds patch
// (README, "Where the chart differs").
TEST(HelmChartTest, AggregatedRolesAreKubefeds) {
  const auto objects = render();
  const std::map<std::string, Json> verbs = {
      {"admin", Json::parse(R"(["*"])")},
      {"edit", Json::parse(R"(["get", "watch", "list", "create", "update", "patch", "delete"])")},
      {"view", Json::parse(R"(["get", "watch", "list"])")}};
  for (const auto& [role, expected] : verbs) {
    const Json& cluster_role = object(objects, "ClusterRole/kubefed-" + role);
    EXPECT_EQ(
        cluster_role["metadata"]["labels"],
        (Json{{"api", "kubefed"}, {"rbac.authorization.k8s.io/aggregate-to-" + role, "true"}}))
        << role;
    ASSERT_EQ(cluster_role.value("rules", Json::array()).size(), 1u) << role;
    const Json& rule = cluster_role["rules"][0];
    EXPECT_EQ(rule["apiGroups"],
              Json::parse(R"(["core.kubefed.io", "scheduling.kubefed.io", "types.kubefed.io"])"))
        << role;
    EXPECT_EQ(rule["resources"], Json::parse(R"(["*"])")) << role;
    EXPECT_EQ(rule["verbs"], expected) << role;
  }
}

// The lock rule: KubeFed's ConfigMap by default, and exactly the kinds the KubeFedConfig's
// resourceLock makes the controller manager write.
std::set<std::string> lockResources(const std::string& lock) {
  auto objects =
      render(lock.empty() ? "" : "--set controllermanager.leaderElectResourceLock=" + lock);
  std::set<std::string> resources;
  for (const Json& rule : object(objects, "Role/kubefed-config-role")["rules"]) {
    for (const Json& resource : rule["resources"]) {
      if (resource != "secrets") resources.insert(resource.get<std::string>());
    }
  }
  return resources;
}

TEST(HelmChartTest, TheLockRuleFollowsTheResourceLock) {
  using Set = std::set<std::string>;
  EXPECT_EQ(lockResources(""), Set{"configmaps"});
  EXPECT_EQ(lockResources("configmaps"), Set{"configmaps"});
  EXPECT_EQ(lockResources("endpoints"), Set{"endpoints"});
  EXPECT_EQ(lockResources("leases"), Set{"leases"});
  EXPECT_EQ(lockResources("configmapsleases"), (Set{"configmaps", "leases"}));
  EXPECT_EQ(lockResources("endpointsleases"), (Set{"endpoints", "leases"}));
}

// The rules of kubefed-role for one API group.
std::vector<Json> rulesFor(const std::map<std::string, Json>& objects, const std::string& key,
                           const std::string& group) {
  std::vector<Json> out;
  for (const Json& rule : object(objects, key).value("rules", Json::array())) {
    for (const Json& g : rule.value("apiGroups", Json::array())) {
      if (g == group) out.push_back(rule);
    }
  }
  return out;
}

// The RSP controller's informer may list and watch ReplicaSchedulingPreferences also when the
// values disable its gate: the gate can be enabled later in the KubeFedConfig itself, and the
// controller manager restarts with it (KubeFed grants its rule always, too).
TEST(HelmChartTest, RspControllerMayWatchPreferencesWhateverTheGateSays) {
  for (const std::string set :
       {"", "--set controllermanager.featureGates.SchedulerPreferences=Enabled",
        "--set controllermanager.featureGates.SchedulerPreferences=Disabled"}) {
    for (const std::string& scope :
         {std::string(), std::string(" --set global.scope=Namespaced")}) {
      const auto objects = render(set + scope);
      const std::string role = scope.empty() ? "ClusterRole/kubefed-role" : "Role/kubefed-role";
      const auto rules = rulesFor(objects, role, "scheduling.kubefed.io");
      ASSERT_EQ(rules.size(), 1u) << set << scope;
      EXPECT_EQ(rules[0]["resources"], Json::parse(R"(["replicaschedulingpreferences"])"));
      EXPECT_EQ(rules[0]["verbs"], Json::parse(R"(["watch","list"])"));
    }
  }
}

}  // namespace
}  // namespace kf
