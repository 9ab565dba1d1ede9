// The simulated member (tests/support/simulated_member) against a real kube-apiserver: each case
// one behaviour the controller manager relies on, run against both (…/kube_apiserver and
// …/simulated), asserting what the real server answers, in raw HTTP.

#include <gtest/gtest.h>

#include "tests/integration/member_conformance.h"

namespace kf::integration::conformance {
namespace {

class MemberObjectsConformanceTest : public ::testing::TestWithParam<std::string> {
 protected:
  Member& member_ = memberNamed(GetParam() == "simulated" ? "simulated" : "kube-apiserver");
  Http http_{member_};
};

INSTANTIATE_TEST_SUITE_P(, MemberObjectsConformanceTest,
                         ::testing::Values("kube_apiserver", "simulated"),
                         [](const auto& instance) { return instance.param; });

bool hasResource(const Json& list, const std::string& name, bool namespaced,
                 const std::string& kind) {
  for (const Json& resource : list.value("resources", Json::array())) {
    if (resource.value("name", "") == name) {
      const Json verbs = resource.value("verbs", Json::array());
      return resource.value("namespaced", !namespaced) == namespaced &&
             resource.value("kind", "") == kind &&
             std::find(verbs.begin(), verbs.end(), "watch") != verbs.end();
    }
  }
  return false;
}

TEST_P(MemberObjectsConformanceTest, DiscoveryListsTheFederatedTypes) {
  const Answer api = http_.get("/api");
  ASSERT_EQ(api.code, 200) << api.text;
  EXPECT_EQ(api.body["kind"], "APIVersions");
  EXPECT_EQ(api.body["versions"], Json::array({"v1"}));

  const Answer groups = http_.get("/apis");
  ASSERT_EQ(groups.code, 200) << groups.text;
  EXPECT_EQ(groups.body["kind"], "APIGroupList");
  bool apps = false;
  for (const Json& group : groups.body["groups"]) {
    if (group["name"] == "apps") apps = group["preferredVersion"]["groupVersion"] == "apps/v1";
  }
  EXPECT_TRUE(apps) << groups.text;

  const Answer core = http_.get("/api/v1");
  ASSERT_EQ(core.code, 200) << core.text;
  EXPECT_EQ(core.body["kind"], "APIResourceList");
  EXPECT_EQ(core.body["groupVersion"], "v1");
  EXPECT_TRUE(hasResource(core.body, "namespaces", false, "Namespace"));
  EXPECT_TRUE(hasResource(core.body, "configmaps", true, "ConfigMap"));
  EXPECT_TRUE(hasResource(core.body, "secrets", true, "Secret"));

  const Answer apps_v1 = http_.get("/apis/apps/v1");
  ASSERT_EQ(apps_v1.code, 200) << apps_v1.text;
  EXPECT_EQ(apps_v1.body["groupVersion"], "apps/v1");
  EXPECT_TRUE(hasResource(apps_v1.body, "deployments", true, "Deployment"));

  const Answer unknown = http_.get("/api/v1/widgets");
  EXPECT_EQ(unknown.code, 404);
  EXPECT_EQ(unknown.body["reason"], "NotFound");
}

TEST_P(MemberObjectsConformanceTest, HealthReadinessAndVersion) {
  for (const char* path : {"/healthz", "/readyz", "/livez"}) {
    const Answer answer = http_.get(path);
    EXPECT_EQ(answer.code, 200) << path;
    EXPECT_EQ(answer.text, "ok") << path;
  }
  const Answer version = http_.get("/version");
  ASSERT_EQ(version.code, 200);
  EXPECT_EQ(version.body["major"], "1");
  EXPECT_EQ(version.body["minor"], "33");
}

TEST_P(MemberObjectsConformanceTest, AWrongTokenIsUnauthorizedAndNoTokenIsAnonymous) {
  ScratchNamespace ns(http_, "auth");
  const Answer wrong = http_.callAs("Bearer not-the-token", "GET", ns.path("configmaps"));
  EXPECT_EQ(wrong.code, 401);
  EXPECT_EQ(wrong.body["reason"], "Unauthorized");
  EXPECT_EQ(wrong.body["message"], "Unauthorized");
  EXPECT_EQ(http_.callAs("Bearer not-the-token", "GET", "/healthz").code, 401);

  EXPECT_EQ(http_.callAs("", "GET", "/healthz").code, 200);
  const Answer anonymous = http_.callAs("", "GET", ns.path("configmaps"));
  EXPECT_EQ(anonymous.code, 403);
  EXPECT_EQ(anonymous.body["reason"], "Forbidden");
  EXPECT_EQ(anonymous.body["message"],
            "configmaps is forbidden: User \"system:anonymous\" cannot list resource "
            "\"configmaps\" in API group \"\" in the namespace \"" +
                ns.name() + "\"");
  EXPECT_EQ(anonymous.body["details"], Json({{"kind", "configmaps"}}));
}

TEST_P(MemberObjectsConformanceTest, ACreateIsStoredWithTheServersFields) {
  ScratchNamespace ns(http_, "create");
  const Answer created = http_.post(ns.path("configmaps"), configMap("one", {{"app", "x"}}));
  ASSERT_EQ(created.code, 201) << created.text;
  const Json& object = created.body;
  EXPECT_EQ(object["kind"], "ConfigMap");
  EXPECT_EQ(object["apiVersion"], "v1");
  EXPECT_EQ(object["metadata"]["namespace"], ns.name());
  EXPECT_FALSE(objectUid(object).empty());
  EXPECT_FALSE(objectResourceVersion(object).empty());
  EXPECT_TRUE(object["metadata"]["creationTimestamp"].is_string());
  EXPECT_FALSE(object["metadata"].contains("generation")) << "ConfigMaps have no generation";
  EXPECT_EQ(object["data"], Json({{"key", "value"}}));

  const Answer fetched = http_.get(ns.path("configmaps", "one"));
  ASSERT_EQ(fetched.code, 200);
  EXPECT_EQ(objectResourceVersion(fetched.body), objectResourceVersion(object));
  EXPECT_EQ(objectUid(fetched.body), objectUid(object));
  EXPECT_EQ(fetched.body["data"], object["data"]);
}

TEST_P(MemberObjectsConformanceTest, ASecondCreateIsAlreadyExists) {
  ScratchNamespace ns(http_, "exists");
  ASSERT_EQ(http_.post(ns.path("configmaps"), configMap("dup")).code, 201);
  const Answer again = http_.post(ns.path("configmaps"), configMap("dup"));
  EXPECT_EQ(again.code, 409);
  EXPECT_EQ(again.body["reason"], "AlreadyExists");
  EXPECT_EQ(again.body["message"], "configmaps \"dup\" already exists");
  EXPECT_EQ(again.body["details"], Json({{"name", "dup"}, {"kind", "configmaps"}}));
}

TEST_P(MemberObjectsConformanceTest, ACreateInAMissingNamespaceIsNotFound) {
  const Answer answer =
      http_.post("/api/v1/namespaces/conformance-nowhere/configmaps", configMap("lost"));
  EXPECT_EQ(answer.code, 404);
  EXPECT_EQ(answer.body["reason"], "NotFound");
  EXPECT_EQ(answer.body["message"], "namespaces \"conformance-nowhere\" not found");
  EXPECT_EQ(answer.body["details"],
            Json({{"name", "conformance-nowhere"}, {"kind", "namespaces"}}));
}

TEST_P(MemberObjectsConformanceTest, InvalidOrMissingNamesAreInvalid) {
  ScratchNamespace ns(http_, "names");
  const Answer invalid = http_.post(ns.path("configmaps"), configMap("Not_Valid"));
  EXPECT_EQ(invalid.code, 422);
  EXPECT_EQ(invalid.body["reason"], "Invalid");
  EXPECT_EQ(invalid.body["details"]["name"], "Not_Valid");
  EXPECT_EQ(invalid.body["details"]["kind"], "ConfigMap");
  ASSERT_EQ(invalid.body["details"]["causes"].size(), 1u) << invalid.text;
  EXPECT_EQ(invalid.body["details"]["causes"][0]["reason"], "FieldValueInvalid");
  EXPECT_EQ(invalid.body["details"]["causes"][0]["field"], "metadata.name");
  EXPECT_EQ(invalid.body["message"],
            "ConfigMap \"Not_Valid\" is invalid: metadata.name: Invalid value: \"Not_Valid\": a "
            "lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
            "'-' or '.', and must start and end with an alphanumeric character (e.g. "
            "'example.com', regex used for validation is "
            "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");

  Json nameless = configMap("x");
  nameless["metadata"].erase("name");
  const Answer missing = http_.post(ns.path("configmaps"), nameless);
  EXPECT_EQ(missing.code, 422);
  EXPECT_EQ(missing.body["message"],
            "ConfigMap \"\" is invalid: metadata.name: Required value: name or generateName is "
            "required");
  EXPECT_EQ(missing.body["details"]["causes"][0]["reason"], "FieldValueRequired");

  const Answer bad_namespace =
      http_.post("/api/v1/namespaces",
                 {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "a.b"}}}});
  EXPECT_EQ(bad_namespace.code, 422);
  EXPECT_EQ(bad_namespace.body["details"]["causes"][0]["field"], "metadata.name");
}

TEST_P(MemberObjectsConformanceTest, AnUpdateFromAStaleResourceVersionIsAConflict) {
  ScratchNamespace ns(http_, "conflict");
  const Answer created = http_.post(ns.path("configmaps"), configMap("c"));
  ASSERT_EQ(created.code, 201);
  Json fresh = created.body;
  fresh["data"]["key"] = "newer";
  const Answer updated = http_.put(ns.path("configmaps", "c"), fresh);
  ASSERT_EQ(updated.code, 200) << updated.text;
  EXPECT_NE(objectResourceVersion(updated.body), objectResourceVersion(created.body));
  EXPECT_EQ(updated.body["data"]["key"], "newer");

  Json stale = created.body;
  stale["data"]["key"] = "stale";
  const Answer conflict = http_.put(ns.path("configmaps", "c"), stale);
  EXPECT_EQ(conflict.code, 409);
  EXPECT_EQ(conflict.body["reason"], "Conflict");
  EXPECT_EQ(conflict.body["message"],
            "Operation cannot be fulfilled on configmaps \"c\": the object has been modified; "
            "please apply your changes to the latest version and try again");
  EXPECT_EQ(conflict.body["details"], Json({{"name", "c"}, {"kind", "configmaps"}}));
}

TEST_P(MemberObjectsConformanceTest, AnUpdateThatChangesNothingKeepsTheResourceVersion) {
  ScratchNamespace ns(http_, "noop");
  const Answer created = http_.post(ns.path("configmaps"), configMap("same"));
  ASSERT_EQ(created.code, 201);
  const Answer again = http_.put(ns.path("configmaps", "same"), created.body);
  ASSERT_EQ(again.code, 200) << again.text;
  EXPECT_EQ(objectResourceVersion(again.body), objectResourceVersion(created.body));
}

TEST_P(MemberObjectsConformanceTest, MissingObjectsAreNotFound) {
  ScratchNamespace ns(http_, "missing");
  const Json expected = {{"kind", "Status"},
                         {"apiVersion", "v1"},
                         {"metadata", Json::object()},
                         {"status", "Failure"},
                         {"message", "configmaps \"ghost\" not found"},
                         {"reason", "NotFound"},
                         {"details", {{"name", "ghost"}, {"kind", "configmaps"}}},
                         {"code", 404}};
  EXPECT_EQ(http_.get(ns.path("configmaps", "ghost")).body, expected);
  EXPECT_EQ(http_.put(ns.path("configmaps", "ghost"), configMap("ghost")).body, expected);
  EXPECT_EQ(http_.mergePatch(ns.path("configmaps", "ghost"), {{"data", {{"a", "b"}}}}).body,
            expected);
  EXPECT_EQ(http_.remove(ns.path("configmaps", "ghost")).body, expected);
}

TEST_P(MemberObjectsConformanceTest, AMergePatchChangesWhatItNamesAndChecksTheResourceVersion) {
  ScratchNamespace ns(http_, "patch");
  const Answer created = http_.post(
      ns.path("configmaps"), configMap("p", {{"kubefed.io/managed", "true"}, {"keep", "1"}}));
  ASSERT_EQ(created.code, 201);
  const Answer patched = http_.mergePatch(
      ns.path("configmaps", "p"),
      {{"metadata", {{"labels", {{"kubefed.io/managed", nullptr}}}}}, {"data", {{"more", "x"}}}});
  ASSERT_EQ(patched.code, 200) << patched.text;
  EXPECT_EQ(patched.body["metadata"]["labels"], Json({{"keep", "1"}}));
  EXPECT_EQ(patched.body["data"], Json({{"key", "value"}, {"more", "x"}}));

  const Answer stale =
      http_.mergePatch(ns.path("configmaps", "p"),
                       {{"metadata", {{"resourceVersion", objectResourceVersion(created.body)}}},
                        {"data", {{"y", "z"}}}});
  EXPECT_EQ(stale.code, 409);
  EXPECT_EQ(stale.body["reason"], "Conflict");
}

TEST_P(MemberObjectsConformanceTest, ADeleteAnswersSuccessAndHonoursPreconditions) {
  ScratchNamespace ns(http_, "delete");
  const Answer created = http_.post(ns.path("configmaps"), configMap("d"));
  ASSERT_EQ(created.code, 201);
  const Answer refused =
      http_.remove(ns.path("configmaps", "d"), {{"preconditions", {{"resourceVersion", "1"}}}});
  EXPECT_EQ(refused.code, 409);
  EXPECT_EQ(refused.body["reason"], "Conflict");
  EXPECT_EQ(refused.body["message"],
            "Operation cannot be fulfilled on ConfigMap \"d\": the ResourceVersion in the "
            "precondition (1) does not match the ResourceVersion in record (" +
                objectResourceVersion(created.body) + "). The object might have been modified");

  const Answer deleted = http_.remove(ns.path("configmaps", "d"));
  EXPECT_EQ(deleted.code, 200);
  EXPECT_EQ(deleted.body["kind"], "Status");
  EXPECT_EQ(deleted.body["status"], "Success");
  EXPECT_EQ(deleted.body["details"],
            Json({{"name", "d"}, {"kind", "configmaps"}, {"uid", objectUid(created.body)}}));
  EXPECT_EQ(http_.get(ns.path("configmaps", "d")).code, 404);
}

TEST_P(MemberObjectsConformanceTest, AFinalizerKeepsADeletedObjectUntilItIsRemoved) {
  ScratchNamespace ns(http_, "finalizer");
  Json held = configMap("held");
  held["metadata"]["finalizers"] = {"conformance.kubefed.io/hold"};
  ASSERT_EQ(http_.post(ns.path("configmaps"), held).code, 201);
  const Answer marked = http_.remove(ns.path("configmaps", "held"));
  ASSERT_EQ(marked.code, 200);
  EXPECT_EQ(marked.body["kind"], "ConfigMap");
  EXPECT_TRUE(hasDeletionTimestamp(marked.body));
  EXPECT_EQ(http_.get(ns.path("configmaps", "held")).code, 200);

  const Answer released =
      http_.mergePatch(ns.path("configmaps", "held"), {{"metadata", {{"finalizers", nullptr}}}});
  EXPECT_EQ(released.code, 200) << released.text;
  EXPECT_EQ(http_.get(ns.path("configmaps", "held")).code, 404);
}

TEST_P(MemberObjectsConformanceTest, ANamespaceGetsItsDefaults) {
  const std::string name = uniqueName("conformance-defaults");
  const Answer created =
      http_.post("/api/v1/namespaces",
                 {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", name}}}});
  ASSERT_EQ(created.code, 201) << created.text;
  EXPECT_EQ(created.body["metadata"]["labels"], Json({{"kubernetes.io/metadata.name", name}}));
  EXPECT_EQ(created.body["spec"], Json({{"finalizers", {"kubernetes"}}}));
  EXPECT_EQ(created.body["status"], Json({{"phase", "Active"}}));
  EXPECT_FALSE(created.body["metadata"].contains("generation"));
  const Answer deleted = http_.remove("/api/v1/namespaces/" + name);
  EXPECT_EQ(deleted.code, 200);
  EXPECT_EQ(deleted.body["kind"], "Namespace");
  EXPECT_EQ(deleted.body["status"]["phase"], "Terminating");
}

TEST_P(MemberObjectsConformanceTest, ATerminatingNamespaceRefusesNewObjects) {
  ScratchNamespace ns(http_, "terminating");
  // The finalizer keeps the namespace Terminating while the test creates in it.
  Json held = configMap("held");
  held["metadata"]["finalizers"] = {"conformance.kubefed.io/hold"};
  ASSERT_EQ(http_.post(ns.path("configmaps"), held).code, 201);
  ASSERT_EQ(http_.remove("/api/v1/namespaces/" + ns.name()).code, 200);
  // The API server's namespace lifecycle admission reads namespaces from its cache, which may
  // lag behind the deletion by a moment.
  Answer refused;
  EXPECT_TRUE(eventually([&] {
    refused = http_.post(ns.path("configmaps"), configMap("late"));
    return refused.code == 403;
  }));
  EXPECT_EQ(refused.body["reason"], "Forbidden");
  EXPECT_EQ(refused.body["message"],
            "configmaps \"late\" is forbidden: unable to create new content in namespace " +
                ns.name() + " because it is being terminated");
  EXPECT_EQ(refused.body["details"]["causes"][0]["reason"], "NamespaceTerminating");
  http_.mergePatch(ns.path("configmaps", "held"), {{"metadata", {{"finalizers", nullptr}}}});
}

TEST_P(MemberObjectsConformanceTest, ADeploymentsGenerationFollowsItsSpec) {
  ScratchNamespace ns(http_, "generation");
  const Json deployment = {
      {"apiVersion", "apps/v1"},
      {"kind", "Deployment"},
      {"metadata", {{"name", "web"}}},
      {"spec",
       {{"selector", {{"matchLabels", {{"app", "web"}}}}},
        {"template",
         {{"metadata", {{"labels", {{"app", "web"}}}}},
          {"spec", {{"containers", {{{"name", "web"}, {"image", "web:1"}}}}}}}}}}};
  const std::string path = "/apis/apps/v1/namespaces/" + ns.name() + "/deployments";
  const Answer created = http_.post(path, deployment);
  ASSERT_EQ(created.code, 201) << created.text;
  EXPECT_EQ(objectGeneration(created.body), 1);
  const Answer labelled =
      http_.mergePatch(path + "/web", {{"metadata", {{"labels", {{"a", "b"}}}}}});
  ASSERT_EQ(labelled.code, 200);
  EXPECT_EQ(objectGeneration(labelled.body), 1);
  EXPECT_NE(objectResourceVersion(labelled.body), objectResourceVersion(created.body));
  const Answer scaled = http_.mergePatch(path + "/web", {{"spec", {{"replicas", 3}}}});
  ASSERT_EQ(scaled.code, 200);
  EXPECT_EQ(objectGeneration(scaled.body), 2);
}

TEST_P(MemberObjectsConformanceTest, ASecretsStringDataIsFoldedIntoData) {
  ScratchNamespace ns(http_, "secret");
  const Answer created = http_.post(ns.path("secrets"), {{"apiVersion", "v1"},
                                                         {"kind", "Secret"},
                                                         {"metadata", {{"name", "s"}}},
                                                         {"data", {{"b", "aGk="}}},
                                                         {"stringData", {{"a", "hello"}}}});
  ASSERT_EQ(created.code, 201) << created.text;
  EXPECT_EQ(created.body["data"], Json({{"a", "aGVsbG8="}, {"b", "aGk="}}));
  EXPECT_FALSE(created.body.contains("stringData"));
  EXPECT_EQ(created.body["type"], "Opaque");
}

TEST_P(MemberObjectsConformanceTest, RequestsAreCountedByVerbResourceAndCode) {
  // Secrets, and verbs no controller of a real cluster sends for them meanwhile (the namespace
  // controller lists every resource of the namespaces it deletes).
  ScratchNamespace ns(http_, "metrics");
  const std::string before = http_.get("/metrics").text;
  ASSERT_EQ(http_.post(ns.path("secrets"), secret("m")).code, 201);
  ASSERT_EQ(http_.post(ns.path("secrets"), secret("m")).code, 409);
  ASSERT_EQ(http_.get(ns.path("secrets", "m")).code, 200);
  ASSERT_EQ(http_.get(ns.path("secrets", "none")).code, 404);
  const std::string after = http_.get("/metrics").text;
  const auto counted = [&](const char* verb, const char* code) {
    return requestCount(after, verb, "secrets", code) - requestCount(before, verb, "secrets", code);
  };
  EXPECT_EQ(counted("POST", "201"), 1);
  EXPECT_EQ(counted("POST", "409"), 1);
  EXPECT_EQ(counted("GET", "200"), 1);
  EXPECT_EQ(counted("GET", "404"), 1);
}

}  // namespace
}  // namespace kf::integration::conformance
