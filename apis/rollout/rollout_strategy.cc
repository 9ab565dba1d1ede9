#include "apis/rollout/rollout_strategy.h"

#include <set>
#include <utility>

#include "apis/meta/duration.h"
#include "apis/meta/json_reader.h"

namespace kf::rollout {

using meta::FieldPath;
using meta::ObjectReader;

namespace {

// A Go duration >= 0; absent keeps `fallback`.
std::chrono::nanoseconds readDuration(ObjectReader& reader, std::string_view key,
                                      std::chrono::nanoseconds fallback, meta::ErrorList& errors) {
  Result<std::optional<std::string>> text = reader.optString(key);
  if (!text) {
    errors.push_back(meta::invalid(reader.path(key), meta::BadValue::bare("?"), "expected string"));
    return fallback;
  }
  if (!text.value()) return fallback;
  const std::optional<std::chrono::nanoseconds> value = meta::parseGoDuration(*text.value());
  if (!value || value->count() < 0) {
    errors.push_back(meta::invalid(reader.path(key), meta::BadValue::quoted(*text.value()),
                                   "must be a duration of 0 or more, like \"90s\" or \"5m\""));
    return fallback;
  }
  return *value;
}

Result<Stage> readStage(const Json& json, const FieldPath& path, meta::ErrorList& errors) {
  KF_TRY(reader, ObjectReader::open(json, path));
  Stage stage;
  KF_TRY(name, reader.string("name"));
  stage.name = std::move(name);
  if (stage.name.empty()) {
    errors.push_back(meta::required(reader.path("name"), "every stage needs a name"));
  }
  const Json* selector = reader.plainValue("clusterSelector");
  if (selector == nullptr) {
    errors.push_back(meta::required(reader.path("clusterSelector"),
                                    "{} selects every cluster; a stage must say which it takes"));
  } else {
    KF_TRY(read, meta::readLabelSelector(*selector, reader.path("clusterSelector")));
    Result<meta::CompiledLabelSelector> compiled =
        meta::compileLabelSelector(read, reader.path("clusterSelector"));
    if (!compiled) {
      errors.push_back(meta::invalid(reader.path("clusterSelector"), meta::BadValue::bare("{...}"),
                                     compiled.error().message));
    }
    stage.cluster_selector = std::move(read);
  }
  KF_TRY(max_concurrency, reader.optInt64("maxConcurrency"));
  if (max_concurrency && *max_concurrency < 1) {
    errors.push_back(meta::invalid(reader.path("maxConcurrency"),
                                   meta::BadValue::number(*max_concurrency),
                                   "must be 1 or more (leave it out to update the whole stage)"));
  }
  stage.max_concurrency = max_concurrency;
  stage.soak_time = readDuration(reader, "soakTime", std::chrono::nanoseconds{0}, errors);
  KF_TRY(approval, reader.boolean("requireApproval"));
  stage.require_approval = approval;
  return stage;
}

void checkUniqueNames(const std::vector<Stage>& stages, const FieldPath& path,
                      meta::ErrorList& errors) {
  std::set<std::string> seen;
  for (std::size_t i = 0; i < stages.size(); ++i) {
    if (!stages[i].name.empty() && !seen.insert(stages[i].name).second) {
      errors.push_back(meta::duplicate(path.index(i).child("name"), stages[i].name));
    }
  }
}

OnFailure readOnFailure(const std::string& text, const FieldPath& path, meta::ErrorList& errors) {
  if (text.empty() || text == "Pause") return OnFailure::kPause;
  if (text == "Rollback") return OnFailure::kRollback;
  errors.push_back(meta::notSupported(path, text, {"Pause", "Rollback"}));
  return OnFailure::kPause;
}

}  // namespace

Result<RolloutStrategySpec> readRolloutStrategySpec(const Json& spec, const FieldPath& path) {
  KF_TRY(reader, ObjectReader::open(spec, path));
  meta::ErrorList errors;
  RolloutStrategySpec out;
  const Json* stages = reader.plainValue("stages");
  if (stages == nullptr || (stages->is_array() && stages->empty())) {
    errors.push_back(meta::required(reader.path("stages"), "list the stages in rollout order"));
  } else {
    if (!stages->is_array()) return meta::decodeError(reader.path("stages"), "expected array");
    for (std::size_t i = 0; i < stages->size(); ++i) {
      KF_TRY(stage, readStage((*stages)[i], reader.path("stages").index(i), errors));
      out.stages.push_back(std::move(stage));
    }
    checkUniqueNames(out.stages, reader.path("stages"), errors);
  }
  out.progress_deadline =
      readDuration(reader, "progressDeadline", kDefaultProgressDeadline, errors);
  if (out.progress_deadline.count() == 0) {
    errors.push_back(meta::invalid(reader.path("progressDeadline"), meta::BadValue::quoted("0s"),
                                   "must be more than 0"));
  }
  KF_TRY(on_failure, reader.string("onFailure"));
  out.on_failure = readOnFailure(on_failure, reader.path("onFailure"), errors);
  if (!errors.empty()) return makeError(Reason::kInvalid, meta::aggregate(errors));
  return out;
}

Result<RolloutStrategySpec> rolloutStrategyOf(const Json& object) {
  const Json* spec = nestedField(object, {"spec"});
  Result<RolloutStrategySpec> read =
      readRolloutStrategySpec(spec != nullptr ? *spec : Json(), FieldPath("spec"));
  if (!read) {
    ApiError error = read.error();
    error.message = "RolloutStrategy " + meta::goQuote(objectKey(object)) + ": " + error.message;
    return error;
  }
  return read;
}

const char* onFailureName(OnFailure on_failure) {
  return on_failure == OnFailure::kRollback ? "Rollback" : "Pause";
}

}  // namespace kf::rollout
