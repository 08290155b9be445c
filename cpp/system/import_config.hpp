// A proxy's configuration file in, the pool and the options out: the format
// as named (--from-format) or told from the text, then that format's reader.
#pragma once
#include <optional>
#include <string_view>

#include "system/imported.hpp"

namespace slowstart::system {

// The format the text looks like, or a problem saying it cannot be told.
Problem detect_format(std::string_view text, ConfigFormat& out);

// Reads `text` in `format` (or the detected one): the pool named `pool`, or
// the reader's own choice when empty. False with `error` when it cannot,
// and then `out` holds nothing (a reader that stops may leave it half read:
// this is the one entry that clears it).
bool import_config(std::string_view text, std::optional<ConfigFormat> format, std::string_view pool,
                   ImportedConfig& out, ConfigError& error);

}  // namespace slowstart::system
