#include "federation/client/list_decoder.h"

#include <string>
#include <utility>
#include <vector>

#include "federation/client/json_depth.h"

namespace kf {
namespace {

// nlohmann's SAX interface, turned into: the top-level scalars we need (kind, apiVersion), the
// top-level metadata object, and each element of the top-level items array, each built as a tree
// of its own. Everything else at the top level is read and dropped.
class ListSax {
 public:
  explicit ListSax(const ListItemSink& on_item) : on_item_(on_item) {}

  bool null() { return scalar(Json(nullptr)); }
  bool boolean(bool value) { return scalar(Json(value)); }
  bool number_integer(Json::number_integer_t value) { return scalar(Json(value)); }
  bool number_unsigned(Json::number_unsigned_t value) { return scalar(Json(value)); }
  bool number_float(Json::number_float_t value, const std::string& /*text*/) {
    return scalar(Json(value));
  }
  bool string(std::string& value) { return scalar(Json(std::move(value))); }
  bool binary(Json::binary_t& /*value*/) { return fail("the list response has a binary value"); }

  bool key(std::string& name) {
    if (capturing()) {
      key_ = std::move(name);
    } else if (depth_ == 1) {
      top_key_ = std::move(name);
    }
    return true;
  }

  bool start_object(std::size_t /*size*/) {
    if (depth_ >= kMaxJsonDepth) return fail(tooDeep());
    if (capturing()) {
      open(Json::object());
    } else if (depth_ == 1 && top_key_ == "metadata") {
      begin(Capture::kMetadata);
    } else if (depth_ == 2 && in_items_) {
      begin(Capture::kItem);
    }
    ++depth_;
    return true;
  }

  bool end_object() {
    --depth_;
    if (capturing()) {
      close();
    }
    return true;
  }

  bool start_array(std::size_t /*size*/) {
    if (depth_ >= kMaxJsonDepth) return fail(tooDeep());
    if (depth_ == 0) {
      return fail("the list response is not an object");
    }
    if (capturing()) {
      open(Json::array());
    } else if (depth_ == 1 && top_key_ == "items") {
      in_items_ = true;
      saw_items_ = true;
    } else if (depth_ == 2 && in_items_) {
      return fail(itemNotAnObject());
    }
    ++depth_;
    return true;
  }

  bool end_array() {
    --depth_;
    if (capturing()) {
      close();
    } else if (depth_ == 1) {
      in_items_ = false;
    }
    return true;
  }

  bool parse_error(std::size_t position, const std::string& /*token*/,
                   const nlohmann::detail::exception& /*error*/) {
    return fail("the list response is not valid JSON (at byte " + std::to_string(position) + ")");
  }

  // After a successful parse: the list's metadata, or why the response is not a list.
  Result<ObjectList> finish() {
    if (!saw_items_) {
      return makeError(Reason::kBadResponse, "the list response has no items");
    }
    flushPending();
    ObjectList list;
    KF_TRY(resource_version, metadataString("resourceVersion"));
    KF_TRY(continue_token, metadataString("continue"));
    list.resource_version = std::move(resource_version);
    list.continue_token = std::move(continue_token);
    if (auto count = metadata_.find("remainingItemCount");
        count != metadata_.end() && count->is_number_integer()) {
      list.remaining_item_count = count->get<std::int64_t>();
    }
    return list;
  }

  const std::string& error() const { return error_; }

 private:
  enum class Capture { kNone, kMetadata, kItem };

  bool capturing() const { return capture_ != Capture::kNone; }

  // "" when absent; an error when it is there but not a string.
  Result<std::string> metadataString(const char* field) const {
    const auto value = metadata_.find(field);
    if (value == metadata_.end() || value->is_null()) {
      return std::string();
    }
    if (!value->is_string()) {
      return makeError(Reason::kBadResponse, std::string("the list response's metadata.") + field +
                                                 " is not a string: " + value->dump());
    }
    return value->get<std::string>();
  }

  bool scalar(Json value) {
    if (capturing()) {
      put(std::move(value));
    } else if (depth_ == 0) {
      return fail("the list response is not an object");
    } else if (depth_ == 1) {
      topLevelScalar(std::move(value));
    } else if (depth_ == 2 && in_items_) {
      return fail(itemNotAnObject());
    }
    return true;
  }

  void topLevelScalar(Json value) {
    if (top_key_ == "items" && value.is_null()) {
      saw_items_ = true;  // an empty list, as some servers write it
    } else if (top_key_ == "kind" && value.is_string()) {
      const std::string& kind = value.get_ref<const std::string&>();
      item_kind_ = kind.size() > 4 && kind.ends_with("List") ? kind.substr(0, kind.size() - 4) : "";
      kind_known_ = true;
      flushPendingOnceKnown();
    } else if (top_key_ == "apiVersion" && value.is_string()) {
      api_version_ = std::move(value.get_ref<std::string&>());
      api_version_known_ = true;
      flushPendingOnceKnown();
    }
  }

  void begin(Capture capture) {
    capture_ = capture;
    building_ = Json::object();
    stack_.push_back(&building_);
  }

  // A nested container: added to the one being built, and built in turn. The pointer stays
  // valid while it is built, as only its own children are added meanwhile.
  void open(Json container) {
    Json& parent = *stack_.back();
    Json* child = parent.is_array() ? &parent.emplace_back(std::move(container))
                                    : &(parent[key_] = std::move(container));
    stack_.push_back(child);
  }

  void put(Json value) {
    Json& parent = *stack_.back();
    if (parent.is_array()) {
      parent.emplace_back(std::move(value));
    } else {
      parent[key_] = std::move(value);
    }
  }

  void close() {
    stack_.pop_back();
    if (!stack_.empty()) {
      return;
    }
    const Capture finished = std::exchange(capture_, Capture::kNone);
    if (finished == Capture::kMetadata) {
      metadata_ = std::move(building_);
    } else {
      item(std::move(building_));
    }
    building_ = Json();
  }

  // Items of a built-in list carry no kind/apiVersion; they get the list's. A server may write
  // the list's kind after its items (Go sorts map keys: custom resources' lists come as
  // apiVersion, items, kind, metadata, and their items carry their own kind), so an item that
  // needs the list's kind and apiVersion before both are known waits for them (at most until
  // the end of the response).
  void item(Json object) {
    ++items_seen_;
    if (object.contains("kind")) {
      on_item_(std::move(object));
    } else if (kind_known_ && api_version_known_) {
      emitWithListKind(std::move(object));
    } else {
      pending_.push_back(std::move(object));
    }
  }

  void flushPendingOnceKnown() {
    if (kind_known_ && api_version_known_) {
      flushPending();
    }
  }

  void emitWithListKind(Json object) {
    if (!item_kind_.empty()) {
      object["kind"] = item_kind_;
      object["apiVersion"] = api_version_;
    }
    on_item_(std::move(object));
  }

  void flushPending() {
    for (Json& object : pending_) {
      emitWithListKind(std::move(object));
    }
    pending_.clear();
  }

  static std::string tooDeep() {
    return "the list response nests deeper than " + std::to_string(kMaxJsonDepth) +
           " levels, more than an API server stores";
  }

  std::string itemNotAnObject() const {
    return "item " + std::to_string(items_seen_) + " of the list response is not an object";
  }

  bool fail(std::string message) {
    if (error_.empty()) {
      error_ = std::move(message);
    }
    return false;
  }

  const ListItemSink& on_item_;
  std::size_t depth_ = 0;  // containers open around the current token
  std::string top_key_;
  bool in_items_ = false;
  bool saw_items_ = false;
  std::size_t items_seen_ = 0;
  Capture capture_ = Capture::kNone;
  Json building_;
  std::vector<Json*> stack_;
  std::string key_;
  Json metadata_ = Json::object();
  bool kind_known_ = false;
  bool api_version_known_ = false;
  std::string item_kind_;
  std::string api_version_;
  std::vector<Json> pending_;
  std::string error_;
};

}  // namespace

Result<ObjectList> decodeListEach(std::string_view body, const ListItemSink& on_item) {
  // The parser takes a NUL byte for the end of its input, so a valid list followed by a NUL and
  // anything at all would pass; JSON has no NUL outside escapes, and Go's decoder refuses it.
  if (const auto nul = body.find('\0'); nul != std::string_view::npos) {
    return makeError(
        Reason::kBadResponse,
        "the list response is not valid JSON (a NUL byte at byte " + std::to_string(nul) + ")");
  }
  ListSax sax(on_item);
  if (!Json::sax_parse(body, &sax)) {
    return makeError(Reason::kBadResponse, sax.error());
  }
  return sax.finish();
}

Result<ObjectList> decodeList(std::string_view body) {
  std::vector<Json> items;
  KF_TRY(list, decodeListEach(body, [&items](Json item) { items.push_back(std::move(item)); }));
  list.items = std::move(items);
  return list;
}

}  // namespace kf
