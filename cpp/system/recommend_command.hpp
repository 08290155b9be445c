// `slowstart recommend [--from FILE] [simulate options] SCRIPT`: the
// shortest slow-start window for the scenario (recommend.hpp), as a report
// or (--json) one JSON object. Shared by both CLIs (the Node CLI's through
// the lab module).
//
// The cold start comes from --fit FILE (`slowstart fit --json`'s object:
// the numbers and their bands), or from simulate's own --service-ms,
// --cold-factor, --warmup / --warm-by requests --warmup-requests, with
// --service-ms-band, --cold-factor-band, --warmup-band LO,HI for bands.
//
//   stdout   the option to pass (--slow-start S), or with --json one JSON object
//   stderr   the report: the window, the corners, the table, what matters more
//   status   0 a window found, 1 none helps (the report says why and what
//            would), 2 bad arguments, an unreadable file, a scenario too large
#pragma once
#include <string>
#include <vector>

#include "system/fit_command.hpp"

namespace slowstart::system {

extern const char* const kRecommendUsage;

int run_recommend(const std::vector<std::string>& args, const FileReader& read, std::string& out, std::string& err);

}  // namespace slowstart::system
