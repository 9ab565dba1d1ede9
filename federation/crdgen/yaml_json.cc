#include "federation/crdgen/yaml_json.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <optional>
#include <sstream>

#include "federation/crdgen/go_yaml_number.h"
#include "federation/crdgen/go_yaml_plain.h"
#include "federation/crdgen/go_yaml_scalar.h"

namespace kf {
namespace {

using OJson = nlohmann::ordered_json;

// Block-style YAML as KubeFed's writer prints it (go-yaml v2): a mapping's keys at its
// indentation, a sequence under a key at the key's own indentation, a collection inside a
// sequence item on the item's line, empty collections as {} and [].
class BlockWriter {
 public:
  std::string document(const OJson& value) {
    if (value.is_object() && !value.empty()) {
      mapping(value, 0);
    } else if (value.is_array() && !value.empty()) {
      sequence(value, 0);
    } else {
      node(value, 0, Parent::kSequenceItem);
    }
    out_.indent(0);  // ends the last line
    return out_.text();
  }

 private:
  // What a value follows: the indicator written before it decides where a collection starts.
  enum class Parent { kSimpleKey, kComplexKey, kSequenceItem };

  void mapping(const OJson& object, int indent) {
    for (const auto& [key, value] : object.items()) {
      out_.indent(indent);
      if (goyaml::isSimpleKey(key)) {
        goyaml::writeString(out_, key, indent + 2, true);
        out_.indicator(":", false);
        node(value, indent, Parent::kSimpleKey);
      } else {
        // A long or multi-line key: "? key", then ": value" on a line of its own.
        out_.indicator("?", true, false, true);
        goyaml::writeString(out_, key, indent + 2, false);
        out_.indent(indent);
        out_.indicator(":", true, false, true);
        node(value, indent, Parent::kComplexKey);
      }
    }
  }

  void sequence(const OJson& array, int indent) {
    for (const auto& item : array) {
      out_.indent(indent);
      out_.indicator("-", true, false, true);
      node(item, indent, Parent::kSequenceItem);
    }
  }

  // A value whose parent collection is at `indent`.
  void node(const OJson& value, int indent, Parent parent) {
    if ((value.is_object() || value.is_array()) && value.empty()) {
      out_.indicator(value.is_object() ? "{" : "[", true, true);
      out_.indicator(value.is_object() ? "}" : "]", false);
    } else if (value.is_object()) {
      mapping(value, indent + 2);
    } else if (value.is_array()) {
      // Under a plain "key:" a sequence is not indented.
      sequence(value, parent == Parent::kSimpleKey ? indent : indent + 2);
    } else if (value.is_string()) {
      goyaml::writeString(out_, value.get_ref<const std::string&>(), indent + 2, false);
    } else if (value.is_number()) {
      goyaml::writeWord(out_, goyaml::formatNumber(value));
    } else if (value.is_boolean()) {
      goyaml::writeWord(out_, value.get<bool>() ? "true" : "false");
    } else {
      goyaml::writeWord(out_, "null");
    }
  }

  goyaml::YamlOutput out_;
};

// The length of the valid UTF-8 sequence at `at`, or 0.
std::size_t utf8SequenceAt(const std::string& text, std::size_t at) {
  const auto lead = static_cast<unsigned char>(text[at]);
  std::size_t width = 0;
  if (lead < 0x80) {
    width = 1;
  } else if (lead >= 0xC2 && lead < 0xE0) {
    width = 2;
  } else if (lead >= 0xE0 && lead < 0xF0) {
    width = 3;
  } else if (lead >= 0xF0 && lead < 0xF5) {
    width = 4;
  }
  if (width == 0 || at + width > text.size()) return 0;
  for (std::size_t k = 1; k < width; ++k) {
    if ((static_cast<unsigned char>(text[at + k]) & 0xC0) != 0x80) return 0;
  }
  return width;
}

// yaml-cpp decodes the escapes "\N" (U+0085) and "\_" (U+00A0) to a single Latin-1 byte instead
// of UTF-8. The input was checked to be UTF-8, so such a byte on its own can only come from one of
// them (go-yaml, and so KubeFed and kubectl, write them): it is put back as the character.
std::string repairedEscapes(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t width = utf8SequenceAt(text, i);
    const auto byte = static_cast<unsigned char>(text[i]);
    if (width == 0 && (byte == 0x85 || byte == 0xA0)) {
      out += '\xC2';
      out += text[i++];
    } else {
      const std::size_t take = width == 0 ? 1 : width;
      out.append(text, i, take);
      i += take;
    }
  }
  return out;
}

// Plain scalars as Kubernetes reads YAML (go-yaml's YAML 1.1 rules: `yes` is true, `0644` is
// octal); quoted and block scalars are strings.
bool isPlain(const YAML::Node& node) { return node.Tag() == "?"; }

Json scalarToJson(const YAML::Node& node) {
  std::string text = repairedEscapes(node.Scalar());
  if (node.Tag() == "!" || node.Tag() == "tag:yaml.org,2002:str") return text;
  return goyaml::readPlain(text);
}

std::string keyText(const YAML::Node& key) {
  std::string text = repairedEscapes(key.as<std::string>());
  return key.IsScalar() && isPlain(key) ? goyaml::readPlainKey(text) : text;
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
        out[keyText(entry.first)] = nodeToJson(entry.second, budget, depth + 1);
      }
      return out;
    }
  }
  return nullptr;
}

}  // namespace

std::string toYaml(const OJson& value) { return BlockWriter().document(value); }

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
      // yaml-cpp can itself produce bytes that are not UTF-8 (a NUL in a plain scalar; its "\N"
      // and "\_" escapes are repaired): such a document is refused too.
      KF_TRYV(checkUtf8(documents.back(),
                        "document " + std::to_string(documents.size()) + " holds a string that"));
    }
  } catch (const YAML::Exception& e) {
    return makeError(Reason::kInvalid, std::string("error parsing YAML: ") + e.what());
  }
  return documents;
}

}  // namespace kf
