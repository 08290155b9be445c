# ctest bench.write_script: the script is written twice, byte-identical, with
# 1,000,000 lines; and a short benchmark run of the pick loop succeeds (it
# fails if a pick allocates).
execute_process(COMMAND ${BENCH} --write-script=${OUT}_1.txt RESULT_VARIABLE r1 OUTPUT_VARIABLE o1)
execute_process(COMMAND ${BENCH} --write-script=${OUT}_2.txt RESULT_VARIABLE r2)
if(NOT r1 EQUAL 0 OR NOT r2 EQUAL 0)
  message(FATAL_ERROR "--write-script failed: ${r1} ${r2}")
endif()
file(SHA256 ${OUT}_1.txt h1)
file(SHA256 ${OUT}_2.txt h2)
if(NOT h1 STREQUAL h2)
  message(FATAL_ERROR "--write-script is not deterministic")
endif()
if(NOT o1 MATCHES "1000000 lines")
  message(FATAL_ERROR "unexpected summary: ${o1}")
endif()
file(REMOVE ${OUT}_1.txt ${OUT}_2.txt)
execute_process(COMMAND ${BENCH} --benchmark_filter=^BM_PickMany/100$ --benchmark_min_time=0.01
                RESULT_VARIABLE r3 OUTPUT_VARIABLE o3 ERROR_VARIABLE e3)
if(NOT r3 EQUAL 0 OR o3 MATCHES "ERROR OCCURRED" OR NOT o3 MATCHES "allocs_per_pick=0")
  message(FATAL_ERROR "benchmark smoke run failed (${r3}):\n${o3}\n${e3}")
endif()
message(STATUS "${o1}")
