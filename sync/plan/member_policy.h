#pragma once
// How the sync controller treats the member objects of one federated object beyond KubeFed
// (opt-in; the defaults are KubeFed's): how it writes them, and what it does when a member object
// drifted from what the controller wrote there. Set by annotations on the federated object; the
// same annotations on the FederatedTypeConfig are the type's default (the object's win, key by
// key).
//
//   kubefed-cpp.io/apply: Update (default, KubeFed's: PUT of the whole object)
//                         | ServerSide (apply patches that yield, server_side_apply.h)
//   kubefed-cpp.io/drift: Revert (default, KubeFed's: write it back, say nothing)
//                         | ReportAndRevert (write it back and report it)
//                         | ReportOnly (report it and leave the member as it is)
//   kubefed-cpp.io/drift-ignore: /data/key,/metadata/labels/team   (JSON pointers)

#include <optional>
#include <string>
#include <vector>

#include "apis/meta/object.h"

namespace kf::sync {

inline constexpr char kApplyAnnotation[] = "kubefed-cpp.io/apply";
inline constexpr char kDriftAnnotation[] = "kubefed-cpp.io/drift";
inline constexpr char kDriftIgnoreAnnotation[] = "kubefed-cpp.io/drift-ignore";

enum class ApplyMode { kUpdate, kServerSide };
enum class DriftMode { kRevert, kReportAndRevert, kReportOnly };

struct MemberPolicy {
  ApplyMode apply = ApplyMode::kUpdate;
  DriftMode drift = DriftMode::kRevert;
  // Fields whose changes in a member are not drift (a pointer covers what lies below it).
  std::vector<std::string> ignored;

  // KubeFed's behaviour: no field of a member object needs to be compared.
  bool isKubeFeds() const { return apply == ApplyMode::kUpdate && drift == DriftMode::kRevert; }
  bool serverSide() const { return apply == ApplyMode::kServerSide; }
  bool reports() const { return drift != DriftMode::kRevert; }
  // Whether a pass writes back what another writer changed in a member (Revert,
  // ReportAndRevert with PUT): then a change of a member object is looked at after KubeFed's
  // retry delay, which spaces out a fight with that writer; otherwise at once.
  bool writesBack() const { return !serverSide() && drift != DriftMode::kReportOnly; }
  bool operator==(const MemberPolicy&) const = default;
};

// The policy annotations among a FederatedTypeConfig's `annotations`: the type's defaults.
StringMap policyAnnotations(const std::optional<StringMap>& annotations);

// The policy of `federated_object`: each annotation of the object, else of `type_defaults`, else
// KubeFed's. Fails on a value it does not know, naming the annotation, the value, where it was
// set and what is accepted.
Result<MemberPolicy> resolveMemberPolicy(const StringMap& type_defaults,
                                         const Json& federated_object);

}  // namespace kf::sync
