// The webhook binary as a process behind the local host kube-apiserver: registered with a
// ValidatingWebhookConfiguration and a MutatingWebhookConfiguration (clientConfig.url on
// 127.0.0.1, the test CA as caBundle; only for the test's namespace), KubeFed's objects are sent
// through the API server: invalid ones (one per validation rule that the CRD schema lets through)
// are rejected with KubeFed's messages, valid ones are stored, a partial KubeFedConfig is stored
// defaulted, a scope change is refused, and renewed certificate files are served without a
// restart.

#include <gtest/gtest.h>
#include <signal.h>

#include <functional>
#include <iostream>
#include <memory>

#include "federation/client/base64.h"
#include "federation/client/resource_client.h"
#include "tests/e2e/webhook_registration.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/process.h"
#include "tests/integration/resources.h"
#include "tests/support/secret_volume.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_certificates.h"

namespace kf::integration {
namespace {

using std::chrono::seconds;

// The path of an object (or its collection) of a core.kubefed.io resource in `ns`.
std::string kubefedPath(const std::string& ns, const std::string& resource,
                        const std::string& name = "") {
  return "/apis/core.kubefed.io/v1beta1/namespaces/" + ns + "/" + resource +
         (name.empty() ? "" : "/" + name);
}

// A test namespace with the webhook process serving it: certificates in a directory laid out
// as the kubelet lays out a Secret volume, and the webhook configurations registered.
class WebhookE2ETest : public testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(ensureKubeFedCrds(), "");
    host_ = LocalClusters::get().client("host");
    namespace_ = std::make_unique<TestNamespace>(*host_, "kf-webhook");
    volume_.publish({{"tls.crt", serving_.cert_pem}, {"tls.key", serving_.key_pem}});
    webhook_ = std::make_unique<ChildProcess>(
        builtBinary("cmd/webhook/webhook"),
        std::vector<std::string>{"--secure-port=0", "--cert-dir=" + certs_.path(),
                                 "--kubeconfig=" + LocalClusters::get().kubeconfigPath(), "--v=4"});
    ASSERT_TRUE(webhook_->waitForLog("Serving webhook server on")) << webhook_->log();
    const int port = servedPort(*webhook_, "webhook server");
    ASSERT_GT(port, 0) << webhook_->log();
    registration_ = std::make_unique<WebhookRegistration>(*host_, ns(), port, ca_.cert_pem);
    // The API server picks up new webhook configurations asynchronously.
    ASSERT_TRUE(eventually([this] { return denialOf(invalidConfigProbe()).has_value(); }))
        << "the API server never called the webhook\n"
        << webhook_->log();
  }

  void TearDown() override {
    registration_.reset();
    if (webhook_ && HasFailure()) std::cerr << "webhook log:\n" << webhook_->log();
  }

  const std::string& ns() const { return namespace_->name(); }

  Result<HttpResponse> send(const std::string& method, const std::string& path, const Json& body,
                            bool dry_run = true) {
    RestRequest request;
    request.method = method;
    request.path = path;
    if (dry_run) request.query = {{"dryRun", "All"}};
    request.body = body.dump();
    return host_->send(request);
  }

  // What the webhook denied the request with, through the API server: the message after
  // `admission webhook "<name>" denied the request: `. nullopt when the request was not denied
  // by a webhook (allowed, or failed otherwise: then the error is reported as a test failure).
  std::optional<std::string> denialOf(const Result<HttpResponse>& response) {
    if (response) return std::nullopt;
    const std::string& message = response.error().message;
    static const std::string kMarker = " denied the request: ";
    const auto at = message.find(kMarker);
    if (at == std::string::npos || message.rfind("admission webhook \"", 0) != 0) {
      return std::nullopt;
    }
    EXPECT_EQ(response.error().http_code, 403) << message;
    return message.substr(at + kMarker.size());
  }

  Result<HttpResponse> invalidConfigProbe() {
    return send("POST", kubefedPath(ns(), "kubefedconfigs"),
                {{"apiVersion", "core.kubefed.io/v1beta1"},
                 {"kind", "KubeFedConfig"},
                 {"metadata", {{"name", "probe"}}},
                 {"spec", {{"scope", "Everywhere"}}}});
  }

  // Sends each case's object (from `valid`, broken by the case) and expects KubeFed's message.
  struct Case {
    std::string name;
    std::function<void(Json&)> breakRule;
    std::string message;
  };
  void expectDenied(const std::vector<Case>& cases, const Json& valid,
                    const std::function<Result<HttpResponse>(const Json&)>& request) {
    for (const Case& c : cases) {
      SCOPED_TRACE(c.name);
      Json object = valid;
      c.breakRule(object);
      const auto response = request(object);
      const auto denial = denialOf(response);
      ASSERT_TRUE(denial.has_value())
          << (response ? "allowed: " + response.value().body : response.error().describe());
      EXPECT_EQ(*denial, c.message);
    }
  }

  std::unique_ptr<RestClient> host_;
  std::unique_ptr<TestNamespace> namespace_;
  test::TempDir certs_;
  test::SecretVolume volume_{certs_};
  test::Credential ca_ = test::makeCa("webhook-e2e-ca");
  test::Credential serving_ = webhookServingCert(ca_);
  std::unique_ptr<ChildProcess> webhook_;
  std::unique_ptr<WebhookRegistration> registration_;
};

const std::string kSubdomainRule =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const std::string kLabelRule =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
    "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or "
    "'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const std::string kFtcNameRule =
    "name: Invalid value: \"deployments.apps\": name must be "
    "'TARGET_PLURAL_NAME(.TARGET_GROUP_NAME)'";

Json e2eFederatedTypeConfig() {
  return Json::parse(R"({
    "apiVersion": "core.kubefed.io/v1beta1", "kind": "FederatedTypeConfig",
    "metadata": {"name": "deployments.apps"},
    "spec": {
      "targetType": {"group": "apps", "version": "v1", "kind": "Deployment",
                     "pluralName": "deployments", "scope": "Namespaced"},
      "propagation": "Enabled",
      "federatedType": {"group": "types.kubefed.io", "version": "v1beta1",
                        "kind": "FederatedDeployment", "pluralName": "federateddeployments",
                        "scope": "Namespaced"},
      "statusType": {"group": "types.kubefed.io", "version": "v1beta1",
                     "kind": "FederatedDeploymentStatus",
                     "pluralName": "federateddeploymentstatuses", "scope": "Namespaced"},
      "statusCollection": "Disabled"
    }
  })");
}

// Verifies FederatedTypeConfigs: a valid one is stored and its status can be written; one
// breaking each rule of the name, the spec or the status is refused with KubeFed's message.
TEST_F(WebhookE2ETest, FederatedTypeConfigsAreValidatedWithKubeFedsMessages) {
  const Json valid = e2eFederatedTypeConfig();
  auto created = send("POST", kubefedPath(ns(), "federatedtypeconfigs"), valid, false);
  ASSERT_TRUE(created) << created.error().describe();

  const auto create = [this](const Json& ftc) {
    return send("POST", kubefedPath(ns(), "federatedtypeconfigs"), ftc);
  };
  auto target = [](Json& f) -> Json& { return f["spec"]["targetType"]; };
  expectDenied(
      {{"name", [](Json& f) { f["metadata"]["name"] = "deployments"; },
        "name: Invalid value: \"deployments\": name must be "
        "'TARGET_PLURAL_NAME(.TARGET_GROUP_NAME)'"},
       {"target group", [&](Json& f) { target(f)["group"] = "Apps"; },
        "[" + kFtcNameRule + ", spec.targetType.group: Invalid value: \"Apps\": " + kSubdomainRule +
            "]"},
       {"target version required", [&](Json& f) { target(f)["version"] = ""; },
        "spec.targetType.version: Required value"},
       {"target version label", [&](Json& f) { target(f)["version"] = "V1"; },
        "spec.targetType.version: Invalid value: \"V1\": " + kLabelRule},
       {"target kind required", [&](Json& f) { target(f)["kind"] = ""; },
        "spec.targetType.kind: Required value"},
       {"target kind label", [&](Json& f) { target(f)["kind"] = "Deploy.Ment"; },
        "spec.targetType.kind: Invalid value: \"Deploy.Ment\": " + kLabelRule},
       {"target plural required", [&](Json& f) { target(f)["pluralName"] = ""; },
        "[" + kFtcNameRule + ", spec.targetType.pluralName: Required value]"},
       {"target plural label", [&](Json& f) { target(f)["pluralName"] = "deploy_ments"; },
        "[" + kFtcNameRule +
            ", spec.targetType.pluralName: Invalid value: \"deploy_ments\": " + kLabelRule + "]"},
       {"target scope required", [&](Json& f) { target(f)["scope"] = ""; },
        "spec.targetType.scope: Required value"},
       {"target scope", [&](Json& f) { target(f)["scope"] = "Global"; },
        "spec.targetType.scope: Unsupported value: \"Global\": supported values: \"Cluster\", "
        "\"Namespaced\""},
       {"propagation required", [](Json& f) { f["spec"]["propagation"] = ""; },
        "spec.propagation: Required value"},
       {"propagation", [](Json& f) { f["spec"]["propagation"] = "On"; },
        "spec.propagation: Unsupported value: \"On\": supported values: \"Enabled\", "
        "\"Disabled\""},
       {"federated group required", [](Json& f) { f["spec"]["federatedType"].erase("group"); },
        "spec.federatedType.group: Required value"},
       {"federated group dot", [](Json& f) { f["spec"]["federatedType"]["group"] = "kubefed"; },
        "spec.federatedType.group: Invalid value: \"kubefed\": should be a domain with at least "
        "one dot"},
       {"federated type resource rules",
        [](Json& f) { f["spec"]["federatedType"]["pluralName"] = ""; },
        "spec.federatedType.pluralName: Required value"},
       {"status group required", [](Json& f) { f["spec"]["statusType"]["group"] = ""; },
        "spec.statusType.group: Required value"},
       {"status type resource rules", [](Json& f) { f["spec"]["statusType"]["version"] = "Beta"; },
        "spec.statusType.version: Invalid value: \"Beta\": " + kLabelRule},
       {"status collection", [](Json& f) { f["spec"]["statusCollection"] = "Yes"; },
        "spec.statusCollection: Unsupported value: \"Yes\": supported values: \"Enabled\", "
        "\"Disabled\""}},
      valid, create);

  // The status subresource: only the status is checked.
  const std::string status_path = kubefedPath(ns(), "federatedtypeconfigs", "deployments.apps");
  Json stored = created.value().body.empty() ? Json() : Json::parse(created.value().body);
  stored["status"] = {{"observedGeneration", 1}, {"propagationController", "Running"}};
  auto status_written = send("PUT", status_path + "/status", stored, false);
  ASSERT_TRUE(status_written) << status_written.error().describe();
  const Json with_status = Json::parse(status_written.value().body);
  expectDenied(
      {{"observed generation", [](Json& f) { f["status"]["observedGeneration"] = -1; },
        "status.observedGeneration: Invalid value: -1: must be greater than or equal to 0"},
       {"propagation controller required",
        [](Json& f) { f["status"]["propagationController"] = ""; },
        "status.propagationController: Required value"},
       {"propagation controller", [](Json& f) { f["status"]["propagationController"] = "Stopped"; },
        "status.propagationController: Unsupported value: \"Stopped\": supported values: "
        "\"Running\", \"NotRunning\""},
       {"status controller", [](Json& f) { f["status"]["statusController"] = "Paused"; },
        "status.statusController: Unsupported value: \"Paused\": supported values: \"Running\", "
        "\"NotRunning\""}},
      with_status, [&](const Json& ftc) { return send("PUT", status_path + "/status", ftc); });
}

Json e2eKubeFedCluster() {
  return Json::parse(R"({
    "apiVersion": "core.kubefed.io/v1beta1", "kind": "KubeFedCluster",
    "metadata": {"name": "member1"},
    "spec": {"apiEndpoint": "https://127.0.0.1:6443", "caBundle": "Zm9v",
             "secretRef": {"name": "member1-token"},
             "disabledTLSValidations": ["SubjectName"], "proxyURL": "socks5://127.0.0.1:1080"}
  })");
}

// Verifies KubeFedClusters: a valid one is stored and its status can be written; one breaking
// each rule of the spec or of a status condition is refused with KubeFed's message.
TEST_F(WebhookE2ETest, KubeFedClustersAreValidatedWithKubeFedsMessages) {
  const Json valid = e2eKubeFedCluster();
  auto created = send("POST", kubefedPath(ns(), "kubefedclusters"), valid, false);
  ASSERT_TRUE(created) << created.error().describe();

  auto spec = [](Json& c) -> Json& { return c["spec"]; };
  expectDenied(
      {{"endpoint required", [&](Json& c) { spec(c)["apiEndpoint"] = ""; },
        "spec.apiEndpoint: Required value"},
       {"endpoint scheme", [&](Json& c) { spec(c)["apiEndpoint"] = "tcp://192.0.2.1:6443"; },
        "spec.apiEndpoint: Unsupported value: \"tcp\": supported values: \"http\", \"https\""},
       {"endpoint path", [&](Json& c) { spec(c)["apiEndpoint"] = "example.com/path"; },
        "spec.apiEndpoint: Invalid value: \"example.com/path\": host must be a URL or a "
        "host:port pair: \"example.com/path\""},
       {"endpoint port number", [&](Json& c) { spec(c)["apiEndpoint"] = "example.com:port"; },
        "spec.apiEndpoint: Invalid value: \"example.com:port\": parse "
        "\"https://example.com:port\": invalid port \":port\" after host"},
       {"endpoint port range",
        [&](Json& c) { spec(c)["apiEndpoint"] = "https://example.com:65536"; },
        "spec.apiEndpoint: Invalid value: 65536: must be between 1 and 65535, inclusive"},
       {"endpoint host Go cannot parse",
        [&](Json& c) { spec(c)["apiEndpoint"] = "exa mple.com:6443"; },
        "spec.apiEndpoint: Invalid value: \"exa mple.com:6443\": parse "
        "\"https://exa mple.com:6443\": invalid character \" \" in host name"},
       {"secret name required", [&](Json& c) { spec(c)["secretRef"]["name"] = ""; },
        "spec.secretRef.name: Required value"},
       {"secret name", [&](Json& c) { spec(c)["secretRef"]["name"] = "Member_Token"; },
        "spec.secretRef.name: Invalid value: \"Member_Token\": " + kSubdomainRule},
       {"tls validations", [&](Json& c) { spec(c)["disabledTLSValidations"] = {"Everything"}; },
        "spec.disabledTLSValidations: Unsupported value: \"Everything\": supported values: "
        "\"*\", \"SubjectName\", \"ValidityPeriod\""},
       {"tls star alone",
        [&](Json& c) {
          spec(c)["disabledTLSValidations"] = {"*", "SubjectName"};
        },
        "spec.disabledTLSValidations: Invalid value: []v1beta1.TLSValidation{\"*\", "
        "\"SubjectName\"}: when * is specified, it is expected to be the only option in list"},
       {"proxy scheme", [&](Json& c) { spec(c)["proxyURL"] = "ftp://192.0.2.2:21"; },
        "spec.proxyURL: Invalid value: \"ftp://192.0.2.2:21\": proxy URL scheme must be one of: "
        "[http, https, socks5]"},
       // KubeFed's webhook fails on it and the API server denies the request without a reason.
       {"proxy URL Go cannot parse", [&](Json& c) { spec(c)["proxyURL"] = "http://a b"; },
        "spec.proxyURL: Invalid value: \"http://a b\": parse \"http://a b\": invalid character "
        "\" \" in host name"}},
      valid,
      [this](const Json& c) { return send("POST", kubefedPath(ns(), "kubefedclusters"), c); });

  // KubeFed has no host name rule: any host Go's URL parser takes is stored, and a cluster
  // with one can be relabelled (an UPDATE through the webhook).
  for (const std::string endpoint :
       {"https://Example_Host:6443", "https://example.com.:6443", "https://user@example.com"}) {
    Json cluster = valid;
    cluster["metadata"]["name"] = "dry-run";
    spec(cluster)["apiEndpoint"] = endpoint;
    auto accepted = send("POST", kubefedPath(ns(), "kubefedclusters"), cluster);
    EXPECT_TRUE(accepted) << endpoint << ": " << accepted.error().describe();
  }
  Json eks = valid;
  eks["metadata"]["name"] = "eks1";
  spec(eks)["apiEndpoint"] =
      "https://964C03D0934F8B3D97FBC6982BD906F4.gr7.us-west-2.eks.amazonaws.com";
  auto eks_created = send("POST", kubefedPath(ns(), "kubefedclusters"), eks, false);
  ASSERT_TRUE(eks_created) << eks_created.error().describe();
  auto relabelled =
      ResourceClient(*host_, kKubeFedClusters, ns())
          .patch("eks1", PatchType::kMerge, R"({"metadata": {"labels": {"region": "us-west-2"}}})");
  ASSERT_TRUE(relabelled) << relabelled.error().describe();
  EXPECT_EQ(relabelled.value()["metadata"]["labels"]["region"], "us-west-2");

  const std::string path = kubefedPath(ns(), "kubefedclusters", "member1");
  Json stored = Json::parse(created.value().body);
  stored["status"] = {
      {"conditions",
       {{{"type", "Ready"}, {"status", "True"}, {"lastProbeTime", "2021-06-29T00:00:00Z"}}}}};
  auto status_written = send("PUT", path + "/status", stored, false);
  ASSERT_TRUE(status_written) << status_written.error().describe();
  auto condition = [](Json& c) -> Json& { return c["status"]["conditions"][0]; };
  // (A missing lastProbeTime never reaches the webhook: the CRD schema requires a date-time.)
  expectDenied(
      {{"condition type required", [&](Json& c) { condition(c)["type"] = ""; },
        "status.conditions[0].type: Required value"},
       {"condition type", [&](Json& c) { condition(c)["type"] = "Healthy"; },
        "status.conditions[0].type: Unsupported value: \"Healthy\": supported values: "
        "\"Ready\", \"Offline\""},
       {"condition status required", [&](Json& c) { condition(c)["status"] = ""; },
        "status.conditions[0].status: Required value"},
       {"condition status", [&](Json& c) { condition(c)["status"] = "Yes"; },
        "status.conditions[0].status: Unsupported value: \"Yes\": supported values: \"True\", "
        "\"False\", \"Unknown\""}},
      Json::parse(status_written.value().body),
      [&](const Json& c) { return send("PUT", path + "/status", c); });
}

Json e2eKubeFedConfig(const std::string& name, Json spec) {
  return {{"apiVersion", "core.kubefed.io/v1beta1"},
          {"kind", "KubeFedConfig"},
          {"metadata", {{"name", name}}},
          {"spec", std::move(spec)}};
}

// Verifies KubeFedConfigs: a partial one is stored defaulted by the mutating webhook; values
// breaking a rule are refused on CREATE (after defaulting), missing sections on UPDATE (which is
// not defaulted), and a scope change is refused, all with KubeFed's messages.
TEST_F(WebhookE2ETest, KubeFedConfigsAreDefaultedAndValidatedWithKubeFedsMessages) {
  const std::string collection = kubefedPath(ns(), "kubefedconfigs");
  // What the user set is kept, but written as Go writes durations: KubeFed's defaulter
  // re-marshals the spec it defaulted.
  auto created =
      send("POST", collection,
           e2eKubeFedConfig(
               "kubefed", {{"scope", "Cluster"}, {"leaderElect", {{"leaseDuration", "60000ms"}}}}),
           false);
  ASSERT_TRUE(created) << created.error().describe();
  ResourceClient configs(*host_, kKubeFedConfigs, ns());
  auto stored = configs.get("kubefed");
  ASSERT_TRUE(stored) << stored.error().describe();
  EXPECT_EQ(stored.value()["spec"], Json::parse(R"({
    "scope": "Cluster",
    "controllerDuration": {"availableDelay": "20s", "unavailableDelay": "1m0s"},
    "leaderElect": {"leaseDuration": "1m0s", "renewDeadline": "10s", "retryPeriod": "5s",
                    "resourceLock": "configmaps"},
    "featureGates": [{"name": "PushReconciler", "configuration": "Enabled"},
                     {"name": "RawResourceStatusCollection", "configuration": "Disabled"},
                     {"name": "SchedulerPreferences", "configuration": "Enabled"}],
    "clusterHealthCheck": {"period": "10s", "failureThreshold": 3, "successThreshold": 1,
                           "timeout": "3s"},
    "syncController": {"maxConcurrentReconciles": 1, "adoptResources": "Enabled"},
    "statusController": {"maxConcurrentReconciles": 1}
  })"));

  // CREATE: what the user set survives defaulting and is validated.
  const Json partial = e2eKubeFedConfig("other", {{"scope", "Cluster"}});
  auto set = [](const std::string& section, const std::string& key, Json value) {
    return [=](Json& c) { c["spec"][section][key] = value; };
  };
  expectDenied(
      {{"scope required", [](Json& c) { c["spec"]["scope"] = ""; }, "spec.scope: Required value"},
       {"scope", [](Json& c) { c["spec"]["scope"] = "Global"; },
        "spec.scope: Unsupported value: \"Global\": supported values: \"Cluster\", "
        "\"Namespaced\""},
       {"available delay", set("controllerDuration", "availableDelay", "0s"),
        "spec.controllerDuration.availableDelay: Invalid value: 0: should be greater than 0"},
       {"unavailable delay", set("controllerDuration", "unavailableDelay", "-1s"),
        "spec.controllerDuration.unavailableDelay: Invalid value: -1000000000: should be greater "
        "than 0"},
       {"lease duration", set("leaderElect", "leaseDuration", "10s"),
        "spec.leaderElect.leaseDuration: Invalid value: 10s: leaseDuration must be greater than "
        "renewDeadline"},
       {"renew deadline", set("leaderElect", "renewDeadline", "6s"),
        "spec.leaderElect.renewDeadline: Invalid value: 6s: renewDeadline must be greater than "
        "retryPeriod*JitterFactor(1.2)"},
       {"resource lock", set("leaderElect", "resourceLock", "secrets"),
        "spec.leaderElect.resourceLock: Unsupported value: \"secrets\": supported values: "
        "\"configmaps\", \"endpoints\", \"leases\", \"configmapsleases\", \"endpointsleases\""},
       {"duplicate gate",
        [](Json& c) {
          c["spec"]["featureGates"] = {{{"name", "PushReconciler"}, {"configuration", "Enabled"}},
                                       {{"name", "PushReconciler"}, {"configuration", "Disabled"}}};
        },
        "spec.featureGates.name: Duplicate value: \"PushReconciler\""},
       {"gate configuration",
        [](Json& c) {
          c["spec"]["featureGates"] = {{{"name", "PushReconciler"}, {"configuration", "On"}}};
        },
        "spec.featureGates.configuration: Unsupported value: \"On\": supported values: "
        "\"Enabled\", \"Disabled\""},
       {"health period", set("clusterHealthCheck", "period", "0s"),
        "spec.clusterHealthCheck.period: Invalid value: 0: should be greater than 0"},
       {"failure threshold", set("clusterHealthCheck", "failureThreshold", 0),
        "spec.clusterHealthCheck.failureThreshold: Invalid value: 0: should be greater than 0"},
       {"adopt resources", set("syncController", "adoptResources", "Always"),
        "spec.syncController.adoptResources: Unsupported value: \"Always\": supported values: "
        "\"Enabled\", \"Disabled\""},
       {"sync concurrency", set("syncController", "maxConcurrentReconciles", 0),
        "spec.syncController.maxConcurrentReconciles: Invalid value: 0: should be greater than "
        "0"},
       {"status concurrency", set("statusController", "maxConcurrentReconciles", -2),
        "spec.statusController.maxConcurrentReconciles: Invalid value: -2: should be greater "
        "than 0"}},
      partial, [&](const Json& c) { return send("POST", collection, c); });

  // UPDATE: not defaulted, so what is missing is refused.
  const std::string path = kubefedPath(ns(), "kubefedconfigs", "kubefed");
  auto without = [](const std::string& section, const std::string& key = "") {
    return [=](Json& c) {
      if (key.empty()) {
        c["spec"].erase(section);
      } else {
        c["spec"][section].erase(key);
      }
    };
  };
  expectDenied(
      {{"controller duration", without("controllerDuration"),
        "spec.controllerDuration: Required value"},
       {"available delay", without("controllerDuration", "availableDelay"),
        "spec.controllerDuration.availableDelay: Required value"},
       {"leader elect", without("leaderElect"), "spec.leaderElect: Required value"},
       {"lease duration", without("leaderElect", "leaseDuration"),
        "spec.leaderElect.leaseDuration: Required value"},
       {"retry period", without("leaderElect", "retryPeriod"),
        "spec.leaderElect.retryPeriod: Required value"},
       {"resource lock", without("leaderElect", "resourceLock"),
        "spec.leaderElect.resourceLock: Required value"},
       {"feature gates", without("featureGates"), "spec.featureGates: Required value"},
       {"health check", without("clusterHealthCheck"), "spec.clusterHealthCheck: Required value"},
       {"health timeout", without("clusterHealthCheck", "timeout"),
        "spec.clusterHealthCheck.timeout: Required value"},
       {"success threshold", without("clusterHealthCheck", "successThreshold"),
        "spec.clusterHealthCheck.successThreshold: Required value"},
       {"sync controller", without("syncController"), "spec.syncController: Required value"},
       {"adopt resources hides concurrency",
        [](Json& c) {
          c["spec"]["syncController"] = {{"maxConcurrentReconciles", 0}};
        },
        "spec.syncController.adoptResources: Required value"},
       {"status controller", without("statusController"), "spec.statusController: Required value"},
       {"scope change", [](Json& c) { c["spec"]["scope"] = "Namespaced"; },
        "spec.scope: Invalid value: \"Namespaced\": field is immutable"}},
      stored.value(), [&](const Json& c) { return send("PUT", path, c); });

  Json retuned = stored.value();
  retuned["spec"]["leaderElect"]["leaseDuration"] = "45s";
  auto updated = send("PUT", path, retuned, false);
  ASSERT_TRUE(updated) << updated.error().describe();
  EXPECT_EQ(configs.get("kubefed").value()["spec"]["leaderElect"]["leaseDuration"], "45s");
}

// Verifies renewed certificate files are served without a restart: once the API server trusts
// only a new CA its calls fail (the webhook still presents the old certificate); once the new
// certificate is published the way the kubelet updates a Secret volume, the calls succeed again,
// for the validating and the mutating webhook.
TEST_F(WebhookE2ETest, RenewedCertificateFilesAreServedWithoutRestart) {
  const test::Credential new_ca = test::makeCa("webhook-e2e-ca-2");
  const test::Credential renewed = webhookServingCert(new_ca);
  registration_->setCaBundle(new_ca.cert_pem);
  ASSERT_TRUE(eventually([this] {
    const auto response = invalidConfigProbe();
    return !response &&
           response.error().message.find("failed calling webhook") != std::string::npos;
  })) << "the API server kept trusting the old certificate";

  volume_.publish({{"tls.crt", renewed.cert_pem}, {"tls.key", renewed.key_pem}});
  ASSERT_TRUE(eventually([this] { return denialOf(invalidConfigProbe()).has_value(); }))
      << invalidConfigProbe().error().describe();
  EXPECT_EQ(denialOf(invalidConfigProbe()),
            "spec.scope: Unsupported value: \"Everywhere\": supported values: \"Cluster\", "
            "\"Namespaced\"");
  EXPECT_TRUE(webhook_->waitForLog("Updated current TLS certificate")) << webhook_->log();

  auto created = send("POST", kubefedPath(ns(), "kubefedconfigs"),
                      e2eKubeFedConfig("kubefed", {{"scope", "Namespaced"}}), false);
  ASSERT_TRUE(created) << created.error().describe();
  EXPECT_EQ(Json::parse(created.value().body)["spec"]["clusterHealthCheck"]["period"], "10s");
  EXPECT_TRUE(webhook_->running());
}

// Verifies a kubeconfig the webhook cannot use is fatal at startup with the reason, as in
// KubeFed (exit 255), before anything is served.
TEST(WebhookProcessTest, AnUnusableKubeconfigIsFatalWithTheReason) {
  test::TempDir dir;
  ChildProcess webhook(builtBinary("cmd/webhook/webhook"),
                       {"--secure-port=0", "--cert-dir=" + dir.path(),
                        "--kubeconfig=" + dir.file("missing-kubeconfig")});
  const auto code = webhook.wait(seconds(20));
  ASSERT_TRUE(code.has_value()) << webhook.log();
  EXPECT_EQ(*code, 255) << webhook.log();
  EXPECT_NE(webhook.log().find("error setting up webhook's config: kubeconfig \"" +
                               dir.file("missing-kubeconfig") + "\": cannot read"),
            std::string::npos)
      << webhook.log();
  EXPECT_EQ(webhook.log().find("Serving webhook server"), std::string::npos);
}

// Verifies missing certificate files are fatal at startup and name the file.
TEST(WebhookProcessTest, MissingCertificateFilesAreFatal) {
  test::TempDir dir;
  ChildProcess webhook(builtBinary("cmd/webhook/webhook"),
                       {"--secure-port=0", "--cert-dir=" + dir.path(),
                        "--kubeconfig=" + LocalClusters::get().kubeconfigPath()});
  const auto code = webhook.wait(seconds(20));
  ASSERT_TRUE(code.has_value()) << webhook.log();
  EXPECT_EQ(*code, 255) << webhook.log();
  EXPECT_NE(webhook.log().find("unable to run the webhook server: cannot read the TLS "
                               "certificate file \"" +
                               dir.file("tls.crt") + "\""),
            std::string::npos)
      << webhook.log();
}

// Verifies SIGTERM and SIGINT stop the server and the process exits 0.
TEST(WebhookProcessTest, SigtermAndSigintStopItCleanly) {
  test::TempDir dir;
  const test::Credential ca = test::makeCa("ca");
  const test::Credential cert = webhookServingCert(ca);
  dir.write("tls.crt", cert.cert_pem);
  dir.write("tls.key", cert.key_pem);
  for (const int signal : {SIGTERM, SIGINT}) {
    ChildProcess webhook(builtBinary("cmd/webhook/webhook"),
                         {"--secure-port=0", "--cert-dir=" + dir.path(),
                          "--kubeconfig=" + LocalClusters::get().kubeconfigPath()});
    ASSERT_TRUE(webhook.waitForLog("Serving webhook server on")) << webhook.log();
    webhook.signal(signal);
    const auto code = webhook.wait(seconds(20));
    ASSERT_TRUE(code.has_value()) << "did not exit:\n" << webhook.log();
    EXPECT_EQ(*code, 0) << webhook.log();
    EXPECT_NE(webhook.log().find("Webhook server stopped"), std::string::npos) << webhook.log();
  }
}

}  // namespace
}  // namespace kf::integration
