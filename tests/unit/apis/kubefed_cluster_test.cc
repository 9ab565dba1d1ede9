#include "apis/core/kubefed_cluster.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ostream>

#include "apis/core/validation.h"

namespace kf::core {
namespace {

using meta::FieldPath;
using testing::HasSubstr;
using testing::IsEmpty;

Json clusterJson() {
  return Json::parse(R"({
    "apiVersion": "core.kubefed.io/v1beta1",
    "kind": "KubeFedCluster",
    "metadata": {"name": "cluster1", "namespace": "kube-federation-system"},
    "spec": {
      "apiEndpoint": "https://192.0.2.10:6443",
      "caBundle": "LS0tLS1CRUdJTi0tLS0t",
      "secretRef": {"name": "cluster1-secret"},
      "disabledTLSValidations": ["SubjectName"],
      "proxyURL": "socks5://proxy:1080"
    },
    "status": {
      "conditions": [
        {"type": "Ready", "status": "True", "lastProbeTime": "2021-06-29T10:00:00Z",
         "lastTransitionTime": "2021-06-29T09:00:00Z", "reason": "ClusterReady",
         "message": "/healthz responded with ok"},
        {"type": "Offline", "status": "False", "lastProbeTime": "2021-06-29T10:00:00Z"}
      ],
      "region": "eu"
    }
  })");
}

KubeFedCluster validCluster() { return KubeFedCluster::fromJson(clusterJson()).value(); }

TEST(KubeFedClusterTest, ReadsFields) {
  const auto cluster = validCluster();
  EXPECT_EQ(cluster.spec.api_endpoint, "https://192.0.2.10:6443");
  EXPECT_EQ(cluster.spec.ca_bundle, "LS0tLS1CRUdJTi0tLS0t");
  EXPECT_EQ(cluster.spec.secret_ref.name, "cluster1-secret");
  EXPECT_THAT(cluster.spec.disabled_tls_validations, testing::ElementsAre("SubjectName"));
  EXPECT_EQ(cluster.spec.proxy_url, "socks5://proxy:1080");
  ASSERT_TRUE(cluster.status.has_value());
  ASSERT_EQ(cluster.status->conditions.size(), 2u);
  EXPECT_EQ(cluster.status->conditions[0].reason, "ClusterReady");
  EXPECT_FALSE(cluster.status->conditions[1].reason.has_value());
  EXPECT_EQ(cluster.status->region, "eu");
}

TEST(KubeFedClusterTest, RoundTripKeepsUnknownFields) {
  Json json = clusterJson();
  json["top"] = 1;
  json["spec"]["future"] = {{"a", "b"}};
  json["spec"]["secretRef"]["namespace"] = "other";
  json["status"]["conditions"][1]["extra"] = Json::array();
  json["status"]["observed"] = 3;
  auto cluster = KubeFedCluster::fromJson(json);
  ASSERT_TRUE(cluster) << cluster.error().message;
  EXPECT_EQ(cluster.value().toJson(), json);
}

TEST(KubeFedClusterTest, RoundTripWithoutOptionalFields) {
  const Json json = Json::parse(R"({
    "metadata": {"name": "c"},
    "spec": {"apiEndpoint": "https://c", "secretRef": {"name": "s"}}
  })");
  const auto cluster = KubeFedCluster::fromJson(json).value();
  EXPECT_FALSE(cluster.status.has_value());
  EXPECT_EQ(cluster.toJson(), json);
}

TEST(KubeFedClusterTest, WrongTypesNameThePath) {
  Json json = clusterJson();
  json["spec"]["disabledTLSValidations"][0] = 5;
  EXPECT_EQ(KubeFedCluster::fromJson(json).error().message,
            "spec.disabledTLSValidations[0]: expected string");
  json = clusterJson();
  json["status"]["conditions"][1]["type"] = true;
  EXPECT_EQ(KubeFedCluster::fromJson(json).error().message,
            "status.conditions[1].type: expected string");
}

TEST(KubeFedClusterValidationTest, ValidPassesForSpecAndStatus) {
  for (bool status : {true, false})
    EXPECT_THAT(validateKubeFedCluster(validCluster(), status), IsEmpty());
}

TEST(KubeFedClusterValidationTest, SpecAndStatusAreWired) {
  KubeFedCluster spec_invalid = validCluster();
  spec_invalid.spec.api_endpoint = "";
  auto errors = validateKubeFedCluster(spec_invalid, false);
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(errors[0].message(), "spec.apiEndpoint: Required value");
  EXPECT_THAT(validateKubeFedCluster(spec_invalid, true), IsEmpty());

  KubeFedCluster status_invalid = validCluster();
  status_invalid.status->conditions[1].type = "";
  errors = validateKubeFedCluster(status_invalid, true);
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(errors[0].message(), "status.conditions[1].type: Required value");
  EXPECT_THAT(validateKubeFedCluster(status_invalid, false), IsEmpty());
}

class ValidEndpointTest : public testing::TestWithParam<std::string> {};

TEST_P(ValidEndpointTest, Accepted) {
  EXPECT_THAT(validateApiEndpoint(GetParam(), FieldPath("apiEndpoint")), IsEmpty()) << GetParam();
}

std::vector<std::string> validEndpoints() {
  std::vector<std::string> out;
  for (std::string scheme : {"", "http://", "https://"}) {
    for (std::string host :
         {"example.com", "my.example.com", "192.0.2.219", "[2001:db8:25a4:8d2::1]"}) {
      for (std::string port : {"", ":1", ":80", ":8080", ":65535"}) {
        for (std::string path : {"", "/", "/path/to/endpoint"}) {
          if (scheme.empty() && path == "/path/to/endpoint") continue;
          out.push_back(scheme + host + port + path);
        }
      }
    }
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Matrix, ValidEndpointTest, testing::ValuesIn(validEndpoints()));

// KubeFed checks no host name rule: any host Go's URL parser takes is accepted.
INSTANTIATE_TEST_SUITE_P(
    HostsGoAccepts, ValidEndpointTest,
    testing::Values(
        // EKS API endpoints are upper-case hex.
        "https://964C03D0934F8B3D97FBC6982BD906F4.gr7.us-west-2.eks.amazonaws.com",
        "https://LOCALHOST:6443", "LOCALHOST:6443", "HTTPS://Example.COM",
        "https://Example_Host:6443", "example_com", "-example.com", "https://example.com.:6443",
        "example.com.", "https://user@example.com:6443", "https://user:secret@example.com",
        "user@example.com:6443", "https://:6443", ":6443", "192.0.2..161",
        // Go 1.16's parser, which KubeFed v0.8.1 was built with, does not check the address in
        // the brackets.
        "[2001:db8:25a4::8d2::1]", "https://[fe80::1%25eth0]:6443",
        "https://example.com:6443?x=1#top", "example.com#top", "https://ex%C3%A4mple.com"));

struct EndpointCase {
  std::string endpoint;
  std::string expected;
};

// Readable test names in failure output instead of a byte dump.
void PrintTo(const EndpointCase& c, std::ostream* os) { *os << c.endpoint; }

class InvalidEndpointTest : public testing::TestWithParam<EndpointCase> {};

// Like KubeFed's test: some error of the list carries the expected text.
TEST_P(InvalidEndpointTest, Rejected) {
  const auto errors = validateApiEndpoint(GetParam().endpoint, FieldPath("apiEndpoint"));
  ASSERT_FALSE(errors.empty()) << GetParam().endpoint;
  EXPECT_THAT(meta::aggregate(errors), HasSubstr(GetParam().expected));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, InvalidEndpointTest,
    testing::Values(
        EndpointCase{"", "apiEndpoint: Required value"},
        // client-go's error names the endpoint again.
        EndpointCase{"https://",
                     "apiEndpoint: Invalid value: \"https://\": host must be a URL or a "
                     "host:port pair: \"https://\""},
        EndpointCase{"example.com/path/to/somewhere",
                     "apiEndpoint: Invalid value: \"example.com/path/to/somewhere\": host must be "
                     "a URL or a host:port pair: \"example.com/path/to/somewhere\""},
        EndpointCase{"192.0.2.35/path/to/somewhere",
                     "apiEndpoint: Invalid value: \"192.0.2.35/path/to/somewhere\": host must be "
                     "a URL or a host:port pair"},
        EndpointCase{"tcp://example.com",
                     "apiEndpoint: Unsupported value: \"tcp\": supported values: \"http\", "
                     "\"https\""},
        // A port that is not all digits fails Go's url.Parse, whose error KubeFed passes on.
        EndpointCase{"example.com:port80",
                     "apiEndpoint: Invalid value: \"example.com:port80\": parse "
                     "\"https://example.com:port80\": invalid port \":port80\" after host"},
        EndpointCase{"example.com:-80",
                     "apiEndpoint: Invalid value: \"example.com:-80\": parse "
                     "\"https://example.com:-80\": invalid port \":-80\" after host"},
        // With a scheme, client-go parses again with https:// in front: a host with a path.
        EndpointCase{"https://example.com:port80",
                     "apiEndpoint: Invalid value: \"https://example.com:port80\": host must be a "
                     "URL or a host:port pair: \"https://example.com:port80\""},
        EndpointCase{"example.com:99999999999999999999",
                     "apiEndpoint: Invalid value: \"99999999999999999999\": error converting port "
                     "to integer"},
        EndpointCase{"example.com:0",
                     "apiEndpoint: Invalid value: 0: must be between 1 and 65535, inclusive"},
        EndpointCase{"example.com:65536",
                     "apiEndpoint: Invalid value: 65536: must be between 1 and 65535, "
                     "inclusive"},
        // What Go's URL parser rejects: KubeFed passes its error on.
        EndpointCase{"[2001:db8::1]x",
                     "apiEndpoint: Invalid value: \"[2001:db8::1]x\": parse "
                     "\"https://[2001:db8::1]x\": invalid port \"x\" after host"},
        EndpointCase{
            "[2001:db8::1",
            "apiEndpoint: Invalid value: \"[2001:db8::1\": parse \"https://[2001:db8::1\": "
            "missing ']' in host"},
        EndpointCase{"exa mple.com:6443",
                     "apiEndpoint: Invalid value: \"exa mple.com:6443\": parse "
                     "\"https://exa mple.com:6443\": invalid character \" \" in host name"},
        EndpointCase{"exa|mple.com",
                     "parse \"https://exa|mple.com\": invalid character \"|\" in "
                     "host name"},
        // A host may escape only non-ASCII bytes.
        EndpointCase{"exa%41mple.com",
                     "parse \"https://exa%41mple.com\": invalid URL escape \"%41\""},
        EndpointCase{"ex%zzample.com",
                     "parse \"https://ex%zzample.com\": invalid URL escape \"%zz\""},
        EndpointCase{"ab%4:%zz@example.com",
                     "parse \"https://ab%4:%zz@example.com\": invalid URL escape \"%4\""},
        EndpointCase{"https://example.com#%zz",
                     "parse \"https://https://example.com#%zz\": invalid URL escape \"%zz\""},
        EndpointCase{"us er@example.com",
                     "parse \"https://us er@example.com\": net/url: invalid userinfo"},
        EndpointCase{"example.com:6443\n",
                     "parse \"https://example.com:6443\\n\": net/url: invalid "
                     "control character in URL"},
        // With a scheme, the second reading (https:// in front) sees a host with a path.
        EndpointCase{"https://exa mple.com",
                     "apiEndpoint: Invalid value: \"https://exa mple.com\": host must be a URL or "
                     "a host:port pair: \"https://exa mple.com\""},
        EndpointCase{"https://exa|mple.com:6443", "host must be a URL or a host:port pair"},
        EndpointCase{"https://user@", "host must be a URL or a host:port pair"},
        // ... unless that path has a bad escape of its own.
        EndpointCase{"https://example.com/%zz",
                     "parse \"https://https://example.com/%zz\": invalid URL escape \"%zz\""}));

struct SecretCase {
  std::string name;
  std::string first_error;
};

// Readable test names in failure output instead of a byte dump.
void PrintTo(const SecretCase& c, std::ostream* os) { *os << c.name; }

class SecretRefValidationTest : public testing::TestWithParam<SecretCase> {};

TEST_P(SecretRefValidationTest, Matches) {
  const auto errors =
      validateLocalSecretReference({GetParam().name, Json()}, FieldPath("secretRef"));
  if (GetParam().first_error.empty()) {
    EXPECT_THAT(errors, IsEmpty());
  } else {
    ASSERT_FALSE(errors.empty());
    EXPECT_THAT(errors[0].message(), HasSubstr(GetParam().first_error));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, SecretRefValidationTest,
    testing::Values(SecretCase{"validation-test-cluster1", ""},
                    SecretCase{"", "secretRef.name: Required value"},
                    SecretCase{"invalid_secretname",
                               "must consist of lower case alphanumeric characters, '-' or '.'"}));

struct TlsCase {
  std::vector<std::string> validations;
  std::string first_error;
};

// Readable test names in failure output instead of a byte dump.
void PrintTo(const TlsCase& c, std::ostream* os) { *os << c.validations.size() << " entries"; }

class DisabledTlsValidationTest : public testing::TestWithParam<TlsCase> {};

TEST_P(DisabledTlsValidationTest, Matches) {
  const auto errors =
      validateDisabledTlsValidations(GetParam().validations, FieldPath("disabledTLSValidations"));
  if (GetParam().first_error.empty()) {
    EXPECT_THAT(errors, IsEmpty());
  } else {
    ASSERT_FALSE(errors.empty());
    EXPECT_THAT(errors[0].message(), HasSubstr(GetParam().first_error));
  }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, DisabledTlsValidationTest,
    testing::Values(
        TlsCase{{}, ""}, TlsCase{{"*"}, ""}, TlsCase{{"SubjectName"}, ""},
        TlsCase{{"ValidityPeriod"}, ""}, TlsCase{{"SubjectName", "ValidityPeriod"}, ""},
        TlsCase{{"SubjectName", "*"},
                "disabledTLSValidations: Invalid value: []v1beta1.TLSValidation{\"SubjectName\", "
                "\"*\"}: when * is specified, it is expected to be the only option in list"},
        TlsCase{{"*", "ValidityPeriod"},
                "when * is specified, it is expected to be the only option in list"},
        // KubeFed names the list, not the element.
        TlsCase{{"Bogus"}, "disabledTLSValidations: Unsupported value: \"Bogus\""}));

struct ProxyCase {
  std::string url;
  std::string detail;  // "" when valid
};

// Readable test names in failure output instead of a byte dump.
void PrintTo(const ProxyCase& c, std::ostream* os) { *os << c.url; }

class ProxyUrlValidationTest : public testing::TestWithParam<ProxyCase> {};

TEST_P(ProxyUrlValidationTest, Matches) {
  const auto errors = validateProxyUrl(GetParam().url, FieldPath("spec.proxyURL"));
  if (GetParam().detail.empty()) {
    EXPECT_THAT(errors, IsEmpty());
  } else {
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].message(),
              "spec.proxyURL: Invalid value: \"" + GetParam().url + "\": " + GetParam().detail);
  }
}

const std::string kProxySchemes = "proxy URL scheme must be one of: [http, https, socks5]";

INSTANTIATE_TEST_SUITE_P(
    Cases, ProxyUrlValidationTest,
    testing::Values(
        ProxyCase{"", ""}, ProxyCase{"http://p:3128", ""}, ProxyCase{"HTTPS://p", ""},
        ProxyCase{"socks5://p:1080", ""}, ProxyCase{"http://Proxy_1.example.:3128", ""},
        ProxyCase{"ftp://p", kProxySchemes}, ProxyCase{"p:3128", kProxySchemes},
        ProxyCase{"//p", kProxySchemes},
        // KubeFed's handler fails on these (the API server then denies the request
        // without a reason); ours names Go's parse error.
        ProxyCase{"http://a b", "parse \"http://a b\": invalid character \" \" in host name"},
        ProxyCase{"http://p:port", "parse \"http://p:port\": invalid port \":port\" after host"},
        ProxyCase{":3128", "parse \":3128\": missing protocol scheme"}));

struct ConditionCase {
  std::string type;
  std::string status;
  std::string probe;
  std::string first_error;
};

// Readable test names in failure output instead of a byte dump.
void PrintTo(const ConditionCase& c, std::ostream* os) {
  *os << c.type << "/" << c.status << "/" << c.probe;
}

class ClusterConditionValidationTest : public testing::TestWithParam<ConditionCase> {};

TEST_P(ClusterConditionValidationTest, Matches) {
  ClusterCondition condition;
  condition.type = GetParam().type;
  condition.status = GetParam().status;
  condition.last_probe_time = GetParam().probe;
  const auto errors = validateClusterCondition(condition, FieldPath("conditions").index(0));
  if (GetParam().first_error.empty()) {
    EXPECT_THAT(errors, IsEmpty());
  } else {
    ASSERT_FALSE(errors.empty());
    EXPECT_THAT(errors[0].message(), HasSubstr(GetParam().first_error));
  }
}

constexpr const char* kNow = "2021-06-29T10:00:00Z";

INSTANTIATE_TEST_SUITE_P(
    Cases, ClusterConditionValidationTest,
    testing::Values(
        ConditionCase{"Ready", "True", kNow, ""}, ConditionCase{"Offline", "Unknown", kNow, ""},
        ConditionCase{"", "True", kNow, "conditions[0].type: Required value"},
        ConditionCase{"Ready", "", kNow, "conditions[0].status: Required value"},
        ConditionCase{"Ready", "True", "", "conditions[0].lastProbeTime: Required value"},
        ConditionCase{"Invalid", "True", kNow, "conditions[0].type: Unsupported value"},
        ConditionCase{"Ready", "Invalid", kNow, "conditions[0].status: Unsupported value"}));

}  // namespace
}  // namespace kf::core
