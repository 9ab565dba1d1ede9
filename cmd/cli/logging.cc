#include "cmd/cli/logging.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>

namespace kf::cli {
namespace {

ApiError badFlag(const std::string& display, const std::string& value, const std::string& why) {
  return makeError(Reason::kBadConfig,
                   "invalid argument \"" + value + "\" for \"" + display + "\" flag: " + why);
}

Result<int> parseLevel(const std::string& display, const std::string& text) {
  int value = 0;
  const char* begin = text.data() + (!text.empty() && text.front() == '+' ? 1 : 0);
  auto [end, ec] = std::from_chars(begin, text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    return badFlag(display, text, "strconv.ParseInt: parsing \"" + text + "\": invalid syntax");
  }
  return value;
}

// klog's severity names or numbers: INFO 0, WARNING 1, ERROR 2, FATAL 3.
Result<int> parseSeverity(const std::string& text) {
  std::string upper = text;
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  const char* names[] = {"INFO", "WARNING", "ERROR", "FATAL"};
  for (int i = 0; i < 4; ++i) {
    if (upper == names[i]) return i;
  }
  auto number = parseLevel("--stderrthreshold", text);
  if (number && number.value() >= 0 && number.value() <= 3) return number.value();
  return badFlag("--stderrthreshold", text, "unknown severity (INFO, WARNING, ERROR or FATAL)");
}

// The notes for flags we accept but cannot honour (klog ties them to Go source files, its own
// file naming and rotation).
std::vector<std::string> ignoredFlagNotes(const LogOptions& o) {
  std::vector<std::string> notes;
  if (!o.vmodule.empty()) {
    notes.push_back(
        "--vmodule is accepted but ignored: per-file verbosity names Go source files; "
        "use -v for the verbosity of every line");
  }
  if (!o.log_dir.empty()) {
    notes.push_back("--log-dir is accepted but ignored: use --log-file to log to a file");
  }
  if (o.log_file_max_size != "1800") {
    notes.push_back("--log-file-max-size is accepted but ignored: the log file is not rotated");
  }
  if (o.add_dir_header) {
    notes.push_back("--add-dir-header is accepted but ignored: log lines carry no source file");
  }
  if (o.log_backtrace_at != ":0" && !o.log_backtrace_at.empty()) {
    notes.push_back("--log-backtrace-at is accepted but ignored: log lines carry no source line");
  }
  if (!o.logtostderr && o.log_file.empty()) {
    notes.push_back(
        "--logtostderr=false without --log-file: logging to standard error (klog's "
        "per-severity files in --log-dir are not written)");
  }
  return notes;
}

// klog's severity letter: I for every verbosity level, W, E, F.
class KlogSeverity : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&,
              spdlog::memory_buf_t& dest) override {
    char letter = 'I';
    if (msg.level == spdlog::level::warn) letter = 'W';
    if (msg.level == spdlog::level::err) letter = 'E';
    if (msg.level == spdlog::level::critical) letter = 'F';
    dest.push_back(letter);
  }
  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<KlogSeverity>();
  }
};

std::unique_ptr<spdlog::formatter> formatter(bool headers) {
  auto out = std::make_unique<spdlog::pattern_formatter>();
  // klog's header: severity, month and day, time with microseconds, process id, "] ".
  out->add_flag<KlogSeverity>('*').set_pattern(headers ? "%*%m%d %H:%M:%S.%f %7P] %v" : "%v");
  return out;
}

spdlog::level::level_enum stderrLevel(int klog_severity) {
  switch (klog_severity) {
    case 0:
      return spdlog::level::trace;
    case 1:
      return spdlog::level::warn;
    case 2:
      return spdlog::level::err;
    default:
      return spdlog::level::critical;
  }
}

spdlog::level::level_enum levelFor(int verbosity) {
  if (verbosity >= 6) return spdlog::level::trace;
  if (verbosity >= 4) return spdlog::level::debug;
  return spdlog::level::info;
}

}  // namespace

void LogOptions::addTo(FlagSet& flags) {
  flags.addBool("add-dir-header", 0, &add_dir_header,
                "If true, adds the file directory to the header of the log messages");
  flags.addBool("alsologtostderr", 0, &alsologtostderr, "log to standard error as well as files");
  flags.addString("log-backtrace-at", 0, &log_backtrace_at,
                  "when logging hits line file:N, emit a stack trace", "traceLocation");
  flags.addString("log-dir", 0, &log_dir, "If non-empty, write log files in this directory");
  flags.addString("log-file", 0, &log_file, "If non-empty, use this log file");
  flags.addString("log-file-max-size", 0, &log_file_max_size,
                  "Defines the maximum size a log file can grow to. Unit is megabytes. If the "
                  "value is 0, the maximum file size is unlimited.",
                  "uint");
  flags.addBool("logtostderr", 0, &logtostderr, "log to standard error instead of files");
  flags.addBool("one-output", 0, &one_output,
                "If true, only write logs to their native severity level (vs also writing to each "
                "lower severity level)");
  flags.addBool("skip-headers", 0, &skip_headers,
                "If true, avoid header prefixes in the log messages");
  flags.addBool("skip-log-headers", 0, &skip_log_headers,
                "If true, avoid headers when opening log files");
  flags.addString("stderrthreshold", 0, &stderrthreshold,
                  "logs at or above this threshold go to stderr", "severity");
  flags.addString("v", 'v', &verbosity, "number for the log level verbosity", "Level");
  flags.addString("vmodule", 0, &vmodule,
                  "comma-separated list of pattern=N settings for file-filtered logging",
                  "moduleSpec");
}

Result<LogSettings> logSettings(const LogOptions& options) {
  LogSettings settings;
  KF_TRY(verbosity, parseLevel("-v, --v", options.verbosity));
  KF_TRY(threshold, parseSeverity(options.stderrthreshold));
  if (!options.log_file_max_size.empty()) {
    KF_TRY(max_size, parseLevel("--log-file-max-size", options.log_file_max_size));
    (void)max_size;
  }
  settings.verbosity = verbosity;
  settings.stderr_threshold = threshold;
  settings.headers = !options.skip_headers;
  settings.to_stderr = options.logtostderr || options.log_file.empty() || options.alsologtostderr;
  if (!options.logtostderr) settings.file = options.log_file;
  settings.notes = ignoredFlagNotes(options);
  return settings;
}

Status setUpLogging(const LogSettings& settings) {
  std::vector<spdlog::sink_ptr> sinks;
  if (!settings.file.empty()) {
    try {
      sinks.push_back(
          std::make_shared<spdlog::sinks::basic_file_sink_mt>(settings.file, /*truncate=*/false));
    } catch (const spdlog::spdlog_ex& e) {
      return makeError(Reason::kBadConfig,
                       "cannot open the --log-file \"" + settings.file + "\": " + e.what());
    }
  }
  auto to_stderr = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  if (!settings.to_stderr) to_stderr->set_level(stderrLevel(settings.stderr_threshold));
  sinks.push_back(to_stderr);
  auto logger = std::make_shared<spdlog::logger>("", sinks.begin(), sinks.end());
  logger->set_formatter(formatter(settings.headers));
  logger->set_level(levelFor(settings.verbosity));
  // Every line is on disk or the terminal before the process can exit or crash.
  logger->flush_on(spdlog::level::trace);
  spdlog::set_default_logger(logger);
  if (settings.verbosity >= 1) {
    for (const auto& note : settings.notes) spdlog::info("{}", note);
  }
  return boost::outcome_v2::success();
}

}  // namespace kf::cli
