// slowstart: runs a slow-start script and prints what it prints.
//
//   slowstart [FILE | -]        stdout: output lines; stderr: "line N: ..."
//
// Exit status: 0 when every line was accepted, 1 when any line was rejected,
// 2 when the script could not be read or the arguments are wrong.
// Input is streamed line by line, so a script of any length runs in memory
// proportional to its longest line and its pool.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>

#include "../engine/interpreter.hpp"

#ifndef SLOWSTART_VERSION
#define SLOWSTART_VERSION "0.0.0"
#endif

namespace {

constexpr const char* kUsage =
    "usage: slowstart [FILE | -]\n"
    "\n"
    "Runs a slow-start script (POOL, NOW, ADD, DOWN, UP, WEIGHTS, PICK) and\n"
    "prints the WEIGHTS and PICK output on stdout. Each rejected line gets a\n"
    "diagnostic on stderr starting 'line N: ' and changes nothing.\n"
    "Reads standard input when FILE is missing or '-'.\n"
    "\n"
    "Exit status: 0 all lines accepted, 1 some line rejected, 2 cannot run.\n"
    "\n"
    "options:\n"
    "  -h, --help     show this help\n"
    "  --version      show the version\n";

class StdioSink : public slowstart::ScriptSink {
 public:
  void output(std::uint64_t, std::string_view text) override {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fputc('\n', stdout);
  }
  void diagnostic(std::uint64_t line, std::string_view message) override {
    std::fprintf(stderr, "line %llu: %.*s\n", static_cast<unsigned long long>(line),
                 static_cast<int>(message.size()), message.data());
  }
};

int run(std::istream& in) {
  StdioSink sink;
  slowstart::Interpreter interpreter(sink);
  std::string line;
  while (std::getline(in, line)) interpreter.feed_line(line);
  if (in.bad()) {
    std::fprintf(stderr, "slowstart: read error\n");
    return 2;
  }
  std::fflush(stdout);
  return interpreter.rejected() > 0 ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  static char out_buffer[1 << 16];
  std::setvbuf(stdout, out_buffer, _IOFBF, sizeof out_buffer);

  const char* path = nullptr;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (arg == "--version") {
      std::printf("slowstart %s\n", SLOWSTART_VERSION);
      return 0;
    }
    if (arg.size() > 1 && arg[0] == '-') {
      std::fprintf(stderr, "slowstart: unknown option '%s'\n%s", argv[i], kUsage);
      return 2;
    }
    if (path) {
      std::fprintf(stderr, "slowstart: one script at a time\n%s", kUsage);
      return 2;
    }
    path = argv[i];
  }
  if (!path || std::string_view(path) == "-") return run(std::cin);
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    std::fprintf(stderr, "slowstart: cannot open '%s': %s\n", path, std::strerror(errno));
    return 2;
  }
  return run(file);
}
