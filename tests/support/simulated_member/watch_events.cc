#include "tests/support/simulated_member/watch_events.h"

#include "tests/support/simulated_member/member_store.h"

namespace kf::sim {
namespace {

const char* typeName(EventType type) {
  switch (type) {
    case EventType::kAdded:
      return "ADDED";
    case EventType::kModified:
      return "MODIFIED";
    case EventType::kDeleted:
      return "DELETED";
  }
  return "ERROR";
}

EventLine line(const char* type, const Json& object) {
  std::string text = "{\"type\":\"";
  text += type;
  text += "\",\"object\":";
  text += object.dump();
  text += "}\n";
  return std::make_shared<const std::string>(std::move(text));
}

}  // namespace

EventLine eventLine(EventType type, const Json& object) { return line(typeName(type), object); }

EventLine bookmarkLine(const ServedResource& resource, std::uint64_t resource_version) {
  return line(
      "BOOKMARK",
      {{"kind", resource.kind},
       {"apiVersion", resource.apiVersion()},
       {"metadata",
        {{"resourceVersion", std::to_string(resource_version)}, {"creationTimestamp", nullptr}}}});
}

EventLine errorLine(const Json& status) { return line("ERROR", status); }

}  // namespace kf::sim
