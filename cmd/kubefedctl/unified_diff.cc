#include "cmd/kubefedctl/unified_diff.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace kf::kubefedctl {
namespace {

std::vector<std::string> splitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::string::size_type start = 0;
  while (start < text.size()) {
    const auto end = text.find('\n', start);
    if (end == std::string::npos) {
      lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

struct Edit {
  char mark;  // ' ' kept, '-' removed, '+' added
  std::string line;
};

// The edit script of a longest common subsequence. Objects print to a few hundred lines, so the
// quadratic table is small enough.
std::vector<Edit> editScript(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  const std::size_t n = a.size();
  const std::size_t m = b.size();
  // common[i][j]: length of the longest common subsequence of a[i..] and b[j..].
  std::vector<std::vector<std::uint32_t>> common(n + 1, std::vector<std::uint32_t>(m + 1, 0));
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t j = m; j-- > 0;) {
      common[i][j] =
          a[i] == b[j] ? common[i + 1][j + 1] + 1 : std::max(common[i + 1][j], common[i][j + 1]);
    }
  }
  std::vector<Edit> edits;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] == b[j]) {
      edits.push_back({' ', a[i++]});
      ++j;
    } else if (j < m && (i == n || common[i][j + 1] >= common[i + 1][j])) {
      edits.push_back({'+', b[j++]});
    } else {
      edits.push_back({'-', a[i++]});
    }
  }
  // Removals before additions within a run of changes, as diff prints them.
  for (std::size_t k = 0; k < edits.size();) {
    if (edits[k].mark == ' ') {
      ++k;
      continue;
    }
    std::size_t end = k;
    while (end < edits.size() && edits[end].mark != ' ') ++end;
    std::stable_partition(edits.begin() + static_cast<std::ptrdiff_t>(k),
                          edits.begin() + static_cast<std::ptrdiff_t>(end),
                          [](const Edit& e) { return e.mark == '-'; });
    k = end;
  }
  return edits;
}

// "a,b" as diff prints a range: the count left out when it is 1; an empty range names the line
// before it.
std::string range(std::size_t start, std::size_t count) {
  if (count == 1) return std::to_string(start + 1);
  return std::to_string(count == 0 ? start : start + 1) + "," + std::to_string(count);
}

// Prints the hunk of edits [begin, end); old_line/new_line are the 0-based lines it starts at.
void printHunk(const std::vector<Edit>& edits, std::size_t begin, std::size_t end,
               std::size_t old_line, std::size_t new_line, std::string& out) {
  std::size_t old_count = 0;
  std::size_t new_count = 0;
  for (std::size_t k = begin; k < end; ++k) {
    if (edits[k].mark != '+') ++old_count;
    if (edits[k].mark != '-') ++new_count;
  }
  out += "@@ -" + range(old_line, old_count) + " +" + range(new_line, new_count) + " @@\n";
  for (std::size_t k = begin; k < end; ++k) out += edits[k].mark + edits[k].line + "\n";
}

}  // namespace

std::string unifiedDiff(const std::string& from_text, const std::string& to_text,
                        const std::string& from_label, const std::string& to_label, int context) {
  const std::vector<Edit> edits = editScript(splitLines(from_text), splitLines(to_text));
  const auto width = static_cast<std::size_t>(std::max(context, 0));
  std::string out;
  std::size_t old_line = 0;  // lines of each side before edits[k]
  std::size_t new_line = 0;
  std::size_t k = 0;
  while (k < edits.size()) {
    if (edits[k].mark == ' ') {
      ++old_line;
      ++new_line;
      ++k;
      continue;
    }
    // A hunk: back up `width` kept lines, then run until more than 2*width kept lines in a row.
    const std::size_t lead = std::min(width, std::min(k, old_line));
    std::size_t begin = k - lead;
    std::size_t end = k;
    std::size_t kept_run = 0;
    while (end < edits.size() && kept_run <= 2 * width) {
      kept_run = edits[end].mark == ' ' ? kept_run + 1 : 0;
      ++end;
    }
    if (kept_run > width) end -= kept_run - width;  // keep `width` trailing lines
    if (out.empty()) out = "--- " + from_label + "\n+++ " + to_label + "\n";
    printHunk(edits, begin, end, old_line - lead, new_line - lead, out);
    for (std::size_t e = k; e < end; ++e) {
      if (edits[e].mark != '+') ++old_line;
      if (edits[e].mark != '-') ++new_line;
    }
    k = end;
  }
  return out;
}

}  // namespace kf::kubefedctl
