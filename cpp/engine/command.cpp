#include "decimal.hpp"
#include "command.hpp"


#include "limits.hpp"
#include "name_table.hpp"

namespace slowstart {

namespace {

struct Keyword {
  std::string_view word;
  Op op;
  std::string_view usage;
  std::size_t min_args, max_args;  // max_args == SIZE_MAX: any number
};

constexpr Keyword kKeywords[] = {
    {"POOL", Op::Pool, "POOL <name>=<weight> ...", 0, SIZE_MAX},
    {"NOW", Op::Now, "NOW <seconds>", 1, 1},
    {"ADD", Op::Add, "ADD <name>=<weight> <ramp>", 2, 2},
    {"DOWN", Op::Down, "DOWN <name>", 1, 1},
    {"UP", Op::Up, "UP <name> <ramp>", 2, 2},
    {"WEIGHTS", Op::Weights, "WEIGHTS", 0, 0},
    {"PICK", Op::Pick, "PICK", 0, 0},
};

const Keyword* find_keyword(std::string_view word) {
  for (const Keyword& k : kKeywords)
    if (k.word == word) return &k;
  return nullptr;
}

std::string upper_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return out;
}

}  // namespace

std::string_view usage(Op op) {
  for (const Keyword& k : kKeywords)
    if (k.op == op) return k.usage;
  return {};
}

void tokenize(std::string_view line, std::vector<std::string_view>& tokens) {
  tokens.clear();
  std::size_t i = 0;
  const std::size_t n = line.size();
  while (i < n) {
    while (i < n && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < n && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) tokens.push_back(line.substr(start, i - start));
  }
}

bool is_ignored(const std::vector<std::string_view>& tokens) {
  return tokens.empty() || tokens[0][0] == '#';
}

Problem parse_entry(std::string_view token, PoolEntry& out) {
  const std::size_t eq = token.find('=');
  if (eq == std::string_view::npos)
    return "expected <name>=<weight>, got " + quote(token);
  const std::string_view name = token.substr(0, eq);
  const std::string_view weight = token.substr(eq + 1);
  if (name.empty()) return "backend name is empty in " + quote(token);
  if (weight.find('=') != std::string_view::npos)
    return "expected one '=' in <name>=<weight>, got " + quote(token);
  if (Problem p = check_name(name)) return p;
  if (Problem p = parse_quantity(weight, Quantity::Weight, out.weight)) return p;
  out.name.assign(name);
  return std::nullopt;
}

Problem parse_command(const std::vector<std::string_view>& tokens, Command& out) {
  const std::string_view word = tokens[0];
  const Keyword* k = find_keyword(word);
  if (!k) {
    const Keyword* hint = find_keyword(upper_ascii(word));
    std::string msg = "unknown command " + quote(word);
    if (hint) msg += " (use " + std::string(hint->word) + ")";
    return msg;
  }
  const std::size_t args = tokens.size() - 1;
  if (args < k->min_args)
    return "missing argument (usage: " + std::string(k->usage) + ")";
  if (args > k->max_args)
    return "unexpected argument " + quote(tokens[k->max_args + 1]) +
           " (usage: " + std::string(k->usage) + ")";
  out.op = k->op;
  switch (k->op) {
    case Op::Pool: {
      if (args > kMaxBackends)
        return "a pool holds at most " + decimal(kMaxBackends) + " backends";
      out.entries.clear();
      out.entries.reserve(args);
      NameTable seen;
      seen.clear(args);
      const auto name_of = [&](std::uint32_t k) { return std::string_view(out.entries[k].name); };
      for (std::size_t i = 1; i < tokens.size(); ++i) {
        PoolEntry e;
        if (Problem p = parse_entry(tokens[i], e)) return p;
        const auto k = static_cast<std::uint32_t>(out.entries.size());
        out.entries.push_back(std::move(e));
        if (seen.insert(out.entries[k].name, k, name_of) != k)
          return "duplicate backend name " + quote(out.entries[k].name) + " in POOL";
      }
      return std::nullopt;
    }
    case Op::Now:
      return parse_quantity(tokens[1], Quantity::Time, out.seconds);
    case Op::Add: {
      PoolEntry e;
      if (Problem p = parse_entry(tokens[1], e)) return p;
      if (Problem p = parse_quantity(tokens[2], Quantity::Ramp, out.seconds)) return p;
      out.name = std::move(e.name);
      out.weight = e.weight;
      return std::nullopt;
    }
    case Op::Down:
      out.name.assign(tokens[1]);
      return std::nullopt;
    case Op::Up:
      out.name.assign(tokens[1]);
      return parse_quantity(tokens[2], Quantity::Ramp, out.seconds);
    case Op::Weights:
    case Op::Pick:
      return std::nullopt;
  }
  return std::nullopt;
}

Problem apply(Pool& pool, Command& cmd) {
  switch (cmd.op) {
    case Op::Pool:
      pool.replace(std::move(cmd.entries));
      return std::nullopt;
    case Op::Now:
      pool.set_now(cmd.seconds);
      return std::nullopt;
    case Op::Add:
      if (!pool.contains(cmd.name) && pool.size() >= kMaxBackends)
        return "a pool holds at most " + decimal(kMaxBackends) + " backends";
      pool.add(cmd.name, cmd.weight, cmd.seconds);  // a copy: sinks still read cmd.name
      return std::nullopt;
    case Op::Down:
      if (!pool.down(cmd.name)) return "no backend named " + quote(cmd.name);
      return std::nullopt;
    case Op::Up:
      if (!pool.up(cmd.name, cmd.seconds)) return "no backend named " + quote(cmd.name);
      return std::nullopt;
    case Op::Weights:
    case Op::Pick:
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace slowstart
