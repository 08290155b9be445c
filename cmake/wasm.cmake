# The WebAssembly module: the same engine sources, plus the embind file.
# Flags verified with Debian's Emscripten 3.1.6 (see docs/BUILDING.md):
#  - DYNAMIC_EXECUTION=0: no eval/new Function, so the glue runs under a CSP
#    of script-src 'self' 'wasm-unsafe-eval';
#  - ENVIRONMENT=web,worker: the Node entry passes the .wasm bytes itself
#    (the node environment breaks ES-module loading in 3.1.6);
#  - native wasm exceptions, so engine errors become JS Errors.
add_executable(slowstart_wasm cpp/wasm/bindings.cpp)
target_link_libraries(slowstart_wasm PRIVATE slowstart_engine)
target_compile_definitions(slowstart_wasm PRIVATE SLOWSTART_VERSION="${PROJECT_VERSION}")
set_target_properties(slowstart_wasm PROPERTIES
  OUTPUT_NAME engine
  SUFFIX ".mjs"
  RUNTIME_OUTPUT_DIRECTORY ${CMAKE_SOURCE_DIR}/web/wasm)
target_link_options(slowstart_wasm PRIVATE
  -lembind
  -sMODULARIZE=1
  -sEXPORT_ES6=1
  -sEXPORT_NAME=createEngine
  -sENVIRONMENT=web,worker
  -sALLOW_MEMORY_GROWTH=1
  -sDYNAMIC_EXECUTION=0
  -sFILESYSTEM=0
  -sINCOMING_MODULE_JS_API=[locateFile,wasmBinary,instantiateWasm,print,printErr,onAbort])
if(CMAKE_BUILD_TYPE STREQUAL "Release")
  # -Oz -flto: the smallest build (about 27 KB + 13 KB gzipped here, against
  # 33 + 13 at -O3); the pick loop is simple enough that speed is unchanged
  # (docs/PERFORMANCE.md). Target options come after CMake's -O3, so they win.
  target_compile_options(slowstart_engine PRIVATE -Oz -flto)
  target_compile_options(slowstart_wasm PRIVATE -Oz -flto)
  target_link_options(slowstart_wasm PRIVATE -Oz -flto)
endif()
add_custom_command(TARGET slowstart_wasm POST_BUILD
  COMMAND ${CMAKE_COMMAND} -E copy_if_different
          ${CMAKE_SOURCE_DIR}/cpp/wasm/engine.d.mts ${CMAKE_SOURCE_DIR}/web/wasm/engine.d.mts)
