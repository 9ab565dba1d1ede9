#pragma once
// metav1.DeleteOptions, the fields the project sends: a delete request's body, and what a
// federated object's kubefed.io/deleteoption annotation asks of its member objects' deletion.

#include <cstdint>
#include <optional>
#include <string>

namespace kf {

struct DeleteOptions {
  std::optional<std::string> propagation_policy;  // "Orphan", "Background", "Foreground"
  std::optional<std::int64_t> grace_period_seconds;
  std::optional<std::string> precondition_uid;
  std::optional<std::string> precondition_resource_version;
};

}  // namespace kf
