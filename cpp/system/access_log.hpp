// A proxy's own access log as a canary log (canary_log.hpp): the requests
// one backend (the canary) served, when each started and how long the
// backend took. docs/YOUR-SYSTEM.md gives each proxy's log line.
//
//   nginx    log_format canary '$msec $upstream_addr $upstream_response_time $upstream_status';
//            (or any format with $msec or [$time_local] then $upstream_addr then
//            $upstream_response_time, or key=value fields urt= / upstream_response_time=,
//            or JSON lines with those names). A request tried on several servers
//            ("a:80, b:80" / "0.500, 0.012") gives one row per attempt on the
//            canary, each started at $msec minus the times of it and the later tries.
//   haproxy  option httplog (the default HTTP log): the accept date, backend/server
//            and the timers TR/Tw/Tc/Tr/Ta; the backend's time is Tr, its start
//            accept + TR + Tw + Tc.
//   envoy    the default access log ([%START_TIME%] ... %DURATION%
//            %RESP(X-ENVOY-UPSTREAM-SERVICE-TIME)% ... "%UPSTREAM_HOST%"),
//            "[%START_TIME%] %UPSTREAM_HOST% %RESPONSE_DURATION%", or JSON lines
//            (start_time, upstream_host, response_duration).
//
// t is counted from `started` (seconds since the epoch) when given, else
// from the canary's first request; in_flight is counted from the rows.
#pragma once
#include <string>
#include <string_view>

#include "core/validate.hpp"
#include "system/canary_log.hpp"

namespace slowstart::system {

enum class LogFormat { Nginx, HAProxy, Envoy };
Problem parse_log_format(std::string_view text, LogFormat& out);

struct AccessLogOptions {
  LogFormat format = LogFormat::Nginx;
  std::string backend;   // the canary's address or name; empty: the log's only one
  double started = -1;   // when the canary started, seconds since the epoch; < 0: its first request
};

// False with a message naming the line when the log cannot be read.
bool read_access_log(std::string_view text, const AccessLogOptions& options, CanaryLog& out, std::string& error);

// Seconds since the epoch of a civil date and time (UTC), for the logs'
// time stamps.
double epoch_seconds(int year, int month, int day, int hour, int minute, double second);

}  // namespace slowstart::system
