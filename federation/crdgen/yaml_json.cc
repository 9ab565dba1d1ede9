#include "federation/crdgen/yaml_json.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <optional>
#include <regex>
#include <sstream>

#include "apis/meta/field_errors.h"

namespace kf {
namespace {

using OJson = nlohmann::ordered_json;

bool readsAsNonString(const std::string& text) {
  static const std::regex kSpecial(
      "^(~|null|Null|NULL|true|True|TRUE|false|False|FALSE|y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|"
      "off|Off|OFF|[-+]?[0-9][0-9_]*(\\.[0-9_]*)?([eE][-+]?[0-9]+)?|[-+]?\\.[0-9]+([eE][-+]?[0-9]+)"
      "?|0x[0-9a-fA-F]+|0o[0-7]+|[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN))$");
  return std::regex_match(text, kSpecial);
}

bool needsQuotes(const std::string& text) {
  if (text.empty() || readsAsNonString(text)) return true;
  if (text.front() == ' ' || text.back() == ' ') return true;
  if (std::string("-?:,[]{}#&*!|>'\"%@`").find(text.front()) != std::string::npos) {
    // "-x" and "?x" are fine plain; a lone indicator or one followed by a space is not.
    if (!((text.front() == '-' || text.front() == '?' || text.front() == ':') && text.size() > 1 &&
          text[1] != ' ')) {
      return true;
    }
  }
  if (text.back() == ':') return true;
  // A document marker at the start of a line would end the document.
  if (text.rfind("---", 0) == 0 || text.rfind("...", 0) == 0) return true;
  return text.find(": ") != std::string::npos || text.find(" #") != std::string::npos;
}

bool hasControl(const std::string& text) {
  for (unsigned char c : text) {
    if (c < 0x20) return true;
  }
  return false;
}

std::string scalar(const OJson& value) {
  if (value.is_null()) return "null";
  if (value.is_string()) {
    const auto& text = value.get_ref<const std::string&>();
    // Go's quoting is a valid YAML double-quoted scalar, and reads back as the same text.
    if (hasControl(text)) return meta::goQuote(text);
    if (needsQuotes(text)) {
      std::string quoted = "'";
      for (char c : text) quoted += c == '\'' ? std::string("''") : std::string(1, c);
      return quoted + "'";
    }
    return text;
  }
  return value.dump();
}

bool isEmptyCollection(const OJson& value) {
  return (value.is_object() || value.is_array()) && value.empty();
}

std::string emptyCollection(const OJson& value) { return value.is_object() ? "{}" : "[]"; }

void emit(const OJson& value, int indent, std::ostringstream& out);

// A value that follows "key:" or "- ": inline when scalar or empty, else on the next lines.
void emitAfterKey(const OJson& value, int child_indent, std::ostringstream& out) {
  if (isEmptyCollection(value)) {
    out << " " << emptyCollection(value) << "\n";
  } else if (value.is_object()) {
    out << "\n";
    emit(value, child_indent, out);
  } else if (value.is_array()) {
    out << "\n";
    // Sequences sit at the indentation of their key, as kubectl prints them.
    emit(value, child_indent - 2, out);
  } else {
    out << " " << scalar(value) << "\n";
  }
}

void emitSequenceItem(const OJson& item, int indent, std::ostringstream& out) {
  const std::string pad(static_cast<size_t>(indent), ' ');
  if (item.is_object() && !item.empty()) {
    // The first key shares the "- " line; the rest align under it.
    std::ostringstream nested;
    emit(item, indent + 2, nested);
    std::string text = nested.str();
    out << pad << "- " << text.substr(static_cast<size_t>(indent) + 2);
  } else if (item.is_array() && !item.empty()) {
    std::ostringstream nested;
    emit(item, indent + 2, nested);
    std::string text = nested.str();
    out << pad << "- " << text.substr(static_cast<size_t>(indent) + 2);
  } else {
    out << pad << "-";
    emitAfterKey(item, indent + 2, out);
  }
}

void emit(const OJson& value, int indent, std::ostringstream& out) {
  const std::string pad(static_cast<size_t>(indent), ' ');
  if (value.is_object()) {
    for (const auto& [key, child] : value.items()) {
      out << pad << scalar(OJson(key)) << ":";
      emitAfterKey(child, indent + 2, out);
    }
  } else if (value.is_array()) {
    for (const auto& item : value) emitSequenceItem(item, indent, out);
  } else {
    out << pad << scalar(value) << "\n";
  }
}

Json scalarToJson(const YAML::Node& node) {
  const std::string& text = node.Scalar();
  if (node.Tag() == "!" || node.Tag() == "tag:yaml.org,2002:str") return text;
  if (text == "~" || text == "null" || text == "Null" || text == "NULL" || text.empty()) {
    return nullptr;
  }
  if (text == "true" || text == "True" || text == "TRUE") return true;
  if (text == "false" || text == "False" || text == "FALSE") return false;
  static const std::regex kInt("^[-+]?[0-9]+$");
  static const std::regex kFloat("^[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?$");
  try {
    if (std::regex_match(text, kInt)) return std::stoll(text);
    if (std::regex_match(text, kFloat)) return std::stod(text);
  } catch (const std::exception&) {
    // Out of range: keep the text.
  }
  return text;
}

// Bounds on turning one document into JSON. An alias inside the node it names makes yaml-cpp's
// node graph a cycle, and aliases of aliases multiply ("billion laughs"): either would exhaust
// the stack or memory. No Kubernetes object comes near these bounds.
constexpr int kMaxDepth = 512;
struct ConversionBudget {
  std::size_t values_left;  // every scalar, sequence and mapping counts once
};

Json nodeToJson(const YAML::Node& node, ConversionBudget& budget, int depth = 0) {
  if (depth > kMaxDepth) {
    throw YAML::ParserException(node.Mark(), "nested more than " + std::to_string(kMaxDepth) +
                                                 " levels deep (or an alias refers to itself)");
  }
  if (budget.values_left == 0) {
    throw YAML::ParserException(node.Mark(),
                                "too many values: aliases multiply the document beyond what it "
                                "could hold written out");
  }
  --budget.values_left;
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return nullptr;
    case YAML::NodeType::Scalar:
      return scalarToJson(node);
    case YAML::NodeType::Sequence: {
      Json out = Json::array();
      for (const auto& item : node) out.push_back(nodeToJson(item, budget, depth + 1));
      return out;
    }
    case YAML::NodeType::Map: {
      Json out = Json::object();
      for (const auto& entry : node) {
        out[entry.first.as<std::string>()] = nodeToJson(entry.second, budget, depth + 1);
      }
      return out;
    }
  }
  return nullptr;
}

}  // namespace

std::string toYaml(const OJson& value) {
  std::ostringstream out;
  if (isEmptyCollection(value)) return emptyCollection(value) + "\n";
  emit(value, 0, out);
  return out.str();
}

namespace {

// Notes where the last document started; ignores everything else.
class DocumentStarts final : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark& mark) override { last = mark; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}

  YAML::Mark last = YAML::Mark::null_mark();
};

// yaml-cpp 0.7's LoadAll never returns on some malformed streams (a line starting with ',' after
// a block sequence, jbeder/yaml-cpp#1040): the parser reports a new empty document without
// consuming anything, again and again, and LoadAll appends them until memory runs out. A first
// pass that only notes where each document starts finds a document starting where the previous
// one did and refuses the stream instead.
Status checkDocumentsAdvance(const std::string& text) {
  std::istringstream stream(text);
  YAML::Parser parser(stream);
  DocumentStarts starts;
  std::optional<int> previous;
  while (parser.HandleNextDocument(starts)) {
    if (previous == starts.last.pos) {
      return makeError(Reason::kInvalid, "error parsing YAML: unexpected content at line " +
                                             std::to_string(starts.last.line + 1) + ", column " +
                                             std::to_string(starts.last.column + 1));
    }
    previous = starts.last.pos;
  }
  return boost::outcome_v2::success();
}

// YAML streams are Unicode (go-yaml, and so kubectl, refuse other bytes); a string that is not
// UTF-8 could not be sent to an API server or printed as JSON later. `what` names the value in
// the error, which ends with the offending byte.
Status checkUtf8(const Json& value, const std::string& what) {
  try {
    (void)value.dump();  // nlohmann's encoder checks every byte sequence
  } catch (const Json::type_error& e) {
    const std::string why = e.what();  // "... invalid UTF-8 byte at index 2: 0x92"
    return makeError(Reason::kInvalid, "error parsing YAML: " + what + " is not UTF-8 (byte " +
                                           why.substr(why.rfind(' ') + 1) + ")");
  }
  return boost::outcome_v2::success();
}

}  // namespace

Result<std::vector<Json>> yamlDocumentsToJson(const std::string& text) {
  std::vector<Json> documents;
  KF_TRYV(checkUtf8(Json(text), "the input"));
  try {
    KF_TRYV(checkDocumentsAdvance(text));
    // Written out, a value takes at least two bytes; ten times the text leaves room for
    // ordinary anchors and aliases.
    ConversionBudget budget{10 * text.size() + 10000};
    for (const auto& node : YAML::LoadAll(text)) {
      if (node.IsNull() || !node.IsDefined()) continue;
      documents.push_back(nodeToJson(node, budget));
      // yaml-cpp can itself produce bytes that are not UTF-8 (its "\N" escape, a NUL in a plain
      // scalar): such a document is refused too.
      KF_TRYV(checkUtf8(documents.back(),
                        "document " + std::to_string(documents.size()) + " holds a string that"));
    }
  } catch (const YAML::Exception& e) {
    return makeError(Reason::kInvalid, std::string("error parsing YAML: ") + e.what());
  }
  return documents;
}

}  // namespace kf
