#pragma once
// Kubernetes Events about objects, as `kubectl describe` and `kubectl get events` show them.
// Recording never blocks the caller on the network and never fails: events are best effort.

#include <memory>
#include <string>

#include "federation/client/list_options.h"

namespace kf {

enum class EventType { kNormal, kWarning };

// core/v1 ObjectReference of the object an event is about.
struct ObjectReference {
  std::string api_version;
  std::string kind;
  std::string namespace_name;
  std::string name;
  std::string uid;
  std::string resource_version;
};

// The reference to a full object (apiVersion, kind and metadata read from it).
ObjectReference referenceTo(const Json& object);

class EventRecorder {
 public:
  virtual ~EventRecorder() = default;
  // `reason` is UpperCamelCase (e.g. "ClusterNotReady"); `message` is for people.
  virtual void event(const ObjectReference& object, EventType type, const std::string& reason,
                     const std::string& message) = 0;
};
using EventRecorderPtr = std::shared_ptr<EventRecorder>;

}  // namespace kf
