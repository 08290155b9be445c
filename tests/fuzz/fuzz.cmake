# Included from tests/CMakeLists.txt. The fuzz target needs clang (libFuzzer);
# the default compiler is g++, so it is built by tests/fuzz/run.sh with
# clang++ directly rather than as a CMake target.
#
# ctest -L fuzz          only the fuzz build and smoke runs
# ctest -LE fuzz         everything else
find_program(SLOWSTART_CLANGXX NAMES clang++ clang++-14)
find_program(SLOWSTART_BASH NAMES bash)
if(SLOWSTART_CLANGXX AND SLOWSTART_BASH)
  set(_fuzz_env "FUZZ_OUT_DIR=${CMAKE_BINARY_DIR};FUZZ_CXX=${SLOWSTART_CLANGXX}")
  # The binaries first (run.sh --build: the interpreter's, the pick's and
  # the system's share the engine's objects; about 35 s of CPU for the
  # first three with the sanitizers, the system's rooms more): a fixture, so that the runs below never compile and can run
  # side by side. scripts/test.sh builds them beside the native build.
  add_test(NAME fuzz.build
           COMMAND ${SLOWSTART_BASH} ${CMAKE_CURRENT_LIST_DIR}/run.sh --build
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(fuzz.build PROPERTIES
    LABELS "fuzz;slow" TIMEOUT 600 ENVIRONMENT "${_fuzz_env}" FIXTURES_SETUP slowstart_fuzz_binaries
    COST 1000)  # started first, while the quick tests share the other core
  # Smoke runs: from the checked-in seeds alone, a fixed seed and a fixed
  # count of inputs each, about 8 s of a core (FUZZ_SMOKE; run.sh says why).
  # A long hunt, random seed, is run.sh's own:
  # tests/fuzz/run.sh [--pick | --m32 | --system] SECONDS.
  set(_fuzz_tests fuzz.smoke fuzz.pick_smoke fuzz.system_smoke)
  add_test(NAME fuzz.smoke
           COMMAND ${SLOWSTART_BASH} ${CMAKE_CURRENT_LIST_DIR}/run.sh
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  # The fast pick against the O(n) oracle (tests/fuzz/fuzz_pick.cpp).
  add_test(NAME fuzz.pick_smoke
           COMMAND ${SLOWSTART_BASH} ${CMAKE_CURRENT_LIST_DIR}/run.sh --pick
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  # Proxies' configurations and canary logs (tests/fuzz/fuzz_system.cpp).
  add_test(NAME fuzz.system_smoke
           COMMAND ${SLOWSTART_BASH} ${CMAKE_CURRENT_LIST_DIR}/run.sh --system
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  # The same with a 32-bit size_t, as WebAssembly has (clang -m32 under
  # qemu-i386; setup.sh installs both).
  find_program(SLOWSTART_QEMU_I386 NAMES qemu-i386)
  if(SLOWSTART_QEMU_I386)
    add_test(NAME fuzz.pick32_smoke
             COMMAND ${SLOWSTART_BASH} ${CMAKE_CURRENT_LIST_DIR}/run.sh --m32
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    list(APPEND _fuzz_tests fuzz.pick32_smoke)
  endif()
  # A smoke run whose seeds went unread fails (the 32-bit libFuzzer listed
  # none of them, unnoticed until 2026-12-08: run.sh's --m32).
  set_tests_properties(${_fuzz_tests} PROPERTIES
    LABELS "fuzz;slow" TIMEOUT 300 ENVIRONMENT "${_fuzz_env};FUZZ_SMOKE=1"
    FAIL_REGULAR_EXPRESSION "[ ]0 files found in [^\n]*fuzz_seeds"
    FIXTURES_REQUIRED slowstart_fuzz_binaries COST 100)
  # Reuses fuzz.smoke's binary, with folders of its own.
  add_test(NAME fuzz.leak_selftest
           COMMAND ${SLOWSTART_BASH} ${CMAKE_CURRENT_LIST_DIR}/run.sh --selftest
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(fuzz.leak_selftest PROPERTIES
    LABELS "fuzz;slow" TIMEOUT 300 ENVIRONMENT "${_fuzz_env}" FIXTURES_REQUIRED slowstart_fuzz_binaries)
else()
  message(STATUS "clang++ not found: fuzz.smoke test not added")
endif()
