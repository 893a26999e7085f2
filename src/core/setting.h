#pragma once
// One setting of a configuration struct, declared once beside the struct
// (ftl/ftl_settings.h, fdp/fdp_settings.h, ftl/geometry_settings.h,
// timing/timing_settings.h): its name, how its text is parsed into the
// struct and printed back, its help, and its default (the struct's own
// initialiser, printed). The command line, sweeps, the resume key and the
// report are derived from these descriptors (docs/architecture.md, "Adding
// an option").
//
// Libraries name settings, never flags: a message holds the settings it
// names apart from its text (core/message.h: Message, say()), and cli/
// shows each as --name (cli/flag_text.h). A problem with one value is a
// Problem {setting, value, reason}; problems() functions return them.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/message.h"

namespace ftlsim {

// How a setting's text is split into a sweep's items (sweep/sweep_values.h).
enum class ValueKind : uint8_t {
  kInteger,    // whole number >= 0: lists and ranges
  kReal,       // decimal number: lists and ranges
  kSize,       // byte size with binary suffix (4K, 16M): lists and ranges
  kWord,       // a name (policy, preset), or a duration: lists only
  kPlacement,  // a placement policy: lists, `map:` specs end at ';'
};

// A problem with the value of one setting (`setting` empty: with the
// configuration as a whole, "logical capacity is 0").
struct Problem {
  enum class Shape : uint8_t {
    kBadText,   // the text is not a value: "`victim`: 'x' is not one of ..."
    kBadValue,  // a value, but not one that works: "`ruh` 300 must be between 1 and 256"
    kUnknown,   // a name the table lacks: "`preset`: unknown preset 'x' (known: ...)"
    kInParens,  // a value, in parentheses as gen's have always been: "`io-size` (1000) must be ..."
  };
  std::string setting;  // its name: "gc-thres"
  std::string value;    // as given or as printed
  Message reason;       // may name other settings: say("is below `gc-thres` {}", v); may start ": "
  Shape shape = Shape::kBadValue;

  // The one-line message: "`gc-thres` 101 must be a percentage in (0, 100)".
  [[nodiscard]] Message message() const;
  [[nodiscard]] std::string text() const { return message().str(); }
};

// The problems' messages joined by "; ".
[[nodiscard]] Message join(const std::vector<Problem>& problems);

// Thrown for one setting's problem; its message is Problem::message().
class SettingError : public InputError {
 public:
  explicit SettingError(Problem p);
  [[nodiscard]] const Problem& problem() const { return problem_; }

 private:
  Problem problem_;
};

// A descriptor of one setting of struct C.
template <class C>
struct Setting {
  std::string_view name;  // "gc-thres": the option, the sweep axis and the config_id use it
  ValueKind kind;
  std::string_view type;   // what --help shows for the value: "PCT", "request|page"
  std::string_view group;  // the --help section: "Device", "GC", "FDP", "Timing"
  std::string_view help;
  // Sets the field from text; throws SettingError naming this setting.
  void (*parse)(C&, std::string_view);
  // The field as text that parse() reads back to the same value.
  std::string (*print)(const C&);
  // For a word-valued setting, its words and their meanings, which --help
  // appends to `help` (words_of<kTable> below); nullptr otherwise.
  std::string (*words)() = nullptr;
  // A rule where ConfFDP differs from FEMU: its value under --rules confdp
  // ("" = the same as the default).
  std::string_view confdp = {};
  // true: not given, the field keeps what the struct holds (the preset's
  // geometry, open loop, an automatic interval) and its text is "".
  bool unset_keeps = false;
  // The name in config_key descriptions when it predates `name` ("" = name),
  // kept so that earlier sweeps still resume.
  std::string_view key = {};

  // The default as text: the struct's initialiser, printed ("" when unset_keeps).
  [[nodiscard]] std::string default_text() const { return unset_keeps ? std::string() : print(C{}); }
  [[nodiscard]] std::string_view key_name() const { return key.empty() ? name : key; }
};

// The descriptor named `name` in `table`, or nullptr.
template <class C>
[[nodiscard]] const Setting<C>* find_setting(std::span<const Setting<C>> table, std::string_view name) {
  for (const Setting<C>& s : table) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

// One word of a word-valued setting: the value it stands for, the word,
// and what it means (shown in --help and in the error for another word).
template <class E>
struct Choice {
  E value;
  std::string_view word;
  std::string_view meaning;
};

// "request (once per write request, FEMU) or page (before every page written)".
template <class E>
[[nodiscard]] std::string choice_list(std::span<const Choice<E>> words) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += i + 1 == words.size() ? " or " : ", ";
    out += std::string(words[i].word);
    if (!words[i].meaning.empty()) out += " (" + std::string(words[i].meaning) + ")";
  }
  return out;
}

// The value of `text` in `words`; throws SettingError naming `setting` and
// listing the words.
template <class E, size_t N>
[[nodiscard]] std::string choice_list(const Choice<E> (&words)[N]) {
  return choice_list(std::span<const Choice<E>>(words));
}

// The `words` member of a descriptor whose words are the table `Words`.
template <const auto& Words>
std::string words_of() {
  return choice_list(Words);
}

template <class E>
[[nodiscard]] E parse_choice(std::span<const Choice<E>> words, std::string_view setting, std::string_view text) {
  for (const Choice<E>& w : words) {
    if (w.word == text) return w.value;
  }
  throw SettingError(
      {std::string(setting), std::string(text), "is not " + choice_list(words), Problem::Shape::kBadText});
}

// As above, refusing another word with `refusal` as the reason ("is not
// startup (FEMU) or lazy"): the words a refusal has listed since the option
// came, kept as they were (the help lists the table's meanings).
template <class E>
[[nodiscard]] E parse_choice(std::span<const Choice<E>> words, std::string_view setting, std::string_view text,
                             std::string_view refusal) {
  for (const Choice<E>& w : words) {
    if (w.word == text) return w.value;
  }
  throw SettingError({std::string(setting), std::string(text), std::string(refusal), Problem::Shape::kBadText});
}

template <class E>
[[nodiscard]] std::string_view choice_word(std::span<const Choice<E>> words, E v) {
  for (const Choice<E>& w : words) {
    if (w.value == v) return w.word;
  }
  return "unknown";
}

// Parsers and printers the descriptors share; each throws SettingError
// naming `setting`.
[[nodiscard]] double parse_real(std::string_view setting, std::string_view text);
[[nodiscard]] uint64_t parse_u64(std::string_view setting, std::string_view text);
[[nodiscard]] uint32_t parse_u32(std::string_view setting, std::string_view text);
// A 32-bit count whose valid values start at `least` (a geometry count): a
// malformed or too large one is refused naming the range from `least`; a
// whole number below it is returned, for the configuration's check to
// explain ("`channels` must be at least 1").
[[nodiscard]] uint32_t parse_u32_count(std::string_view setting, std::string_view text, uint32_t least);
[[nodiscard]] uint64_t parse_bytes(std::string_view setting, std::string_view text);
[[nodiscard]] uint64_t parse_duration(std::string_view setting, std::string_view text);
[[nodiscard]] std::string print_real(double v);         // 75, 0.5, 99.5
[[nodiscard]] std::string print_duration(uint64_t ns);  // 40us, 2ms, 0: the largest unit dividing exactly

}  // namespace ftlsim
