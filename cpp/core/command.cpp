#include "fast/decimal.hpp"
#include "core/command.hpp"
#include "fast/line_scan.hpp"
#include "fast/short_bytes.hpp"

#include <algorithm>
#include <cstring>

namespace slowstart {

namespace {

// Keywords are found by comparing integers, not strings (no memcmp call
// per keyword, which in WebAssembly is a byte loop): line_scan::key(), the
// encoding the interpreter's fast path uses too, of each word in the table.
static_assert(kShortestKeyword >= 2 && kLongestKeyword <= 7, "line_scan::key() holds words of 2 ... 7 bytes");
constexpr auto kPacked = [] {
  std::array<std::uint64_t, std::size(kKeywords)> keys{};
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = line_scan::key(kKeywords[i].word);
  return keys;
}();

// `key` is line_scan::key() of a word (its bytes and its length).
const Keyword* find_keyword(std::uint64_t key) {
  for (std::size_t i = 0; i < kPacked.size(); ++i)
    if (kPacked[i] == key) return &kKeywords[i];
  return nullptr;
}

const Keyword* find_keyword(std::string_view word) {
  return word.size() > kLongestKeyword ? nullptr : find_keyword(line_scan::key(word));
}

// A keyword written in another case, for the hint "(use PICK)".
const Keyword* find_hint(std::string_view word) {
  if (word.size() > kLongestKeyword) return nullptr;
  char upper[kLongestKeyword];
  for (std::size_t i = 0; i < word.size(); ++i) {
    const char c = word[i];
    upper[i] = c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
  }
  return find_keyword(std::string_view(upper, word.size()));
}

// Names are checked as they grow once they pass this many bytes, so that a
// huge token that is no name is not kept whole.
constexpr std::size_t kCheckNamesFrom = 4096;

void append_usage(Message& m, const Keyword& k) {
  m.append(" (usage: ");
  m.append(k.usage);
  m.append(")");
}

void pool_is_full(Message& m) {
  m.assign("a pool holds at most ");
  m.append_decimal(kMaxBackends);
  m.append(" backends");
}

}  // namespace

void TokenHead::add(std::string_view piece) {
  const std::size_t n = std::min(piece.size(), kBytes - size_);
  copy_short(bytes_ + size_, piece.data(), n);
  size_ += n;
}

// ---------------------------------------------------------------------------
// LineParser

SLOWSTART_HOT void LineParser::begin(std::size_t longest_name) {
  longest_name_ = longest_name;
  keyword_ = nullptr;
  tokens_ = 0;
  open_ = done_ = ignored_ = settled_ = has_problem_ = false;
  problem_span_ = first_argument_ = Span{};
  line_from_ = last_to_ = 0;
  cmd_.entries.clear();
  cmd_.name.clear();
  cmd_.name_cut = false;
}

// A problem found: where to write its message, or nullptr when it is not
// the line's. The first problem in reading order is, unless a settled one
// (the keyword or the number of arguments) comes, which nothing replaces.
Message* LineParser::fail(bool settled, Span where) {
  if (settled_ || (has_problem_ && !settled)) return nullptr;
  record(settled, where);
  return &problem_;
}

// The line's problem is (now) in problem_.
void LineParser::record(bool settled, Span where) {
  has_problem_ = true;
  problem_span_ = where;
  settled_ = settled;
  if (settled) done_ = true;
  if (keyword_ && keyword_->op == Op::Pool) cmd_.entries.clear();  // not needed any more
}

SLOWSTART_HOT void LineParser::start_token(std::uint64_t column) {
  open_ = true;
  ++tokens_;
  head_.clear();
  length_ = 0;
  token_from_ = column;
  if (tokens_ == 1) {
    line_from_ = column;
    return;
  }
  const std::size_t arg = tokens_ - 1;
  if (arg > keyword_->max_args) return;  // the first extra one: its head is enough
  number_ = QuantityScan{};
  number_head_.clear();
  seen_eq_ = second_eq_ = false;
  name_checked_ = 0;
  name_bad_ = false;
  if (keyword_->op == Op::Pool) {
    if (arg > kMaxBackends) {
      if (Message* m = fail(true, {column, kLineEnd})) pool_is_full(*m);
      return;
    }
    if (!has_problem_) cmd_.entries.emplace_back();
  }
}

SLOWSTART_HOT void LineParser::add(std::string_view piece, std::uint64_t column) {
  if (done_) return;
  if (!open_) {
    start_token(column);
    if (done_) return;
    if (tokens_ == 1 && piece[0] == '#') {  // a comment: nothing on the line matters
      ignored_ = done_ = true;
      return;
    }
  }
  head_.add(piece);
  length_ += piece.size();
  if (tokens_ > 1) argument_piece(piece);
}

SLOWSTART_COLD void LineParser::begin_cold(std::size_t longest_name) { begin(longest_name); }
SLOWSTART_COLD void LineParser::add_cold(std::string_view piece, std::uint64_t column) { add(piece, column); }
SLOWSTART_COLD void LineParser::end_token_cold() { end_token(); }
SLOWSTART_COLD LineParser::Outcome LineParser::end_cold() { return end(); }

SLOWSTART_HOT void LineParser::end_token() {
  if (!open_) return;
  open_ = false;
  last_to_ = token_from_ + length_;
  if (tokens_ == 2) first_argument_ = token();
  if (done_) return;
  if (tokens_ == 1) keyword();
  else end_argument();
}

SLOWSTART_HOT void LineParser::keyword() {
  const std::string_view word = head_.view();
  if (length_ <= kLongestKeyword) keyword_ = find_keyword(head_.first8() | static_cast<std::uint64_t>(length_) << 56);  // (line_scan::key)
  if (keyword_) return;
  Message* m = fail(true, token());
  if (!m) return;
  reject(*m, "unknown command ", word);
  if (const Keyword* hint = length_ <= kLongestKeyword ? find_hint(word) : nullptr) {
    m->append(" (use ");
    m->append(hint->word);
    m->append(")");
  }
}

void LineParser::argument_piece(std::string_view piece) {
  const std::size_t arg = tokens_ - 1;
  if (arg > keyword_->max_args || has_problem_) return;
  switch (keyword_->op) {
    case Op::Pool: entry_piece(piece, cmd_.entries.back().name); break;
    case Op::Add:
      if (arg == 1) entry_piece(piece, cmd_.name);
      else number_.add(piece), number_head_.add(piece);
      break;
    case Op::Down:
    case Op::Up:
      if (arg == 1) name_piece(piece);
      else number_.add(piece), number_head_.add(piece);
      break;
    default:  // NOW
      number_.add(piece);
      number_head_.add(piece);
      break;
  }
}

void LineParser::end_argument() {
  const std::size_t arg = tokens_ - 1;
  if (arg > keyword_->max_args) {
    if (Message* m = fail(true, token())) {
      reject(*m, "unexpected argument ", head_.view());
      append_usage(*m, *keyword_);
    }
    return;
  }
  if (has_problem_) return;
  // A problem found here is the line's first: it is written into problem_
  // straight away.
  bool ok = true;
  Span where = token();
  switch (keyword_->op) {
    case Op::Pool: {
      PoolEntry& e = cmd_.entries.back();
      ok = end_entry(e.name, e.weight, where);
      if (!ok) break;
      const auto k = static_cast<std::uint32_t>(cmd_.entries.size() - 1);
      if (k == 0) cmd_.names.clear();
      const auto name_of = [this](std::uint32_t i) { return std::string_view(cmd_.entries[i].name); };
      if (cmd_.names.insert(e.name, k, name_of) != k) {
        ok = reject(problem_, "duplicate backend name ", e.name, " in POOL");
        where = {token_from_, token_from_ + eq_at_};
      }
      break;
    }
    case Op::Add:
      ok = arg == 1 ? end_entry(cmd_.name, cmd_.weight, where)
                    : number_.finish(Quantity::Ramp, number_head_.view(), cmd_.seconds, problem_);
      break;
    case Op::Down:
      break;
    case Op::Up:
      if (arg == 2) ok = number_.finish(Quantity::Ramp, number_head_.view(), cmd_.seconds, problem_);
      break;
    default:  // NOW
      ok = number_.finish(Quantity::Time, number_head_.view(), cmd_.seconds, problem_);
      break;
  }
  if (!ok) record(false, where);
}

SLOWSTART_HOT LineParser::Outcome LineParser::end() {
  end_token();
  if (ignored_ || tokens_ == 0) return Outcome::Ignored;
  if (!settled_ && tokens_ - 1 < keyword_->min_args) {
    if (Message* m = fail(true, {line_from_, last_to_})) {
      m->assign("missing argument");
      append_usage(*m, *keyword_);
    }
  }
  if (has_problem_) return Outcome::Rejected;
  cmd_.op = keyword_->op;
  return Outcome::Parsed;
}

// DOWN and UP: a name longer than any in the pool cannot match; keep its
// head for the message and no more.
void LineParser::name_piece(std::string_view piece) {
  std::string& name = cmd_.name;
  if (!cmd_.name_cut && name.size() + piece.size() > longest_name_) {
    cmd_.name_cut = true;
    if (name.size() > TokenHead::kBytes) name.resize(TokenHead::kBytes);
  }
  if (cmd_.name_cut) piece = piece.substr(0, TokenHead::kBytes - std::min(name.size(), TokenHead::kBytes));
  name.append(piece);
}

// "<name>=<weight>": the name is kept (the pool will hold it), the weight
// is scanned as a number.
void LineParser::entry_piece(std::string_view piece, std::string& name) {
  if (!seen_eq_) {
    const std::size_t eq = find_byte(piece, '=');
    if (eq != std::string_view::npos) eq_at_ = length_ - piece.size() + eq;  // (length_ counts this piece)
    std::string_view part = piece.substr(0, eq);
    // A name already found bad is not kept beyond what a message shows.
    if (name_bad_) part = part.substr(0, TokenHead::kBytes - std::min(name.size(), TokenHead::kBytes));
    name.append(part);
    if (!name_bad_ && name.size() >= kCheckNamesFrom) check_long_name(name, false);
    if (eq == std::string_view::npos) return;
    seen_eq_ = true;
    piece.remove_prefix(eq + 1);
  }
  if (second_eq_) return;
  if (find_byte(piece, '=') != std::string_view::npos) {
    second_eq_ = true;
    return;
  }
  number_.add(piece);
  number_head_.add(piece);
}

// Checks the part of a long name that cannot change any more (up to the
// last byte that starts a UTF-8 sequence, or all of it when `final`); a bad
// name is cut to its head, so a huge token that is no name costs no memory.
void LineParser::check_long_name(std::string& name, bool final) {
  std::size_t upto = name.size();
  if (!final) {
    while (upto > name_checked_ && (static_cast<unsigned char>(name[upto - 1]) & 0xC0) == 0x80) --upto;
    if (upto > name_checked_) --upto;  // the last lead byte's sequence may go on
  }
  if (upto <= name_checked_) return;
  name_bad_ = !check_name(std::string_view(name).substr(name_checked_, upto - name_checked_), name, name_problem_);
  name_checked_ = upto;
  if (name_bad_ && name.size() > TokenHead::kBytes) {
    name.resize(TokenHead::kBytes);
    name.shrink_to_fit();
  }
}

// False with the problem in problem_ (the line has none yet). `where` is the
// token; narrowed to the name or the weight when the problem is there.
bool LineParser::end_entry(std::string& name, std::int64_t& weight, Span& where) {
  if (!seen_eq_) return reject(problem_, "expected <name>=<weight>, got ", head_.view());
  if (name.empty()) return reject(problem_, "backend name is empty in ", head_.view());
  if (second_eq_) return reject(problem_, "expected one '=' in <name>=<weight>, got ", head_.view());
  if (!name_bad_) check_long_name(name, true);
  if (name_bad_) {
    where = {token_from_, token_from_ + eq_at_};
    problem_.assign(name_problem_.view());
    return false;
  }
  const bool ok = number_.finish(Quantity::Weight, number_head_.view(), weight, problem_);
  // The weight's part, or the token when there is no weight ("a=").
  if (!ok && eq_at_ + 1 < length_) where = {token_from_ + eq_at_ + 1, token_from_ + length_};
  return ok;
}

// ---------------------------------------------------------------------------
// Whole lines as tokens.

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

Problem parse_command(const std::vector<std::string_view>& tokens, Command& out) {
  // Not a script line: a first token starting with '#' is a word, not a comment.
  if (tokens.empty() || tokens[0].empty() || tokens[0][0] == '#')
    return quoted("unknown command ", tokens.empty() ? std::string_view() : tokens[0]);
  LineParser parser;
  parser.begin_cold(SIZE_MAX);
  for (std::string_view t : tokens) {
    parser.add_cold(t, 0);  // (no line: the columns are not used)
    parser.end_token_cold();
  }
  if (parser.end_cold() == LineParser::Outcome::Rejected) return std::string(parser.problem());
  out = std::move(parser.command());
  return std::nullopt;
}

Problem parse_entry(std::string_view token, PoolEntry& out) {
  Command cmd;
  if (Problem p = parse_command({"ADD", token, "0"}, cmd)) return p;
  out.name = std::move(cmd.name);
  out.weight = cmd.weight;
  return std::nullopt;
}

// ---------------------------------------------------------------------------

Problem apply(Pool& pool, Command& cmd) {
  Message why;
  return problem_of(apply(pool, cmd, why), why);
}

bool apply(Pool& pool, Command& cmd, Message& why) {
  switch (cmd.op) {
    case Op::Pool:
      cmd.views.clear();
      for (const PoolEntry& e : cmd.entries) cmd.views.push_back({e.name, e.weight});
      pool.replace(cmd.views, &cmd.names);
      cmd.entries.clear();  // the pool has its own copies
      return true;
    case Op::Now:
      pool.set_now(cmd.seconds);
      return true;
    case Op::Add:
      if (!pool.contains(cmd.name) && pool.size() >= kMaxBackends) {
        pool_is_full(why);
        return false;
      }
      pool.add(cmd.name, cmd.weight, cmd.seconds);  // a copy: sinks still read cmd.name
      return true;
    case Op::Down:
      if (cmd.name_cut || !pool.down(cmd.name)) return reject(why, "no backend named ", cmd.name);
      return true;
    case Op::Up:
      if (cmd.name_cut || !pool.up(cmd.name, cmd.seconds)) return reject(why, "no backend named ", cmd.name);
      return true;
    case Op::Weights:
    case Op::Pick:
      return true;
  }
  return true;
}

}  // namespace slowstart
