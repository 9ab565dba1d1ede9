# Shared compile options and a helper that turns one source folder into one library.

add_library(kubefed_options INTERFACE)
target_compile_options(kubefed_options INTERFACE -Wall -Wextra -Wpedantic -Wshadow
  -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Woverloaded-virtual -Wimplicit-fallthrough
  # Designated initializers leave the rest defaulted on purpose; GCC 12 warns about that.
  -Wno-missing-field-initializers)
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  target_compile_options(kubefed_options INTERFACE -Wthread-safety)
  # lld links the test binaries several times faster than BFD ld.
  target_link_options(kubefed_options INTERFACE -fuse-ld=lld)
endif()
if(CMAKE_UNITY_BUILD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  # A unity build includes each .cc into a generated file, so GCC takes the .cc files for headers
  # and warns that their classes use types of their anonymous namespace; each .cc is still
  # compiled exactly once, so there is no ODR hazard to warn about.
  target_compile_options(kubefed_options INTERFACE -Wno-subobject-linkage)
endif()
if(KUBEFED_WERROR)
  target_compile_options(kubefed_options INTERFACE -Werror)
endif()
if(KUBEFED_SANITIZE)
  # A sanitizer's report needs file and line of each frame, not variables and types: line tables
  # only make the objects a third smaller and the build about a sixth faster. Debug with the dev
  # preset.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    target_compile_options(kubefed_options INTERFACE -gline-tables-only)
  else()
    target_compile_options(kubefed_options INTERFACE -g1)
  endif()
endif()
if(KUBEFED_SANITIZE STREQUAL "address")
  target_compile_options(kubefed_options INTERFACE -fsanitize=address,undefined
    -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  target_link_options(kubefed_options INTERFACE -fsanitize=address,undefined)
elseif(KUBEFED_SANITIZE STREQUAL "thread")
  target_compile_options(kubefed_options INTERFACE -fsanitize=thread -fno-omit-frame-pointer)
  target_link_options(kubefed_options INTERFACE -fsanitize=thread)
endif()
target_include_directories(kubefed_options INTERFACE ${PROJECT_SOURCE_DIR})
# Every target gets the definitions of the libraries in the precompiled header (spdlog's select
# its compiled library and external fmt), so that all of them can reuse it.
target_link_libraries(kubefed_options INTERFACE nlohmann_json::nlohmann_json spdlog::spdlog
  Boost::headers)

# Precompiled headers. Every translation unit parses nlohmann/json, Boost.Outcome (Result<T>),
# spdlog and most of the standard library, and every test GoogleTest and GMock: they are parsed
# once per build instead of once per file. Two headers are compiled (one for libraries and
# binaries, one for tests) and every target reuses one of them, so all targets must share one set
# of compile flags.
# The presets also build in unity mode (CMAKE_UNITY_BUILD: sixteen .cc files per compiler run), so
# names in anonymous namespaces must be unique within a folder. Together they cut a cold build
# to less than half.
option(KUBEFED_PCH "Precompile the common headers" ON)
set(KUBEFED_PCH_HEADERS <algorithm> <atomic> <chrono> <condition_variable> <cstdint> <deque>
  <functional> <map> <memory> <mutex> <optional> <random> <set> <sstream> <string> <string_view>
  <thread> <unordered_map> <unordered_set> <utility> <vector> <boost/outcome/result.hpp>
  <boost/outcome/try.hpp> <nlohmann/json.hpp> <spdlog/spdlog.h>)
if(KUBEFED_PCH)
  file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/pch/empty.cc CONTENT "")
  add_library(kf_pch STATIC ${CMAKE_BINARY_DIR}/pch/empty.cc)
  target_link_libraries(kf_pch PRIVATE kubefed_options)
  target_precompile_headers(kf_pch PRIVATE ${KUBEFED_PCH_HEADERS})
  add_library(kf_pch_test STATIC ${CMAKE_BINARY_DIR}/pch/empty.cc)
  target_link_libraries(kf_pch_test PRIVATE kubefed_options GTest::gmock)
  target_precompile_headers(kf_pch_test PRIVATE ${KUBEFED_PCH_HEADERS} <gmock/gmock.h> <gtest/gtest.h>)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    # No timestamp in the precompiled header, so that ccache can reuse what includes it.
    target_compile_options(kubefed_options INTERFACE -Xclang -fno-pch-timestamp)
  endif()
endif()

# kubefed_use_pch(<target> [TEST]): the target compiles against the shared precompiled header.
function(kubefed_use_pch target)
  if(NOT KUBEFED_PCH)
    return()
  endif()
  if(ARGV1 STREQUAL "TEST")
    target_precompile_headers(${target} REUSE_FROM kf_pch_test)
  else()
    target_precompile_headers(${target} REUSE_FROM kf_pch)
  endif()
endfunction()

# KUBEFED_SYNTAX_ONLY (the gcc preset): every library, binary and test source is compiled with
# -fsyntax-only, so the compiler's warnings cover the whole tree without code generation or
# linking (about a third of the time of a build). Each target is then an OBJECT library whose
# objects are never written: nothing links, no test is registered, and Ninja checks the sources
# again on every build. The precompiled headers are still built, and used.
option(KUBEFED_SYNTAX_ONLY "Check every source with -fsyntax-only; build and register nothing" OFF)

# KUBEFED_TEST_LABELS: the tests a build builds and registers, by label; a test binary is built
# when one of its labels is listed. A preset builds only the tests it runs (the sanitizer presets
# split them, see the README's test section); the default is every test.
set(KUBEFED_TEST_LABELS "unit;threads;integration;e2e;node;fuzz" CACHE STRING
    "Labels of the tests to build and register")

# kubefed_add_library(<target> [TEST_SUPPORT] <sources...>) and
# kubefed_add_executable(<target> <sources...>): add_library and add_executable, or with
# KUBEFED_SYNTAX_ONLY an OBJECT library whose sources are only checked. Linking works the same
# either way (an OBJECT library takes its dependencies' usage requirements). A TEST_SUPPORT library
# is built only when a test that links it is.
function(kubefed_add_library target)
  set(sources ${ARGN})
  set(exclude)
  if("TEST_SUPPORT" IN_LIST sources)
    list(REMOVE_ITEM sources TEST_SUPPORT)
    set(exclude EXCLUDE_FROM_ALL)
  endif()
  if(KUBEFED_SYNTAX_ONLY)
    add_library(${target} OBJECT ${sources})
    target_compile_options(${target} PRIVATE -fsyntax-only)
  else()
    add_library(${target} ${exclude} ${sources})
  endif()
endfunction()

function(kubefed_add_executable target)
  if(KUBEFED_SYNTAX_ONLY)
    add_library(${target} OBJECT ${ARGN})
    target_compile_options(${target} PRIVATE -fsyntax-only)
  else()
    add_executable(${target} ${ARGN})
  endif()
endfunction()

# kubefed_library(NAME <target> DEPS <targets...>): every .cc of the calling folder.
function(kubefed_library)
  cmake_parse_arguments(ARG "" "NAME" "DEPS" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cc)
  file(GLOB headers CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.h)
  if(sources)
    kubefed_add_library(${ARG_NAME} ${sources} ${headers})
    target_link_libraries(${ARG_NAME} PUBLIC kubefed_options ${ARG_DEPS})
    kubefed_use_pch(${ARG_NAME})
  else()  # header-only (or not written yet)
    add_library(${ARG_NAME} INTERFACE)
    target_link_libraries(${ARG_NAME} INTERFACE kubefed_options ${ARG_DEPS})
  endif()
endfunction()

# kubefed_test(NAME <target> DEPS <targets...> [LABELS ...] [FIXTURE <local clusters fixture>]):
# every *_test.cc of the calling folder in one GoogleTest binary, each test registered with
# CTest, when one of its LABELS is in KUBEFED_TEST_LABELS (with KUBEFED_SYNTAX_ONLY: always
# checked, never built). Unit tests that start threads carry the label `threads` as well.
# With FIXTURE, the binary gets a set of local clusters of its own (tests/integration/fixture)
# and its tests run one at a time on them.
# FIXTURE_ENV and FIXTURE_THEN are kubefed_local_clusters_fixture's ENV and THEN.
function(kubefed_test)
  cmake_parse_arguments(ARG "" "NAME;FIXTURE;FIXTURE_THEN" "DEPS;LABELS;FIXTURE_ENV" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*_test.cc)
  if(NOT sources)
    return()
  endif()
  if(KUBEFED_SYNTAX_ONLY)
    kubefed_add_library(${ARG_NAME} ${sources})
    target_link_libraries(${ARG_NAME} PRIVATE kubefed_options ${ARG_DEPS} GTest::gmock)
    kubefed_use_pch(${ARG_NAME} TEST)
    return()
  endif()
  set(wanted FALSE)
  foreach(label ${ARG_LABELS})
    if(label IN_LIST KUBEFED_TEST_LABELS)
      set(wanted TRUE)
    endif()
  endforeach()
  if(NOT wanted)
    return()
  endif()
  add_executable(${ARG_NAME} ${sources})
  target_link_libraries(${ARG_NAME} PRIVATE kubefed_options ${ARG_DEPS} GTest::gmock_main)
  kubefed_use_pch(${ARG_NAME} TEST)
  # gtest_discover_tests flattens a list-valued property (LABELS "unit;threads" would become the
  # label `unit` and a property named `threads`), so a single label goes through it and a list is
  # set by a script CTest includes after the discovered tests.
  list(LENGTH ARG_LABELS label_count)
  set(properties)
  if(label_count EQUAL 1)
    list(APPEND properties LABELS "${ARG_LABELS}")
  endif()
  if(ARG_FIXTURE)
    kubefed_local_clusters_fixture(${ARG_FIXTURE} ENV ${ARG_FIXTURE_ENV} THEN "${ARG_FIXTURE_THEN}"
                                   LABELS ${ARG_LABELS})
    kubefed_local_clusters_test_properties(${ARG_FIXTURE} fixture_properties)
    list(APPEND properties ${fixture_properties})
  endif()
  # NO_PRETTY_VALUES: parameterised tests keep the names their generators give them, without the
  # printed parameter (hundreds of bytes per name, and per line of every CTest log).
  gtest_discover_tests(${ARG_NAME} DISCOVERY_MODE PRE_TEST NO_PRETTY_VALUES
                       TEST_LIST ${ARG_NAME}_DISCOVERED PROPERTIES ${properties})
  if(label_count GREATER 1)
    set(labels_script ${CMAKE_CURRENT_BINARY_DIR}/${ARG_NAME}_labels.cmake)
    file(WRITE ${labels_script}
         "foreach(test IN LISTS ${ARG_NAME}_DISCOVERED)\n"
         "  set_tests_properties(\"\${test}\" PROPERTIES LABELS \"${ARG_LABELS}\")\n"
         "endforeach()\n")
    set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${labels_script})
  endif()
endfunction()

# kubefed_add_child_directories(): add_subdirectory() for every child folder of the calling folder
# that has a CMakeLists.txt, so a new API folder or unit-test folder needs no edit here.
function(kubefed_add_child_directories)
  file(GLOB children CONFIGURE_DEPENDS LIST_DIRECTORIES true ${CMAKE_CURRENT_SOURCE_DIR}/*)
  foreach(child ${children})
    if(EXISTS ${child}/CMakeLists.txt)
      add_subdirectory(${child})
    endif()
  endforeach()
endfunction()
