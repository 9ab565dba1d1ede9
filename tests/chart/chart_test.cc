// charts/kubefed rendered by helm (lint, template) for both scopes and with cert-manager: the
// objects and values of spec section 4, the image hack/build-image.sh builds, no third-party
// image, and RBAC without rules the controller does not use.

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
  for (const char* role : {"kubefed-admin", "kubefed-edit", "kubefed-view"}) {
    object(objects, std::string("ClusterRole/") + role);
  }
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

TEST(HelmChartTest, NamespacedScopeKeepsToTheReleaseNamespace) {
  auto objects = render("--set global.scope=Namespaced");
  EXPECT_EQ(object(objects, "KubeFedConfig/kubefed")["spec"].value("scope", ""), "Namespaced");
  EXPECT_FALSE(objects.count("ClusterRole/kubefed-role"));
  EXPECT_EQ(object(objects, "Role/kubefed-role")["metadata"].value("namespace", ""), kNs);
  EXPECT_EQ(object(objects, "RoleBinding/kubefed-rolebinding")["roleRef"].value("kind", ""),
            "Role");
  for (const char* role : {"kubefed-admin", "kubefed-edit", "kubefed-view"}) {
    object(objects, std::string("ClusterRole/") + role + ":" + kNs);
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
                                             "scheduling.kubefed.io"}))
        << set;
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

TEST(HelmChartTest, RspControllerWatchesPreferencesOnlyWhileItsGateIsEnabled) {
  const auto objects = render("");
  const auto rules = rulesFor(objects, "ClusterRole/kubefed-role", "scheduling.kubefed.io");
  ASSERT_EQ(rules.size(), 1u);
  EXPECT_EQ(rules[0]["resources"], Json::parse(R"(["replicaschedulingpreferences"])"));
  EXPECT_EQ(rules[0]["verbs"], Json::parse(R"(["watch","list"])"));
  const auto namespaced = render("--set global.scope=Namespaced");
  EXPECT_EQ(rulesFor(namespaced, "Role/kubefed-role", "scheduling.kubefed.io").size(), 1u);
  const auto disabled =
      render("--set controllermanager.featureGates.SchedulerPreferences=Disabled");
  EXPECT_TRUE(rulesFor(disabled, "ClusterRole/kubefed-role", "scheduling.kubefed.io").empty());
}

}  // namespace
}  // namespace kf
