// `kubefedctl completion bash|zsh|fish` in the real shells, through their completion functions,
// against the local clusters: commands, contexts from the kubeconfig, types from the host's
// FederatedTypeConfigs.

#include <gtest/gtest.h>

#include <filesystem>

#include "federation/client/resource_client.h"
#include "tests/e2e/kubefedctl_runner.h"
#include "tests/integration/local_clusters.h"
#include "tests/integration/resources.h"

namespace kf::integration {
namespace {

namespace fs = std::filesystem;

bool haveShell(const std::string& shell) { return runShell("command -v " + shell).exit_code == 0; }

// The shell runs with the built kubefedctl first on PATH and the local clusters' kubeconfig.
RunResult inShell(const std::string& shell, const std::string& script) {
  const std::string bin_dir = fs::path(kubefedctlBinary()).parent_path().string();
  return runShell(shell + " -c " + shellQuoted(script), "",
                  {{"PATH", bin_dir + ":/usr/local/bin:/usr/bin:/bin"},
                   {"KUBECONFIG", LocalClusters::get().kubeconfigPath()}});
}

// What bash's completion function replies for a command line typed up to its end.
RunResult bashCompletes(const std::string& line) {
  return inShell("bash",
                 "source <(kubefedctl completion bash) || exit 9\n"
                 "COMP_LINE=" +
                     shellQuoted(line) +
                     "; COMP_POINT=${#COMP_LINE}\n"
                     "read -r -a COMP_WORDS <<< \"$COMP_LINE\"\n"
                     "[[ \"$COMP_LINE\" == *' ' ]] && COMP_WORDS+=('')\n"
                     "COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))\n"
                     "_kubefedctl kubefedctl \"${COMP_WORDS[COMP_CWORD]}\" || exit 8\n"
                     "printf '%s\\n' \"${COMPREPLY[@]}\"");
}

class CompletionE2ETest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ASSERT_EQ(ensureKubeFedCrds(), "");
    auto client = LocalClusters::get().client("host");
    (void)ResourceClient(*client, kNamespaces)
        .create({{"apiVersion", "v1"},
                 {"kind", "Namespace"},
                 {"metadata", {{"name", "kube-federation-system"}}}});
    RunResult enabled = runKubefedctl({"enable", "configmaps"});
    ASSERT_EQ(enabled.exit_code, 0) << describe(enabled);
  }
};

TEST_F(CompletionE2ETest, BashRegistersItsCompletionFunction) {
  RunResult registered =
      inShell("bash", "source <(kubefedctl completion bash) && complete -p kubefedctl");
  ASSERT_EQ(registered.exit_code, 0) << describe(registered);
  EXPECT_EQ(registered.out, "complete -F _kubefedctl kubefedctl\n");
}

TEST_F(CompletionE2ETest, BashCompletesCommandsContextsTypesAndFlags) {
  EXPECT_EQ(bashCompletes("kubefedctl ena").out, "enable\n");
  EXPECT_EQ(bashCompletes("kubefedctl orphaning-deletion st").out, "status\n");
  EXPECT_EQ(bashCompletes("kubefedctl rollout ").out, "approve\npause\nresume\nstatus\nundo\n");
  // Contexts of the kubeconfig.
  EXPECT_EQ(bashCompletes("kubefedctl join mem").out, "member1\nmember2\n");
  // After '=' bash completes only what follows it.
  EXPECT_EQ(bashCompletes("kubefedctl enable cm --host-cluster-context=ho").out, "host\n");
  // Type names from the host's FederatedTypeConfigs.
  EXPECT_EQ(bashCompletes("kubefedctl federate config").out, "configmaps\n");
  EXPECT_EQ(bashCompletes("kubefedctl disable config").out, "configmaps\n");
  EXPECT_EQ(bashCompletes("kubefedctl orphaning-deletion enable federatedconfig").out,
            "federatedconfigmaps\n");
  EXPECT_EQ(bashCompletes("kubefedctl rollout status federatedconfig").out,
            "federatedconfigmaps\n");
  EXPECT_EQ(bashCompletes("kubefedctl federate --enable-t").out, "--enable-type\n");
  // Objects of the type, in the namespace -n names.
  EXPECT_EQ(bashCompletes("kubefedctl federate cm -n kube-public kube-r").out, "kube-root-ca.crt\n")
      << "kube-controller-manager publishes the root CA in every namespace";
}

TEST_F(CompletionE2ETest, ZshCompletesThroughItsCompletionFunction) {
  if (!haveShell("zsh")) GTEST_SKIP() << "zsh is not installed (hack/bootstrap.sh installs it)";
  // compadd only works inside a completion widget: a stand-in prints what it is given.
  RunResult run = inShell("zsh",
                          "autoload -U compinit && compinit -u\n"
                          "source <(kubefedctl completion zsh)\n"
                          "print -r -- ${_comps[kubefedctl]}\n"
                          "compadd() { shift; print -rl -- \"$@\" }\n"
                          "words=(kubefedctl ena); CURRENT=2; _kubefedctl\n"
                          "words=(kubefedctl federate config); CURRENT=3; _kubefedctl\n");
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(run.out, "_kubefedctl\nenable\nconfigmaps\n");
}

TEST_F(CompletionE2ETest, FishCompletesThroughItsCompletionFunction) {
  if (!haveShell("fish")) GTEST_SKIP() << "fish is not installed (hack/bootstrap.sh installs it)";
  RunResult run = inShell("fish",
                          "kubefedctl completion fish | source\n"
                          "complete -C 'kubefedctl ena'\n"
                          "complete -C 'kubefedctl join mem'\n"
                          "complete -C 'kubefedctl federate config'\n");
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(run.out, "enable\nmember1\nmember2\nconfigmaps\n");
}

TEST_F(CompletionE2ETest, KlogFlagsAreAcceptedAnywhere) {
  RunResult before = runShell(shellQuoted(kubefedctlBinary()) + " --v=2 -v 3 version");
  ASSERT_EQ(before.exit_code, 0) << describe(before);
  EXPECT_EQ(before.out.rfind("kubefedctl version: version.Info{", 0), 0u) << before.out;
  RunResult bad = runShell(shellQuoted(kubefedctlBinary()) + " version --v=loud");
  EXPECT_EQ(bad.exit_code, 1) << describe(bad);
  EXPECT_EQ(bad.err.rfind("Error: invalid argument \"loud\" for \"-v, --v\" flag", 0), 0u)
      << bad.err;
}

}  // namespace
}  // namespace kf::integration
