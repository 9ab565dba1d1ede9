#include "apis/meta/field_errors.h"

#include <cstdio>
#include <set>

namespace kf::meta {

FieldPath FieldPath::child(std::string_view name) const {
  if (text_.empty()) return FieldPath(std::string(name));
  return FieldPath(text_ + "." + std::string(name));
}

FieldPath FieldPath::index(std::size_t i) const {
  return FieldPath(text_ + "[" + std::to_string(i) + "]");
}

FieldPath FieldPath::key(std::string_view k) const {
  return FieldPath(text_ + "[" + std::string(k) + "]");
}

std::string goQuote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (byte < 0x20 || byte == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", byte);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

BadValue BadValue::quoted(std::string_view s) { return BadValue{goQuote(s)}; }

namespace {

const char* typeText(ErrorType type) {
  switch (type) {
    case ErrorType::kRequired:
      return "Required value";
    case ErrorType::kInvalid:
      return "Invalid value";
    case ErrorType::kNotSupported:
      return "Unsupported value";
    case ErrorType::kDuplicate:
      return "Duplicate value";
    case ErrorType::kForbidden:
      return "Forbidden";
  }
  return "Internal error";
}

// Required and Forbidden errors never print the value (field.Error.ErrorBody).
bool printsValue(ErrorType type) {
  return type != ErrorType::kRequired && type != ErrorType::kForbidden;
}

}  // namespace

std::string FieldError::message() const {
  std::string body = typeText(type);
  if (printsValue(type)) body += ": " + value.printed;
  if (!detail.empty()) body += ": " + detail;
  return field + ": " + body;
}

FieldError required(const FieldPath& path, std::string detail) {
  return FieldError{ErrorType::kRequired, path.str(), {}, std::move(detail)};
}

FieldError invalid(const FieldPath& path, BadValue value, std::string detail) {
  return FieldError{ErrorType::kInvalid, path.str(), std::move(value), std::move(detail)};
}

FieldError notSupported(const FieldPath& path, std::string_view value,
                        const std::vector<std::string>& supported) {
  std::string detail;
  if (!supported.empty()) {
    detail = "supported values: ";
    for (std::size_t i = 0; i < supported.size(); ++i) {
      if (i > 0) detail += ", ";
      detail += goQuote(supported[i]);
    }
  }
  return FieldError{ErrorType::kNotSupported, path.str(), BadValue::quoted(value),
                    std::move(detail)};
}

FieldError duplicate(const FieldPath& path, std::string_view value) {
  return FieldError{ErrorType::kDuplicate, path.str(), BadValue::quoted(value), ""};
}

FieldError forbidden(const FieldPath& path, std::string detail) {
  return FieldError{ErrorType::kForbidden, path.str(), {}, std::move(detail)};
}

std::vector<std::string> messages(const ErrorList& errors) {
  std::vector<std::string> out;
  out.reserve(errors.size());
  for (const auto& error : errors) out.push_back(error.message());
  return out;
}

std::string aggregate(const ErrorList& errors) {
  std::set<std::string> seen;
  std::string joined;
  for (const auto& error : errors) {
    std::string msg = error.message();
    if (!seen.insert(msg).second) continue;
    if (seen.size() > 1) joined += ", ";
    joined += msg;
  }
  if (seen.size() <= 1) return joined;
  return "[" + joined + "]";
}

}  // namespace kf::meta
