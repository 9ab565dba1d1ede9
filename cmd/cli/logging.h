#pragma once
// klog's command-line flags, which every KubeFed binary accepts (scripts and docs pass --v=2), and
// the process-wide logger they configure. As klog does, logs go to standard error by default;
// --logtostderr=false with --log-file writes them to that file (appended), with errors also on
// standard error (--stderrthreshold) or everything (--alsologtostderr).
//
// Accepted but not honoured, said once at -v 1: --vmodule, --log-dir, --log-file-max-size,
// --add-dir-header, --log-backtrace-at (they name klog's Go source files or its file rotation).

#include <string>
#include <vector>

#include "apis/meta/api_error.h"
#include "cmd/cli/flags.h"

namespace kf::cli {

struct LogOptions {
  std::string verbosity = "0";
  bool logtostderr = true;
  bool alsologtostderr = false;
  std::string log_file;
  std::string log_dir;
  std::string log_file_max_size = "1800";
  bool skip_headers = false;
  bool skip_log_headers = false;
  bool add_dir_header = false;
  bool one_output = false;
  std::string stderrthreshold = "2";
  std::string vmodule;
  std::string log_backtrace_at = ":0";

  void addTo(FlagSet& flags);
};

// What the flags mean once checked.
struct LogSettings {
  int verbosity = 0;
  std::string file;                // "" = no log file
  bool to_stderr = true;           // every line on standard error
  int stderr_threshold = 2;        // with a file: klog severities at or above go to stderr too
  bool headers = true;             // klog's "I1125 10:00:00.000000   1234] " prefix
  std::vector<std::string> notes;  // flags accepted but not honoured, and why
};

// Checks the values; errors name the flag as pflag does.
Result<LogSettings> logSettings(const LogOptions& options);

// Installs the process-wide logger (spdlog's default) and, at verbosity >= 1, logs the notes.
// Fails when the log file cannot be opened.
Status setUpLogging(const LogSettings& settings);

}  // namespace kf::cli
