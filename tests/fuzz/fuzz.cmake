# Included from tests/CMakeLists.txt. The fuzz target needs clang (libFuzzer);
# the default compiler is g++, so it is built by tests/fuzz/run.sh with
# clang++ directly rather than as a CMake target.
#
# ctest -L fuzz          only the fuzz smoke test
# ctest -LE fuzz         everything else
find_program(SLOWSTART_CLANGXX NAMES clang++ clang++-14)
find_program(SLOWSTART_BASH NAMES bash)
if(SLOWSTART_CLANGXX AND SLOWSTART_BASH)
  add_test(NAME fuzz.smoke
           COMMAND ${SLOWSTART_BASH} ${CMAKE_CURRENT_LIST_DIR}/run.sh 15
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  # The fast pick against the O(n) oracle (tests/fuzz/fuzz_pick.cpp).
  add_test(NAME fuzz.pick_smoke
           COMMAND ${SLOWSTART_BASH} ${CMAKE_CURRENT_LIST_DIR}/run.sh --pick 15
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  # The same with a 32-bit size_t, as WebAssembly has (clang -m32 under
  # qemu-i386; setup.sh installs both).
  find_program(SLOWSTART_QEMU_I386 NAMES qemu-i386)
  if(SLOWSTART_QEMU_I386)
    add_test(NAME fuzz.pick32_smoke
             COMMAND ${SLOWSTART_BASH} ${CMAKE_CURRENT_LIST_DIR}/run.sh --m32 15
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  endif()
  add_test(NAME fuzz.leak_selftest
           COMMAND ${SLOWSTART_BASH} ${CMAKE_CURRENT_LIST_DIR}/run.sh --selftest
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set(_fuzz_env "FUZZ_OUT_DIR=${CMAKE_BINARY_DIR};FUZZ_CXX=${SLOWSTART_CLANGXX}")
  # The first run compiles the target with sanitizers (about a minute on two
  # cores), so allow for that on top of the 15 s of fuzzing. The self-test
  # reuses the same binary, so it must not run at the same time.
  # The smoke runs start from the seeds alone (FUZZ_SMOKE, run.sh says why).
  set_tests_properties(fuzz.smoke PROPERTIES
    LABELS "fuzz;slow" TIMEOUT 300 ENVIRONMENT "${_fuzz_env};FUZZ_SMOKE=1" RESOURCE_LOCK slowstart_fuzz)
  set_tests_properties(fuzz.pick_smoke PROPERTIES
    LABELS "fuzz;slow" TIMEOUT 300 ENVIRONMENT "${_fuzz_env};FUZZ_SMOKE=1" RESOURCE_LOCK slowstart_fuzz)
  if(SLOWSTART_QEMU_I386)
    set_tests_properties(fuzz.pick32_smoke PROPERTIES
      LABELS "fuzz;slow" TIMEOUT 300 ENVIRONMENT "${_fuzz_env};FUZZ_SMOKE=1" RESOURCE_LOCK slowstart_fuzz)
  endif()
  set_tests_properties(fuzz.leak_selftest PROPERTIES
    LABELS "fuzz;slow" TIMEOUT 300 ENVIRONMENT "${_fuzz_env}" RESOURCE_LOCK slowstart_fuzz)
else()
  message(STATUS "clang++ not found: fuzz.smoke test not added")
endif()
