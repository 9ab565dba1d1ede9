#pragma once
// Test doubles and data for exec credential plugins: a scripted PluginRunner, ExecCredential
// outputs, and a client certificate with its key (self-signed, valid until 2126) plus a key of
// another pair.

#include <deque>
#include <string>
#include <vector>

#include "apis/meta/object.h"
#include "federation/client/exec_credential.h"
#include "federation/client/plugin_runner.h"
#include "federation/runtime/thread_annotations.h"

namespace kf::test {

inline constexpr const char* kExecCertPem = R"(-----BEGIN CERTIFICATE-----
MIIBjjCCATOgAwIBAgIUNIA0DwOsrw3hxNeaUQX+iCjGMxAwCgYIKoZIzj0EAwIw
GzEZMBcGA1UEAwwQZXhlYy1wbHVnaW4tdXNlcjAgFw0yNjExMjUxNjM3MDlaGA8y
MTI2MTEwMTE2MzcwOVowGzEZMBcGA1UEAwwQZXhlYy1wbHVnaW4tdXNlcjBZMBMG
ByqGSM49AgEGCCqGSM49AwEHA0IABJpafXMDkgWd8SkBUBOvcWZ8v1xMBKChd5e4
WyJIIHF3Hjg2FXZWrjlZZHyGJyNYmSNgaTq6dOS8s+K4zqa1SQ2jUzBRMB0GA1Ud
DgQWBBSwBRuROem5VLsgiLZiKqlByBIngjAfBgNVHSMEGDAWgBSwBRuROem5VLsg
iLZiKqlByBIngjAPBgNVHRMBAf8EBTADAQH/MAoGCCqGSM49BAMCA0kAMEYCIQCh
VFKCRVKtqsB0iDOyTP4qnE50DeUg3U6VnGzBMpjMPwIhAKUPNMfS14unSxQE+rHC
UxvE69BsjbnZzEHvQovSgPdk
-----END CERTIFICATE-----
)";
inline constexpr const char* kExecKeyPem = R"(-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgI/EwbGG/kY3xAxWh
DuonY21lHLRJJGj0vHHxf4CIESuhRANCAASaWn1zA5IFnfEpAVATr3FmfL9cTASg
oXeXuFsiSCBxdx44NhV2Vq45WWR8hicjWJkjYGk6unTkvLPiuM6mtUkN
-----END PRIVATE KEY-----
)";
inline constexpr const char* kOtherKeyPem = R"(-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgdPUM2goAFVHRNjQo
VKrvzwAy6Y+YrPGsHODaw+POn8ShRANCAATK7HL2sXlsrGqDMBP4g8mEAXX5sks9
aZ3klLyPrBhJcgIU1pwL23osWJsaIbjQpoQtIhfpoECWssShtijcaFnj
-----END PRIVATE KEY-----
)";

// The ExecCredential a plugin prints.
inline std::string execOutput(const Json& status, const std::string& api_version = kExecApiV1) {
  return Json{{"apiVersion", api_version}, {"kind", "ExecCredential"}, {"status", status}}.dump();
}

inline ExecConfig execConfig(const std::string& api_version = kExecApiV1) {
  ExecConfig config;
  config.command = "issue-token";
  config.args = {"--cluster", "prod"};
  config.env = {{"PLUGIN_PROFILE", "ops"}};
  config.api_version = api_version;
  config.interactive_mode = "IfAvailable";
  config.origin = "kubeconfig \"/k\": users[name=\"u\"].user.exec";
  return config;
}

// Answers runs from a queue and records them.
class FakePluginRunner final : public PluginRunner {
 public:
  void enqueue(Result<PluginExit> exit) {
    MutexLock lock(mu_);
    exits_.push_back(std::move(exit));
  }
  void enqueueOutput(const std::string& output) { enqueue(PluginExit{0, 0, output}); }
  std::vector<PluginCommand> runs() {
    MutexLock lock(mu_);
    return runs_;
  }

  Result<PluginExit> run(const PluginCommand& command) override {
    MutexLock lock(mu_);
    runs_.push_back(command);
    if (exits_.empty()) return makeError(Reason::kBadConfig, "no scripted plugin run");
    auto exit = std::move(exits_.front());
    exits_.pop_front();
    return exit;
  }

 private:
  Mutex mu_;
  std::deque<Result<PluginExit>> exits_ KF_GUARDED_BY(mu_);
  std::vector<PluginCommand> runs_ KF_GUARDED_BY(mu_);
};

}  // namespace kf::test
