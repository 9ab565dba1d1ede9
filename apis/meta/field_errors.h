#pragma once
// Kubernetes field.Path / field.Error / field.ErrorList look-alikes. Webhook responses and
// tests compare these strings with what kube-apiserver and KubeFed print, so the wording and
// the value quoting follow apimachinery exactly.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kf::meta {

// "spec.placement.clusters[1].name": children joined by dots, indices and map keys in brackets.
class FieldPath {
 public:
  FieldPath() = default;
  explicit FieldPath(std::string root) : text_(std::move(root)) {}

  FieldPath child(std::string_view name) const;
  FieldPath index(std::size_t i) const;
  FieldPath key(std::string_view k) const;
  const std::string& str() const { return text_; }
  bool empty() const { return text_.empty(); }

 private:
  std::string text_;
};

enum class ErrorType { kRequired, kInvalid, kNotSupported, kDuplicate, kForbidden };

// The bad value as apimachinery prints it: strings quoted (%q), numbers and durations bare.
struct BadValue {
  std::string printed;

  static BadValue quoted(std::string_view s);
  static BadValue bare(std::string s) { return BadValue{std::move(s)}; }
  static BadValue number(std::int64_t n) { return BadValue{std::to_string(n)}; }
};

struct FieldError {
  ErrorType type;
  std::string field;
  BadValue value;
  std::string detail;

  // "<field>: <type>[: <value>][: <detail>]", as field.Error.Error().
  std::string message() const;
};

using ErrorList = std::vector<FieldError>;

FieldError required(const FieldPath& path, std::string detail = "");
FieldError invalid(const FieldPath& path, BadValue value, std::string detail);
FieldError notSupported(const FieldPath& path, std::string_view value,
                        const std::vector<std::string>& supported);
FieldError duplicate(const FieldPath& path, std::string_view value);
FieldError forbidden(const FieldPath& path, std::string detail);

// Go's %q for the ASCII/UTF-8 strings we meet: quotes, backslashes and control bytes escaped.
std::string goQuote(std::string_view s);

// utilerrors.NewAggregate(list).Error(): one message alone, several as "[a, b]" without
// repeats, "" for none.
std::string aggregate(const ErrorList& errors);

// Each error's message, in order (to join into one line with joinWith).
std::vector<std::string> messages(const ErrorList& errors);

inline void append(ErrorList& to, ErrorList&& from) {
  to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
}

}  // namespace kf::meta
