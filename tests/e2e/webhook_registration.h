#pragma once
// KubeFed's webhook configurations pointing at a webhook process on 127.0.0.1, for the
// end-to-end tests that run the webhook binary behind the local host API server.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "federation/client/base64.h"
#include "federation/client/resource_client.h"
#include "tests/support/test_certificates.h"

namespace kf::integration {

inline const GroupVersionResource kValidatingWebhooks{"admissionregistration.k8s.io", "v1",
                                                      "validatingwebhookconfigurations", false};
inline const GroupVersionResource kMutatingWebhooks{"admissionregistration.k8s.io", "v1",
                                                    "mutatingwebhookconfigurations", false};

inline test::Credential webhookServingCert(const test::Credential& ca) {
  return test::makeCredential({.common_name = "kubefed-admission-webhook",
                               .subject_alt_names = "IP:127.0.0.1",
                               .not_after_offset = 24 * 3600},
                              &ca);
}

inline Json webhookEntry(const std::string& name, int port, const std::string& path,
                         const std::string& ca_pem, const std::vector<std::string>& resources,
                         const std::vector<std::string>& operations, const std::string& ns) {
  return {{"name", name},
          {"admissionReviewVersions", {"v1"}},
          {"clientConfig",
           {{"url", "https://127.0.0.1:" + std::to_string(port) + path},
            {"caBundle", base64Encode(ca_pem)}}},
          {"rules",
           {{{"operations", operations},
             {"apiGroups", {"core.kubefed.io"}},
             {"apiVersions", {"v1beta1"}},
             {"resources", resources},
             {"scope", "Namespaced"}}}},
          {"failurePolicy", "Fail"},
          {"sideEffects", "None"},
          {"timeoutSeconds", 10},
          // As KubeFed's chart does for a namespaced control plane: only this namespace, so that
          // the other tests on these clusters never meet the webhook.
          {"namespaceSelector", {{"matchLabels", {{"kubernetes.io/metadata.name", ns}}}}}};
}

// KubeFed's webhook configurations (spec §2.10) pointing at a webhook on 127.0.0.1, removed
// again on destruction (they would otherwise outlive the webhook process).
class WebhookRegistration {
 public:
  WebhookRegistration(RestClient& host, const std::string& ns, int port, const std::string& ca_pem)
      : host_(host), name_("kubefed-cpp-e2e-" + ns) {
    const Json validating = {
        {"apiVersion", "admissionregistration.k8s.io/v1"},
        {"kind", "ValidatingWebhookConfiguration"},
        {"metadata", {{"name", name_}}},
        {"webhooks",
         {webhookEntry("federatedtypeconfigs.core.kubefed.io", port,
                       "/validate-federatedtypeconfigs", ca_pem,
                       {"federatedtypeconfigs", "federatedtypeconfigs/status"},
                       {"CREATE", "UPDATE"}, ns),
          webhookEntry("kubefedclusters.core.kubefed.io", port, "/validate-kubefedcluster", ca_pem,
                       {"kubefedclusters", "kubefedclusters/status"}, {"CREATE", "UPDATE"}, ns),
          webhookEntry("kubefedconfigs.core.kubefed.io", port, "/validate-kubefedconfig", ca_pem,
                       {"kubefedconfigs"}, {"CREATE", "UPDATE"}, ns)}}};
    const Json mutating = {
        {"apiVersion", "admissionregistration.k8s.io/v1"},
        {"kind", "MutatingWebhookConfiguration"},
        {"metadata", {{"name", name_}}},
        {"webhooks",
         {webhookEntry("kubefedconfigs.core.kubefed.io", port, "/default-kubefedconfig", ca_pem,
                       {"kubefedconfigs"}, {"CREATE"}, ns)}}};
    for (const auto& [gvr, object] :
         {std::pair{kValidatingWebhooks, validating}, std::pair{kMutatingWebhooks, mutating}}) {
      auto created = ResourceClient(host_, gvr).create(object);
      EXPECT_TRUE(created) << created.error().describe();
    }
  }

  ~WebhookRegistration() {
    for (const auto& gvr : {kValidatingWebhooks, kMutatingWebhooks}) {
      auto removed = ResourceClient(host_, gvr).remove(name_);
      EXPECT_TRUE(removed || isNotFound(removed.error())) << removed.error().describe();
    }
  }
  WebhookRegistration(const WebhookRegistration&) = delete;
  WebhookRegistration& operator=(const WebhookRegistration&) = delete;

  // Points every webhook at a new CA bundle.
  void setCaBundle(const std::string& ca_pem) {
    for (const auto& gvr : {kValidatingWebhooks, kMutatingWebhooks}) {
      ResourceClient configs(host_, gvr);
      auto current = configs.get(name_);
      ASSERT_TRUE(current) << current.error().describe();
      Json updated = current.value();
      for (auto& webhook : updated["webhooks"]) {
        webhook["clientConfig"]["caBundle"] = base64Encode(ca_pem);
      }
      auto written = configs.update(updated);
      ASSERT_TRUE(written) << written.error().describe();
    }
  }

 private:
  RestClient& host_;
  std::string name_;
};

}  // namespace kf::integration
