#include "core/args.hpp"

#include <cmath>
#include <cstdlib>

namespace slowstart {

bool ArgReader::next() {
  if (started_) ++at_;
  started_ = true;
  matched_.clear();
  short_ = 0;
  if (!positional_ && at_ < args_.size() && args_[at_] == "--") {
    positional_ = true;
    ++at_;
  }
  return at_ < args_.size();
}

bool ArgReader::option() const {
  const std::string& a = args_[at_];
  return !positional_ && a.size() > 1 && a[0] == '-';
}

std::string_view ArgReader::name() const {
  const std::string_view a = args_[at_];
  if (a.rfind("--", 0) == 0) return a.substr(0, a.find('='));
  return a.substr(0, 2);
}

bool ArgReader::is(std::string_view long_name, std::string_view short_name) {
  if (!option()) return false;
  const std::string_view a = args_[at_];
  if (name() == long_name) {
    matched_ = long_name;
    short_ = 0;
    return true;
  }
  if (short_name.empty() || a.rfind(short_name, 0) != 0 || a.rfind("--", 0) == 0) return false;
  matched_ = long_name;
  short_ = short_name.size();
  return true;
}

Problem ArgReader::value(std::string& out) {
  const std::string& a = args_[at_];
  const std::size_t written = short_ ? short_ : matched_.size();
  if (a.size() > written) {  // "-j4", "--jobs=4"
    out = a.substr(short_ ? written : written + 1);
    return std::nullopt;
  }
  if (at_ + 1 >= args_.size()) return matched_ + " needs a value";
  out = args_[++at_];
  return std::nullopt;
}

Problem ArgReader::flag() const {
  if (args_[at_].size() > name().size()) return std::string(name()) + " takes no value";
  return std::nullopt;
}

std::vector<std::string> ArgReader::rest() const {
  if (at_ >= args_.size()) return {};
  return {args_.begin() + static_cast<std::ptrdiff_t>(at_), args_.end()};
}

Problem ArgReader::unknown() const { return "unknown option " + quote(args_[at_]); }

Problem ArgReader::invalid(std::string_view takes, std::string_view got) const {
  return matched_ + " takes " + std::string(takes) + ", got " + quote(got);
}

Problem ArgReader::unexpected() const { return "unexpected argument " + quote(args_[at_]); }

bool parse_whole(std::string_view text, std::uint64_t max, std::uint64_t& out) {
  if (text.empty() || text.size() > 20) return false;
  std::uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  if (v > max) return false;
  out = v;
  return true;
}

bool parse_real(const std::string& text, double& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size() && std::isfinite(out);
}

}  // namespace slowstart
