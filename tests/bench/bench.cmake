# Included from tests/CMakeLists.txt: the native benchmark, built (not run)
# with the tests. Run it as build/slowstart_bench (see docs/PERFORMANCE.md);
# build/slowstart_bench --write-script=FILE writes the 1M-line script.
find_package(benchmark QUIET)
if(benchmark_FOUND)
  add_executable(slowstart_bench ${CMAKE_CURRENT_LIST_DIR}/bench.cpp
                 ${CMAKE_CURRENT_LIST_DIR}/../support/allocation_counter.cpp)
  target_link_libraries(slowstart_bench PRIVATE slowstart_grading slowstart_traffic benchmark::benchmark)
  set_target_properties(slowstart_bench PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # The counting operator new/delete are malloc/free wrappers, which g++ 12
    # flags as mismatched once inlined; -Wrestrict is g++ 12's known false
    # positive on std::string concatenation (GCC bug 105329).
    target_compile_options(slowstart_bench PRIVATE -Wall -Wextra
                           -Wno-mismatched-new-delete -Wno-restrict)
  endif()
  # A quick check that it runs and that --write-script is deterministic and
  # matches the benchmark's own counts; not a measurement.
  add_test(NAME bench.write_script
           COMMAND ${CMAKE_COMMAND} -DBENCH=$<TARGET_FILE:slowstart_bench>
                   -DOUT=${CMAKE_CURRENT_BINARY_DIR}/bench_script
                   -P ${CMAKE_CURRENT_LIST_DIR}/check_write_script.cmake)
  set_tests_properties(bench.write_script PROPERTIES LABELS "bench")
else()
  message(STATUS "Google Benchmark not found: slowstart_bench not built")
endif()
