#include "federation/client/token_file.h"

#include <cctype>
#include <fstream>
#include <sstream>

namespace kf {
namespace {

constexpr auto kTokenFileRefresh = std::chrono::minutes(1);

// The token in the file, without surrounding whitespace; "" when it cannot be read or is empty.
std::string tokenInFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  std::ostringstream contents;
  contents << in.rdbuf();
  std::string text = contents.str();
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

}  // namespace

TokenFile::TokenFile(std::string path, std::string initial, Clock& clock)
    : path_(std::move(path)), clock_(clock), token_(std::move(initial)) {}

void TokenFile::rereadLocked() {
  std::string token = tokenInFile(path_);
  if (!token.empty()) token_ = std::move(token);
  read_at_ = clock_.now();
  ever_read_ = true;
}

std::string TokenFile::token() {
  MutexLock lock(mu_);
  if (!ever_read_ || clock_.now() - read_at_ >= kTokenFileRefresh) rereadLocked();
  return token_;
}

bool TokenFile::rereadAfterRejection(const std::string& rejected) {
  MutexLock lock(mu_);
  rereadLocked();
  return token_ != rejected;
}

}  // namespace kf
