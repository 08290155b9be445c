# The WebAssembly modules: the same engine sources plus thin bindings each
# (plain C exports for the engine, embind for the lab). `engine` (run,
# Balancer, the Node CLI's streaming runner) is what
# every page loads; `lab` (traffic simulation, ramp curves, rules written in
# JavaScript) is loaded only by the views that need it, so the engine stays
# small.
#
# Flags verified with Debian's Emscripten 3.1.6 (docs/ARCHITECTURE.md):
#  - DYNAMIC_EXECUTION=0: no eval/new Function, so the glue runs under a CSP
#    of script-src 'self' 'wasm-unsafe-eval';
#  - ENVIRONMENT=web,worker: the Node entry passes the .wasm bytes itself
#    (the node environment breaks ES-module loading in 3.1.6);
#  - -fno-exceptions (CMakeLists.txt): problems cross as returned Error
#    objects, never as exceptions through WebAssembly frames.
set(SLOWSTART_WASM_LINK_OPTIONS
  -sMODULARIZE=1
  -sEXPORT_ES6=1
  -sENVIRONMENT=web,worker
  -sALLOW_MEMORY_GROWTH=1
  -sDYNAMIC_EXECUTION=0
  -sFILESYSTEM=0
  -sINCOMING_MODULE_JS_API=[locateFile,wasmBinary,instantiateWasm,print,printErr,onAbort])

# Speed and size, measured (docs/performance-log.md, PL-1 and PL-2): -O3 runs scripts about
# 2.5x faster than -Oz, which barely inlines (std::string::size() stays a
# call). -fno-unroll-loops, emmalloc (engine only) and the glue trims below
# keep the engine module under 40 KB gzipped anyway.
set(SLOWSTART_WASM_OPT -O3 -flto -fno-unroll-loops CACHE STRING "Optimisation flags of the WebAssembly build (measured: docs/performance-log.md PL-1)")
# In wasm32 size_t is 32 bits: a 64-bit count, score or time cut into it
# silently is a bug only this build has (pickMany once looped forever on a
# room of 2^61 picks cut to 0). Every such narrowing must be an explicit cast.
set(SLOWSTART_WASM_WARNINGS -Werror=shorten-64-to-32)
foreach(room ${SLOWSTART_ROOMS})
  target_compile_options(${room} PRIVATE ${SLOWSTART_WASM_WARNINGS})
  if(CMAKE_BUILD_TYPE STREQUAL "Release")
    target_compile_options(${room} PRIVATE ${SLOWSTART_WASM_OPT})
  endif()
endforeach()
if(CMAKE_BUILD_TYPE STREQUAL "Release")
  list(APPEND SLOWSTART_WASM_LINK_OPTIONS ${SLOWSTART_WASM_OPT} -sTEXTDECODER=2 -sSUPPORT_LONGJMP=0)
endif()

# Where the modules go (another folder for experimental builds, so that
# web/wasm keeps the real one).
set(SLOWSTART_WASM_OUT ${CMAKE_SOURCE_DIR}/web/wasm CACHE PATH "Output folder of the WebAssembly modules")

function(slowstart_wasm_module target name export_name rooms extra_link_options)
  add_executable(${target} ${ARGN})
  target_link_libraries(${target} PRIVATE ${rooms})
  target_compile_definitions(${target} PRIVATE SLOWSTART_VERSION="${PROJECT_VERSION}")
  target_compile_options(${target} PRIVATE ${SLOWSTART_WASM_WARNINGS})
  if(CMAKE_BUILD_TYPE STREQUAL "Release")
    target_compile_options(${target} PRIVATE ${SLOWSTART_WASM_OPT})
  endif()
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME ${name}
    SUFFIX ".mjs"
    RUNTIME_OUTPUT_DIRECTORY ${SLOWSTART_WASM_OUT})
  target_link_options(${target} PRIVATE ${SLOWSTART_WASM_LINK_OPTIONS} -sEXPORT_NAME=${export_name} ${extra_link_options})
  # A link whose inputs (objects, archives, flags, emcc) are an earlier link's
  # is a copy of its outputs (scripts/wasm-link-cache.sh): the clean clone that
  # `npm pack` builds in the tests links nothing this tree has linked.
  set_target_properties(${target} PROPERTIES CXX_LINKER_LAUNCHER ${CMAKE_SOURCE_DIR}/scripts/wasm-link-cache.sh)
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -E copy_if_different
            ${CMAKE_SOURCE_DIR}/cpp/wasm/${name}.d.mts ${CMAKE_SOURCE_DIR}/web/wasm/${name}.d.mts)
endfunction()

# The engine: plain C exports (bindings.cpp says why), malloc and free kept
# for the leak test. emmalloc: about 2.7 KB smaller than dlmalloc and, within
# the noise, no slower on scripts (docs/performance-log.md, PL-2, PL-9).
set(SLOWSTART_ENGINE_MALLOC emmalloc CACHE STRING "The engine module's malloc (emmalloc or dlmalloc)")
slowstart_wasm_module(slowstart_wasm engine createEngine slowstart_core
  "-sMALLOC=${SLOWSTART_ENGINE_MALLOC};-sEXPORTED_FUNCTIONS=_malloc,_free" cpp/wasm/bindings.cpp)
slowstart_wasm_module(slowstart_lab_wasm lab createLab "slowstart_grading;slowstart_traffic;slowstart_system" "-lembind;-sMALLOC=dlmalloc"
  cpp/wasm/lab_bindings.cpp cpp/wasm/grading_bindings.cpp cpp/wasm/system_bindings.cpp)
