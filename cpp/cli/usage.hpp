// The CLI's help text and version, shared by the native CLI and (through the
// WASM module) the Node CLI so that both print the same bytes.
#pragma once

#ifndef SLOWSTART_VERSION
#define SLOWSTART_VERSION "0.0.0"
#endif

namespace slowstart::cli {

inline constexpr const char* kVersion = SLOWSTART_VERSION;

inline constexpr const char* kUsage =
    "usage: slowstart [FILE | -]\n"
    "       slowstart simulate [options] [FILE | -]   (see slowstart simulate --help)\n"
    "       slowstart fit [options] [LOG | -]   (a canary's cold start; slowstart fit --help)\n"
    "       slowstart recommend [options] [SCRIPT | -]   (the slow-start window; --help)\n"
    "       slowstart grade [options] -- COMMAND [ARGS...]   (see slowstart grade --help)\n"
    "       slowstart tests [--out DIR]   (the built-in test suite)\n"
    "\n"
    "Runs a slow-start script (POOL, NOW, ADD, DOWN, UP, WEIGHTS, PICK) and\n"
    "prints the WEIGHTS and PICK output on stdout. Each rejected line gets a\n"
    "diagnostic on stderr starting 'line N: ' and changes nothing.\n"
    "Reads standard input when FILE is missing or '-'.\n"
    "\n"
    "Exit status: 0 all lines accepted, 1 some line rejected, 2 the script\n"
    "cannot be read or the output cannot be written (a closed pipe ends the\n"
    "run quietly by SIGPIPE).\n"
    "\n"
    "options:\n"
    "  -h, --help     show this help\n"
    "  --version      show the version\n";

}  // namespace slowstart::cli
