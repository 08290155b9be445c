// A canary restart's requests, as the fit reads them: when each started
// (seconds since the backend started), how long it took, and how many of
// the backend's requests were in flight when it started.
//
// From a CSV file (RFC 4180: a header row naming at least `t` and
// `latency_ms`, optionally `in_flight`, other columns ignored; quoted
// fields with "" inside, CRLF or LF) or from the proxy's own access log
// (access_log.hpp).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace slowstart::system {

struct CanaryRow {
  double t = 0;           // seconds since the backend started
  double latency_ms = 0;  // how long the backend took
  double in_flight = -1;  // the backend's requests in flight as it started (-1: not known)
};

struct CanaryLog {
  std::vector<CanaryRow> rows;  // in order of t
  bool has_in_flight = false;
  std::vector<std::string> notes;  // how it was read (for the summary)
};

// The most rows the fit reads (5,000,000: 120 MB of rows at most).
inline constexpr std::size_t kMaxCanaryRows = 5'000'000;

// The largest number a row may hold (t in seconds, latency_ms, in_flight):
// a billion (a latency of 11.6 days, a log of 31 years). Past it no log is
// real, and the fit's sums of squares would overflow to infinity (a
// latency of 1e201 ms fitted to NaN: a fuzzer's find).
inline constexpr double kMaxCanaryValue = 1e9;

// Reads the CSV; false with a message that names the line ("line 7:
// latency_ms must be a number above 0, got 'x'") when it cannot.
bool read_canary_csv(std::string_view text, CanaryLog& out, std::string& error);

// Sorts the rows by t (keeping the order of equal ones).
void sort_by_time(CanaryLog& log);

// Fills in_flight from the rows themselves: the requests that started
// before a row and had not ended when it started (the log must hold all of
// the backend's requests).
void count_in_flight(CanaryLog& log);

}  // namespace slowstart::system
