#include "federation/runtime/feature_gate.h"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <optional>

#include "apis/meta/field_errors.h"

namespace kf {
namespace {

std::string_view boolName(bool value) { return value ? "true" : "false"; }

// strings.TrimSpace for the ASCII whitespace a flag value can realistically contain.
std::string_view trimSpace(std::string_view s) {
  constexpr std::string_view kSpace = " \t\n\v\f\r";
  const auto first = s.find_first_not_of(kSpace);
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(kSpace);
  return s.substr(first, last - first + 1);
}

// strconv.ParseBool: exactly these spellings, nothing else (no "yes", no "on").
std::optional<bool> parseGoBool(std::string_view s) {
  if (s == "1" || s == "t" || s == "T" || s == "TRUE" || s == "true" || s == "True") return true;
  if (s == "0" || s == "f" || s == "F" || s == "FALSE" || s == "false" || s == "False") {
    return false;
  }
  return std::nullopt;
}

// Go's %v of the FeatureSpec struct {Default LockToDefault PreRelease}, e.g. "{true false BETA}".
std::string describeSpec(const FeatureSpec& spec) {
  std::string out = "{";
  out += boolName(spec.default_value);
  out += ' ';
  out += boolName(spec.lock_to_default);
  out += ' ';
  out += preReleaseName(spec.pre_release);
  out += '}';
  return out;
}

ApiError configError(std::string message) {
  return makeError(Reason::kBadConfig, std::move(message));
}

}  // namespace

std::string_view preReleaseName(PreRelease pre_release) {
  switch (pre_release) {
    case PreRelease::kAlpha:
      return "ALPHA";
    case PreRelease::kBeta:
      return "BETA";
    case PreRelease::kGA:
      return "";
    case PreRelease::kDeprecated:
      return "DEPRECATED";
  }
  return "";
}

FeatureGate::FeatureGate() {
  MutexLock lock(mu_);
  state_.known.emplace(std::string(kAllAlphaGate), FeatureSpec{false, PreRelease::kAlpha, false});
  state_.known.emplace(std::string(kAllBetaGate), FeatureSpec{false, PreRelease::kBeta, false});
}

FeatureGate::FeatureGate(const FeatureGate& other) : state_(other.snapshot()) {}

FeatureGate& FeatureGate::operator=(const FeatureGate& other) {
  if (this == &other) return *this;
  // Snapshot first so the two mutexes are never held together (no lock-order to get wrong).
  State copy = other.snapshot();
  MutexLock lock(mu_);
  state_ = std::move(copy);
  return *this;
}

FeatureGate::State FeatureGate::snapshot() const {
  MutexLock lock(mu_);
  return state_;
}

Status FeatureGate::add(const std::map<std::string, FeatureSpec>& features) {
  MutexLock lock(mu_);
  auto known = state_.known;
  for (const auto& [name, spec] : features) {
    const auto it = known.find(name);
    if (it != known.end()) {
      if (it->second == spec) continue;
      return configError("feature gate " + meta::goQuote(name) +
                         " with different spec already exists: " + describeSpec(it->second));
    }
    known.emplace(name, spec);
  }
  state_.known = std::move(known);
  return boost::outcome_v2::success();
}

Status FeatureGate::set(const std::map<std::string, bool>& values,
                        std::vector<std::string>* warnings) {
  MutexLock lock(mu_);
  const auto& known = state_.known;
  // Work on a copy so a bad entry leaves the gate exactly as it was.
  auto enabled = state_.enabled;
  std::vector<std::string> new_warnings;
  for (const auto& [name, value] : values) {
    const auto it = known.find(name);
    if (it == known.end()) return configError("unrecognized feature gate: " + name);
    const FeatureSpec& spec = it->second;
    if (spec.lock_to_default && spec.default_value != value) {
      return configError("cannot set feature gate " + name + " to " + std::string(boolName(value)) +
                         ", feature is locked to " + std::string(boolName(spec.default_value)));
    }
    enabled[name] = value;
    if (spec.pre_release == PreRelease::kDeprecated || spec.pre_release == PreRelease::kGA) {
      new_warnings.push_back(std::string("Setting ") +
                             (spec.pre_release == PreRelease::kGA ? "GA" : "deprecated") +
                             " feature gate " + name + "=" + std::string(boolName(value)) +
                             ". It will be removed in a future release.");
    }
  }
  // AllAlpha/AllBeta run after every explicit value is recorded, so an explicit value for any
  // gate wins whatever the order of the input. Locked gates keep their default.
  const auto applyAll = [&](std::string_view special, PreRelease level) {
    const auto it = values.find(std::string(special));
    if (it == values.end()) return;
    for (const auto& [name, spec] : known) {
      if (spec.pre_release != level || spec.lock_to_default) continue;
      enabled.try_emplace(name, it->second);
    }
  };
  applyAll(kAllAlphaGate, PreRelease::kAlpha);
  applyAll(kAllBetaGate, PreRelease::kBeta);

  state_.enabled = std::move(enabled);
  if (warnings != nullptr) {
    warnings->insert(warnings->end(), std::make_move_iterator(new_warnings.begin()),
                     std::make_move_iterator(new_warnings.end()));
  }
  return boost::outcome_v2::success();
}

Status FeatureGate::setFromFlag(std::string_view value, std::vector<std::string>* warnings) {
  std::map<std::string, bool> values;
  while (true) {
    const auto comma = value.find(',');
    const std::string_view item = value.substr(0, comma);
    // Only a truly empty item is skipped ("A=true,,B=false" or a trailing comma); a blank one
    // is a gate with an empty name and no value, as in kube.
    if (!item.empty()) {
      const auto eq = item.find('=');
      const std::string name(trimSpace(item.substr(0, eq)));
      if (eq == std::string_view::npos) {
        return configError("missing bool value for " + name);
      }
      const std::string_view raw = trimSpace(item.substr(eq + 1));
      const auto parsed = parseGoBool(raw);
      if (!parsed) {
        return configError("invalid value of " + name + "=" + std::string(raw) +
                           ", err: strconv.ParseBool: parsing " + meta::goQuote(raw) +
                           ": invalid syntax");
      }
      values[name] = *parsed;
    }
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  return set(values, warnings);
}

bool FeatureGate::enabled(std::string_view name) const {
  MutexLock lock(mu_);
  if (const auto it = state_.enabled.find(name); it != state_.enabled.end()) return it->second;
  if (const auto it = state_.known.find(name); it != state_.known.end()) {
    return it->second.default_value;
  }
  return false;
}

bool FeatureGate::known(std::string_view name) const {
  MutexLock lock(mu_);
  return state_.known.find(name) != state_.known.end();
}

std::vector<std::string> FeatureGate::knownFeatureList() const {
  MutexLock lock(mu_);
  std::vector<std::string> lines;
  for (const auto& [name, spec] : state_.known) {
    if (spec.pre_release == PreRelease::kGA || spec.pre_release == PreRelease::kDeprecated) {
      continue;
    }
    lines.push_back(name + "=true|false (" + std::string(preReleaseName(spec.pre_release)) +
                    " - default=" + std::string(boolName(spec.default_value)) + ")");
  }
  // Byte order of the whole line, as Go's sort.Strings (the map order alone could differ when
  // one name is a prefix of another, since '=' sorts after some name characters).
  std::sort(lines.begin(), lines.end());
  return lines;
}

std::string FeatureGate::knownFeatures() const {
  std::string out;
  for (const auto& line : knownFeatureList()) {
    if (!out.empty()) out += '\n';
    out += line;
  }
  return out;
}

std::string FeatureGate::toString() const {
  MutexLock lock(mu_);
  std::string out;
  for (const auto& [name, value] : state_.enabled) {
    if (!out.empty()) out += ',';
    out += name + "=" + std::string(boolName(value));
  }
  return out;
}

FeatureGate kubefedFeatureGates() {
  FeatureGate gate;
  // Cannot fail: the names differ from AllAlpha/AllBeta, the only gates a new registry knows.
  (void)gate.add({
      {std::string(features::kPushReconciler), FeatureSpec{true, PreRelease::kBeta, false}},
      {std::string(features::kSchedulerPreferences), FeatureSpec{true, PreRelease::kAlpha, false}},
      {std::string(features::kRawResourceStatusCollection),
       FeatureSpec{false, PreRelease::kBeta, false}},
  });
  return gate;
}

Status applyKubeFedConfigThenFlag(
    FeatureGate& gate, const std::vector<std::pair<std::string, std::string>>& config_gates,
    std::string_view flag_value, std::vector<std::string>* warnings) {
  std::map<std::string, bool> from_config;
  for (const auto& [name, configuration] : config_gates) {
    if (configuration == "Enabled") {
      from_config[name] = true;
    } else if (configuration == "Disabled") {
      from_config[name] = false;
    } else {
      return configError("invalid configuration " + meta::goQuote(configuration) +
                         " for feature gate " + name + ": must be Enabled or Disabled");
    }
  }
  // Apply both to a copy and publish only if both succeed, so a bad flag cannot leave the
  // process running with half of its configuration.
  FeatureGate staged = gate;
  std::vector<std::string> new_warnings;
  // The flag is applied second: set() overwrites any gate it names and leaves the rest alone.
  if (!from_config.empty()) {
    KF_TRYV(staged.set(from_config, &new_warnings));
  }
  KF_TRYV(staged.setFromFlag(flag_value, &new_warnings));
  gate = staged;
  if (warnings != nullptr) {
    warnings->insert(warnings->end(), std::make_move_iterator(new_warnings.begin()),
                     std::make_move_iterator(new_warnings.end()));
  }
  return boost::outcome_v2::success();
}

}  // namespace kf
