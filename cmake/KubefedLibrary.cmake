# Shared compile options and a helper that turns one source folder into one library.

add_library(kubefed_options INTERFACE)
target_compile_options(kubefed_options INTERFACE -Wall -Wextra -Wpedantic -Wshadow
  -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Woverloaded-virtual -Wimplicit-fallthrough
  # Designated initializers leave the rest defaulted on purpose; GCC 12 warns about that.
  -Wno-missing-field-initializers)
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  target_compile_options(kubefed_options INTERFACE -Wthread-safety)
endif()
if(KUBEFED_WERROR)
  target_compile_options(kubefed_options INTERFACE -Werror)
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

# kubefed_library(NAME <target> DEPS <targets...>): every .cc of the calling folder.
function(kubefed_library)
  cmake_parse_arguments(ARG "" "NAME" "DEPS" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cc)
  file(GLOB headers CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.h)
  if(sources)
    add_library(${ARG_NAME} ${sources} ${headers})
    target_link_libraries(${ARG_NAME} PUBLIC kubefed_options ${ARG_DEPS})
  else()  # header-only (or not written yet)
    add_library(${ARG_NAME} INTERFACE)
    target_link_libraries(${ARG_NAME} INTERFACE kubefed_options ${ARG_DEPS})
  endif()
endfunction()

# kubefed_test(NAME <target> DEPS <targets...> [LABELS ...] [FIXTURES ...]): every *_test.cc of
# the calling folder in one GoogleTest binary, each test registered with CTest.
function(kubefed_test)
  cmake_parse_arguments(ARG "" "NAME" "DEPS;LABELS;FIXTURES" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*_test.cc)
  if(NOT sources)
    return()
  endif()
  add_executable(${ARG_NAME} ${sources})
  target_link_libraries(${ARG_NAME} PRIVATE kubefed_options ${ARG_DEPS} GTest::gmock_main)
  set(properties LABELS "${ARG_LABELS}")
  if(ARG_FIXTURES STREQUAL "local_clusters")
    # FIXTURES_REQUIRED + ENVIRONMENT KF_RUN_DIR (tests/integration/fixture). The tests share
    # clusters and some stop a server or compact etcd: they run one at a time.
    list(APPEND properties ${KUBEFED_LOCAL_CLUSTERS_TEST_PROPERTIES}
         RESOURCE_LOCK local_clusters_exclusive)
  elseif(ARG_FIXTURES)
    message(FATAL_ERROR "unknown fixture ${ARG_FIXTURES}")
  endif()
  gtest_discover_tests(${ARG_NAME} DISCOVERY_MODE PRE_TEST PROPERTIES ${properties})
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
