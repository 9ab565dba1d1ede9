#include "federation/election/annotation_lock.h"

#include "federation/election/leader_record.h"

namespace kf {

const GroupVersionResource kConfigMapResource{"", "v1", "configmaps", true};
const GroupVersionResource kEndpointsResource{"", "v1", "endpoints", true};

AnnotationLock::AnnotationLock(RestClient& client, GroupVersionResource resource, std::string kind,
                               std::string ns, std::string name)
    : objects_(client, std::move(resource), ns),
      kind_(std::move(kind)),
      namespace_(std::move(ns)),
      name_(std::move(name)) {}

Result<VersionedLease> AnnotationLock::get() { return remember(objects_.get(name_)); }

Result<VersionedLease> AnnotationLock::create(const LeaseRecord& record) {
  return remember(
      objects_.create({{"apiVersion", "v1"},
                       {"kind", kind_},
                       {"metadata",
                        {{"name", name_},
                         {"namespace", namespace_},
                         {"annotations", {{kLeaderAnnotation, encodeLeaderRecord(record)}}}}}}));
}

Result<VersionedLease> AnnotationLock::update(const LeaseRecord& record,
                                              const std::string& resource_version) {
  if (!last_.is_object()) {
    return makeError(Reason::kBadConfig,
                     kind_ + " lock " + describe() + " is not initialized: get or create it first");
  }
  Json object = last_;
  Json& metadata = object["metadata"];
  if (!metadata["annotations"].is_object()) metadata["annotations"] = Json::object();
  metadata["annotations"][kLeaderAnnotation] = encodeLeaderRecord(record);
  if (!resource_version.empty()) metadata["resourceVersion"] = resource_version;
  return remember(objects_.update(object));
}

std::vector<ObjectReference> AnnotationLock::eventTargets() const {
  if (!last_.is_object()) return {};
  return {referenceTo(last_)};
}

Result<VersionedLease> AnnotationLock::remember(Result<Json> object) {
  if (!object) return std::move(object).error();
  last_ = std::move(object).value();
  VersionedLease out{LeaseRecord{}, objectResourceVersion(last_), ""};
  const Json annotations = last_["metadata"].value("annotations", Json::object());
  const auto annotation = annotations.find(kLeaderAnnotation);
  if (annotation == annotations.end() || !annotation->is_string()) return out;
  out.raw = annotation->get<std::string>();
  KF_TRY(record, decodeLeaderRecord(out.raw));
  out.record = std::move(record);
  return out;
}

}  // namespace kf
