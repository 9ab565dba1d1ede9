#pragma once
// Feature gates with the semantics of Kubernetes component-base `featuregate`, which KubeFed uses
// for its own gates (pkg/features). A gate is known with a default and a maturity level; callers
// override defaults from a map or a `--feature-gates=A=true,B=false` flag value. The special gates
// AllAlpha/AllBeta flip every alpha/beta gate the caller did not set explicitly.
//
// Configuration happens once at startup; enabled() is then read from many controller threads, so
// all state sits behind a mutex and every mutation is all-or-nothing.
//
// Only the header-only part of apis/meta/api_error.h is used (kf_runtime does not link
// kf_client).

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "apis/meta/api_error.h"
#include "federation/runtime/thread_annotations.h"

namespace kf {

enum class PreRelease {
  kAlpha,
  kBeta,
  kGA,
  kDeprecated,
};

// "ALPHA", "BETA", "" (GA), "DEPRECATED": the strings kube prints in --help and errors.
std::string_view preReleaseName(PreRelease pre_release);

struct FeatureSpec {
  bool default_value = false;
  PreRelease pre_release = PreRelease::kAlpha;
  // A locked gate can only be "set" to its default: it has graduated (or been retired) and the
  // code no longer has the other branch.
  bool lock_to_default = false;

  friend bool operator==(const FeatureSpec&, const FeatureSpec&) = default;
};

inline constexpr std::string_view kAllAlphaGate = "AllAlpha";
inline constexpr std::string_view kAllBetaGate = "AllBeta";

class FeatureGate {
 public:
  // Knows only AllAlpha and AllBeta (both alpha/beta respectively, default false), like kube's
  // NewFeatureGate().
  FeatureGate();
  // Copies are independent snapshots (kube's DeepCopy); the mutex itself is never shared.
  FeatureGate(const FeatureGate& other);
  FeatureGate& operator=(const FeatureGate& other);

  // Registers gates. Re-adding a gate with an identical spec is a no-op; with a different spec it
  // is an error "feature gate \"X\" with different spec already exists: {...}". All-or-nothing.
  Status add(const std::map<std::string, FeatureSpec>& features) KF_EXCLUDES(mu_);

  // Overrides defaults. Errors (nothing is changed on error):
  //   "unrecognized feature gate: X"
  //   "cannot set feature gate X to Y, feature is locked to Z"
  // AllAlpha/AllBeta set every unlocked alpha/beta gate that has not been set explicitly, in this
  // call or an earlier one; explicit values always win regardless of order. Setting a GA or
  // deprecated gate succeeds but appends a warning (for the caller to log) to `warnings`, if
  // given, in gate-name order:
  //   "Setting GA feature gate X=true. It will be removed in a future release."
  //   "Setting deprecated feature gate X=false. It will be removed in a future release."
  Status set(const std::map<std::string, bool>& values,
             std::vector<std::string>* warnings = nullptr) KF_EXCLUDES(mu_);

  // Parses a --feature-gates value ("A=true,B=false"; spaces around names and values are trimmed,
  // empty items skipped, a repeated name keeps its last value; bools as Go's strconv.ParseBool)
  // and then behaves as set(). Parse errors:
  //   "missing bool value for X"
  //   "invalid value of X=foo, err: strconv.ParseBool: parsing \"foo\": invalid syntax"
  Status setFromFlag(std::string_view value, std::vector<std::string>* warnings = nullptr)
      KF_EXCLUDES(mu_);

  // The effective value: the explicitly set value, else the default. Unknown gates are disabled.
  bool enabled(std::string_view name) const KF_EXCLUDES(mu_);
  bool known(std::string_view name) const KF_EXCLUDES(mu_);

  // The --feature-gates help lines "Name=true|false (ALPHA - default=false)", sorted; GA and
  // deprecated gates are left out as kube does.
  std::vector<std::string> knownFeatureList() const KF_EXCLUDES(mu_);
  // knownFeatureList() joined with "\n" (no trailing newline), as embedded in the flag's usage.
  std::string knownFeatures() const KF_EXCLUDES(mu_);

  // The explicitly set gates as "A=true,B=false" sorted by name: the flag's String() form, for
  // logging the effective flags.
  std::string toString() const KF_EXCLUDES(mu_);

 private:
  struct State {
    std::map<std::string, FeatureSpec, std::less<>> known;
    // Only gates that were set explicitly (or by AllAlpha/AllBeta); the rest use their default.
    std::map<std::string, bool, std::less<>> enabled;
  };

  State snapshot() const KF_EXCLUDES(mu_);

  mutable Mutex mu_;
  State state_ KF_GUARDED_BY(mu_);
};

// KubeFed's gates (pkg/features): names, and the registry with them added.
namespace features {
inline constexpr std::string_view kPushReconciler = "PushReconciler";
inline constexpr std::string_view kSchedulerPreferences = "SchedulerPreferences";
inline constexpr std::string_view kRawResourceStatusCollection = "RawResourceStatusCollection";
}  // namespace features

// PushReconciler (Beta, default true), SchedulerPreferences (Alpha, default true),
// RawResourceStatusCollection (Beta, default false), plus AllAlpha/AllBeta.
FeatureGate kubefedFeatureGates();

// The controller manager's precedence: KubeFedConfig.spec.featureGates first (name,
// configuration "Enabled"|"Disabled"; a repeated name keeps its last entry), then the
// --feature-gates flag, which wins for the gates it names. Any other configuration is an error
// naming the gate: "invalid configuration \"X\" for feature gate Y: must be Enabled or Disabled".
// Errors have Reason::kBadConfig and leave `gate` unchanged.
Status applyKubeFedConfigThenFlag(
    FeatureGate& gate, const std::vector<std::pair<std::string, std::string>>& config_gates,
    std::string_view flag_value, std::vector<std::string>* warnings = nullptr);

}  // namespace kf
