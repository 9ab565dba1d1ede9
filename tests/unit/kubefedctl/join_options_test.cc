// join/unjoin flags: the cluster name, contexts and the host's name in generated object names.

#include "cmd/kubefedctl/join_options.h"

#include <gtest/gtest.h>

#include <sstream>

#include "cmd/kubefedctl/root.h"

namespace kf::kubefedctl {
namespace {

struct ParsedJoinFlags {
  JoinFlags values;
  FlagSet flags;
  std::ostringstream warnings;

  explicit ParsedJoinFlags(const std::vector<std::string>& args) {
    values.addTo(flags);
    ok = flags.parse(args, warnings);
  }
  Result<JoinTarget> target() { return joinTargetFromFlags(values, flags.positional()); }
  bool ok = false;
};

Kubeconfig kubeconfigWithCurrentContext(const std::string& current) {
  Kubeconfig kubeconfig;
  kubeconfig.current_context = current;
  kubeconfig.sources = {"test-kubeconfig"};
  return kubeconfig;
}

// Verifies the cluster context defaults to the cluster name and the global flags' defaults.
TEST(JoinOptionsTest, DefaultsClusterContextToTheClusterName) {
  ParsedJoinFlags parsed({"member1"});
  ASSERT_TRUE(parsed.ok);
  EXPECT_EQ(parsed.values.global.kubefed_namespace, "kube-federation-system");
  EXPECT_FALSE(parsed.values.global.dry_run);
  auto target = parsed.target();
  ASSERT_TRUE(target) << target.error().message;
  EXPECT_EQ(target.value().cluster_name, "member1");
  EXPECT_EQ(target.value().cluster_context, "member1");
  EXPECT_EQ(target.value().host_context, "");
  EXPECT_EQ(target.value().host_cluster_name, "");

  ParsedJoinFlags explicit_flags({"m1", "--cluster-context=ctx-1", "--host-cluster-context", "h",
                                  "--host-cluster-name", "hub", "--kubefed-namespace", "kf"});
  ASSERT_TRUE(explicit_flags.ok);
  auto other = explicit_flags.target();
  ASSERT_TRUE(other);
  EXPECT_EQ(other.value().cluster_context, "ctx-1");
  EXPECT_EQ(other.value().host_context, "h");
  EXPECT_EQ(other.value().host_cluster_name, "hub");
  EXPECT_EQ(explicit_flags.values.global.kubefed_namespace, "kf");
}

// Verifies --host-cluster-name may contain neither '/' nor ':', as in KubeFed.
TEST(JoinOptionsTest, RejectsHostClusterNameWithSlashOrColon) {
  for (const std::string bad : {"a/b", "arn:aws"}) {
    ParsedJoinFlags parsed({"member1", "--host-cluster-name", bad});
    ASSERT_TRUE(parsed.ok);
    auto target = parsed.target();
    ASSERT_FALSE(target) << bad;
    EXPECT_EQ(target.error().message, "host-cluster-name may not contain \"/\" or \":\"");
  }
}

// Verifies the cluster name is required, single and a valid object name.
TEST(JoinOptionsTest, RequiresOneValidClusterName) {
  ParsedJoinFlags none({});
  ASSERT_FALSE(none.target());
  EXPECT_EQ(none.target().error().message, "CLUSTER_NAME is required");
  ParsedJoinFlags two({"a", "b"});
  ASSERT_FALSE(two.target());
  EXPECT_EQ(two.target().error().message, "expected one CLUSTER_NAME, got 2 arguments");
  ParsedJoinFlags invalid({"Member_1"});
  auto target = invalid.target();
  ASSERT_FALSE(target);
  EXPECT_NE(target.error().message.find("invalid cluster name \"Member_1\""), std::string::npos);
  EXPECT_NE(target.error().message.find("RFC 1123 subdomain"), std::string::npos)
      << target.error().message;
}

// Verifies the host context defaults to the kubeconfig's current context, which names the host.
TEST(JoinOptionsTest, HostClusterNameDefaultsToTheCurrentContext) {
  JoinTarget target{"member1", "member1", "", ""};
  ASSERT_TRUE(completeHostCluster(target, kubeconfigWithCurrentContext("hub-ctx")));
  EXPECT_EQ(target.host_context, "hub-ctx");
  EXPECT_EQ(target.host_cluster_name, "hub-ctx");

  JoinTarget named{"member1", "member1", "explicit", "hub"};
  ASSERT_TRUE(completeHostCluster(named, kubeconfigWithCurrentContext("hub-ctx")));
  EXPECT_EQ(named.host_context, "explicit");
  EXPECT_EQ(named.host_cluster_name, "hub");
}

// Verifies a host context with '/' or ':' needs --host-cluster-name (EKS/GKE-style names).
TEST(JoinOptionsTest, HostContextWithSlashOrColonNeedsHostClusterName) {
  const Kubeconfig eks = kubeconfigWithCurrentContext("arn:aws:eks:eu-west-1:1:cluster/hub");
  JoinTarget target{"member1", "member1", "", ""};
  auto completed = completeHostCluster(target, eks);
  ASSERT_FALSE(completed);
  EXPECT_EQ(completed.error().message,
            "host-cluster-name must be set if the name of the host cluster context contains one "
            "of \":\" or \"/\"");

  JoinTarget named{"member1", "member1", "", "hub"};
  ASSERT_TRUE(completeHostCluster(named, eks));
  EXPECT_EQ(named.host_cluster_name, "hub");

  JoinTarget no_context{"member1", "member1", "", ""};
  auto missing = completeHostCluster(no_context, kubeconfigWithCurrentContext(""));
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("--host-cluster-context"), std::string::npos);
}

struct Captured {
  std::ostringstream out;
  std::ostringstream err;
  int run(const std::vector<std::string>& args) { return runRoot(args, {out, err}); }
};

// Verifies join and unjoin are registered, print help and fail with exit code 255.
TEST(JoinCommandTest, HelpAndFailuresFollowTheCliConventions) {
  Captured root;
  EXPECT_EQ(root.run({"--help"}), 0);
  EXPECT_NE(root.out.str().find("  join               Register a cluster"), std::string::npos);
  EXPECT_NE(root.out.str().find("  unjoin             Remove the registration"), std::string::npos);

  Captured join_help;
  EXPECT_EQ(join_help.run({"join", "--help"}), 0);
  const std::string help = join_help.out.str();
  EXPECT_NE(help.find("kubefedctl join CLUSTER_NAME --host-cluster-context=HOST_CONTEXT"),
            std::string::npos);
  EXPECT_NE(help.find("--error-on-existing"), std::string::npos);
  EXPECT_NE(help.find("specification. (default true)"), std::string::npos) << help;
  EXPECT_NE(help.find("--secret-name string"), std::string::npos);
  EXPECT_NE(help.find("--cluster-context string"), std::string::npos);

  Captured unjoin_help;
  EXPECT_EQ(unjoin_help.run({"unjoin", "--help"}), 0);
  EXPECT_NE(unjoin_help.out.str().find("--force"), std::string::npos);

  Captured no_name;
  EXPECT_EQ(no_name.run({"join"}), 255);
  EXPECT_EQ(no_name.err.str(), "Error: CLUSTER_NAME is required\n");
  Captured bad_host;
  EXPECT_EQ(bad_host.run({"unjoin", "m1", "--host-cluster-name=a:b"}), 255);
  EXPECT_EQ(bad_host.err.str(), "Error: host-cluster-name may not contain \"/\" or \":\"\n");
  Captured bad_flag;
  EXPECT_EQ(bad_flag.run({"join", "m1", "--error-on-existing=maybe"}), 1);
}

}  // namespace
}  // namespace kf::kubefedctl
