// The lab module's grading functions: the mistake catalogue, the built-in
// suite, and the diagnosis (cpp/engine/{mistakes,suite,diagnosis}.*), for the
// implement mode, the compare box and the Node CLI's `slowstart grade`.
// Thin: it converts, the engine decides.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>
#include <vector>

#include "engine/diagnosis.hpp"
#include "engine/suite.hpp"
#include "js_interop.hpp"

using emscripten::val;
using namespace slowstart;
using namespace slowstart::wasm;

namespace {

const char* scope_name(Scope s) { return s == Scope::Rules ? "rules" : "program"; }

Scope scope_of(const std::string& s) { return s == "rules" ? Scope::Rules : Scope::Program; }

val ids_of(const std::vector<MistakeIndex>& list) {
  val out = val::array();
  for (MistakeIndex m : list) out.call<void>("push", std::string(mistakes()[m].id));
  return out;
}

std::vector<MistakeIndex> indices_of(const val& ids) {
  std::vector<MistakeIndex> out;
  const auto n = ids["length"].as<unsigned>();
  for (unsigned i = 0; i < n; ++i)
    if (const Mistake* m = find_mistake(ids[i].as<std::string>()))
      out.push_back(static_cast<MistakeIndex>(m - mistakes().data()));
  return out;
}

// [{id, title, why, scope}] in catalogue order.
val catalogue() {
  val out = val::array();
  for (const Mistake& m : mistakes()) {
    val o = val::object();
    o.set("id", std::string(m.id));
    o.set("title", std::string(m.title));
    o.set("why", std::string(m.why));
    o.set("scope", std::string(scope_name(m.scope)));
    out.call<void>("push", o);
  }
  return out;
}

// [{id, title, scope, script}] in suite order.
val suite() {
  val out = val::array();
  for (const SuiteTest& t : built_in_tests()) {
    val o = val::object();
    o.set("id", std::string(t.id));
    o.set("title", std::string(t.title));
    o.set("scope", std::string(scope_name(t.scope)));
    o.set("script", std::string(t.script));
    out.call<void>("push", o);
  }
  return out;
}

val evidence_to_js(const TestEvidence& e) {
  val o = val::object();
  o.set("pass", e.pass);
  o.set("problem", e.problem);
  o.set("named", ids_of(e.named));
  o.set("ruledOut", ids_of(e.ruled_out));
  return o;
}

// The script is in the input buffer; expected and actual are stdout texts.
val test_evidence(double length, std::string expected, std::string actual, std::string scope, bool problem) {
  return evidence_to_js(gather_evidence(input(length), expected, actual, scope_of(scope), problem));
}

// tests: [evidence | undefined | null] -> {perTest: [[id]], run: [{mistake, tests}]}
val diagnose(val tests) {
  const auto n = tests["length"].as<unsigned>();
  std::vector<TestEvidence> evidence(n);
  std::vector<const TestEvidence*> pointers(n, nullptr);
  for (unsigned i = 0; i < n; ++i) {
    val t = tests[i];
    if (t.isUndefined() || t.isNull()) continue;
    evidence[i].pass = t["pass"].as<bool>();
    evidence[i].problem = t["problem"].as<bool>();
    evidence[i].named = indices_of(t["named"]);
    evidence[i].ruled_out = indices_of(t["ruledOut"]);
    pointers[i] = &evidence[i];
  }
  const RunDiagnosis d = diagnose_run(pointers);
  val per_test = val::array();
  for (const auto& list : d.per_test) per_test.call<void>("push", ids_of(list));
  val run = val::array();
  for (const auto& entry : d.run) {
    val e = val::object();
    e.set("mistake", std::string(mistakes()[entry.mistake].id));
    val indices = val::array();
    for (std::size_t t : entry.tests) indices.call<void>("push", static_cast<double>(t));
    e.set("tests", indices);
    run.call<void>("push", e);
  }
  val o = val::object();
  o.set("perTest", per_test);
  o.set("run", run);
  return o;
}

// The mistakes whose stdout is exactly `actual` for the script in the input
// buffer (the compare box): one test's evidence, narrowed as a run of one.
val name_mistakes(double length, std::string actual) {
  const std::string_view script = input(length);
  const TestEvidence e = gather_evidence(script, reference_stdout(script), actual, Scope::Program, false);
  return ids_of(diagnose_run({&e}).per_test[0]);
}

}  // namespace

EMSCRIPTEN_BINDINGS(slowstart_grading) {
  emscripten::function("mistakeCatalogue", &catalogue);
  emscripten::function("builtInSuite", &suite);
  emscripten::function("testEvidence", &test_evidence);
  emscripten::function("diagnoseRun", &diagnose);
  emscripten::function("nameMistakes", &name_mistakes);
}
