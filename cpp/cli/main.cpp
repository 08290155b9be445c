// slowstart: runs a slow-start script and prints what it prints.
//
//   slowstart [FILE | -]        stdout: output lines; stderr: "line N: ..."
//
// Exit status: 0 when every line was accepted, 1 when any line was rejected,
// 2 when the script could not be read, the output could not be written or
// the arguments are wrong (stdio.hpp: how the CLI ends when a stream fails).
// Input is streamed in chunks, so a script of any length runs in memory
// proportional to its longest line and its pool.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string_view>

#include "core/interpreter.hpp"
#include "core/text_sink.hpp"
#include "cli/grade_native.hpp"
#include "system/fit_command.hpp"
#include "system/recommend_command.hpp"
#include "system/simulate_from.hpp"
#include "traffic/simulate_command.hpp"
#include "cli/stdio.hpp"
#include "cli/usage.hpp"

#include <string>
#include <vector>

namespace {

using slowstart::cli::kUsage;
using slowstart::cli::put;

// `name`: the script's path as given, or null for standard input (a read
// error then names the file: "cannot read 'DIR': Is a directory").
int run(FILE* in, const char* name) {
  slowstart::TextSink sink;
  slowstart::Interpreter interpreter(sink);
  static char buffer[1 << 16];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, in)) > 0) {
    std::string_view rest(buffer, n);
    while (!rest.empty()) {
      rest.remove_prefix(interpreter.feed_chunk(rest));
      // Diagnostics first so that an interleaved terminal shows each one
      // near the output around it; each stream's own order is what matters.
      // A failed write stops the run: nothing after it could reach the reader.
      if (!put(sink.err, stderr) || !put(sink.out, stdout)) return slowstart::cli::write_failed();
    }
  }
  if (std::ferror(in)) {
    if (name)
      std::fprintf(stderr, "slowstart: cannot read '%s': %s\n", name, std::strerror(errno));
    else
      std::fprintf(stderr, "slowstart: read error: %s\n", std::strerror(errno));
    return 2;
  }
  interpreter.finish();
  if (!put(sink.err, stderr) || !put(sink.out, stdout)) return slowstart::cli::write_failed();
  return interpreter.rejected() > 0 ? 1 : 0;
}

// `slowstart simulate`'s script, at most `max_bytes` of it (the work budget's limit and one byte).
slowstart::Problem read_script(const std::string& path, std::size_t max_bytes, std::string& text) {
  FILE* in = stdin;
  if (!path.empty() && path != "-") {
    in = std::fopen(path.c_str(), "rb");
    if (!in) return "cannot open '" + path + "': " + std::strerror(errno);
  }
  static char buffer[1 << 16];
  std::size_t n;
  while (text.size() < max_bytes && (n = std::fread(buffer, 1, std::min(sizeof buffer, max_bytes - text.size()), in)) > 0)
    text.append(buffer, n);
  const bool failed = std::ferror(in);
  const int error = errno;
  if (in != stdin) std::fclose(in);
  if (failed)
    return in == stdin ? std::string("read error: ") + std::strerror(error)
                       : "cannot read '" + path + "': " + std::strerror(error);
  return std::nullopt;
}

int simulate(int argc, char** argv) {
  std::string out, err;
  const int status = slowstart::system::run_simulate_system(std::vector<std::string>(argv + 2, argv + argc),
                                                            read_script, out, err);
  put(err, stderr);
  put(out, stdout);  // main() checks both streams before the status counts
  return status;
}

int fit(int argc, char** argv) {
  std::string out, err;
  const int status = slowstart::system::run_fit(std::vector<std::string>(argv + 2, argv + argc), read_script, out, err);
  put(err, stderr);
  put(out, stdout);
  return status;
}

int recommend(int argc, char** argv) {
  std::string out, err;
  const int status =
      slowstart::system::run_recommend(std::vector<std::string>(argv + 2, argv + argc), read_script, out, err);
  put(err, stderr);
  put(out, stdout);
  return status;
}

int run_command(int argc, char** argv) {
  if (argc > 1 && std::string_view(argv[1]) == "simulate") return simulate(argc, argv);
  if (argc > 1 && std::string_view(argv[1]) == "fit") return fit(argc, argv);
  if (argc > 1 && std::string_view(argv[1]) == "recommend") return recommend(argc, argv);
  if (argc > 1 && std::string_view(argv[1]) == "grade")
    return slowstart::cli::grade_command(std::vector<std::string>(argv + 2, argv + argc));
  if (argc > 1 && std::string_view(argv[1]) == "tests")
    return slowstart::cli::tests_command(std::vector<std::string>(argv + 2, argv + argc));
  const char* path = nullptr;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (arg == "--version") {
      std::printf("slowstart %s\n", slowstart::cli::kVersion);
      return 0;
    }
    if (arg.size() > 1 && arg[0] == '-') {
      std::fprintf(stderr, "slowstart: unknown option '%s'\n\n%s", argv[i], kUsage);
      return 2;
    }
    if (path) {
      std::fprintf(stderr, "slowstart: one script at a time\n\n%s", kUsage);
      return 2;
    }
    path = argv[i];
  }
  if (!path || std::string_view(path) == "-") return run(stdin, nullptr);
  FILE* file = std::fopen(path, "rb");
  if (!file) {
    std::fprintf(stderr, "slowstart: cannot open '%s': %s\n", path, std::strerror(errno));
    return 2;
  }
  const int status = run(file, path);
  std::fclose(file);
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  if (!slowstart::cli::standard_streams_open()) return slowstart::cli::kCannotRun;
  const int status = run_command(argc, argv);
  if (!slowstart::cli::flush_standard_streams()) return slowstart::cli::write_failed();
  return status;
}
