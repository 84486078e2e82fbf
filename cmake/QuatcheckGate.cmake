# The quatcheck CTest accuracy gate (docs/install.md), shipped in the CMake package:
#
#   quatcheck_add_plugin(<name> SOURCES <src>...)
#     A plugin module <name>.so from C or C++ sources, compiled with quatcheck::plugin's include path and
#     -ffp-contract=off (the routine is measured as written, no FMA contraction), linked with libm.
#
#   quatcheck_add_accuracy_test(<name>
#       PLUGIN <target or path>... | PLUGIN_CMD '<command args>'...
#       IMPL <name or glob>... BASELINE <dir>
#       [CASES <n>] [REGIONS <region>...] [OPS <op>...] [SEED <s>] [CONFORM ON|OFF] [RATIO <r>])
#     Registers up to four CTest tests, in this order (fixtures):
#       <name>.run      quatcheck run into <build>/quatcheck/<name> (CASES per region, default 2000)
#       <name>.squad    quatcheck squad into the same folder, when OPS has squad or is not given (then only if a
#                       selected implementation provides squad); its tables are compared like the others
#       <name>.conform  quatcheck conform into the same folder (CONFORM ON, the default); a failed property is
#                       not this test's verdict but compare's: a fail that the baseline has too is known
#       <name>.compare  quatcheck compare BASELINE against it: fails on an accuracy regression (a figure beyond
#                       RATIO x the baseline's and above the rounding floor, default 2), a new non-finite
#                       output or failed status, or a property that fails now and did not in the baseline.
#                       The output names the row, region, old and new figures and a reproduce command.
#     and a target <name>_baseline that writes (or refreshes) BASELINE with the same run and conform, in one
#     step (run and conform into a scratch folder of the build tree, then `quatcheck publish` swaps it in):
#       cmake --build <build> --target <name>_baseline    then commit BASELINE.
#     A relative BASELINE or PLUGIN path is taken from the current source folder; the tests run there, so a
#     PLUGIN_CMD may name a script by a path relative to it.
include_guard(GLOBAL)
set(_QUATCHECK_GATE_STEP "${CMAKE_CURRENT_LIST_DIR}/QuatcheckGateStep.cmake")

function(quatcheck_add_plugin name)
  cmake_parse_arguments(ARG "" "" "SOURCES" ${ARGN})
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "quatcheck_add_plugin(${name}): SOURCES is required")
  endif()
  add_library(${name} MODULE ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE quatcheck::plugin)
  if(UNIX)
    target_link_libraries(${name} PRIVATE m)
  endif()
  target_compile_options(${name} PRIVATE $<$<COMPILE_LANG_AND_ID:C,GNU,Clang>:-ffp-contract=off>
                                         $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-ffp-contract=off>)
  set_target_properties(${name} PROPERTIES PREFIX "")
endfunction()

function(quatcheck_add_accuracy_test name)
  cmake_parse_arguments(ARG "" "BASELINE;CASES;CONFORM;RATIO;SEED" "PLUGIN;PLUGIN_CMD;IMPL;REGIONS;OPS" ${ARGN})
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "quatcheck_add_accuracy_test(${name}): unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_PLUGIN AND NOT ARG_PLUGIN_CMD)
    message(FATAL_ERROR "quatcheck_add_accuracy_test(${name}): PLUGIN or PLUGIN_CMD is required")
  endif()
  foreach(req IMPL BASELINE)
    if(NOT ARG_${req})
      message(FATAL_ERROR "quatcheck_add_accuracy_test(${name}): ${req} is required")
    endif()
  endforeach()
  if(NOT TARGET quatcheck::quatcheck)
    message(FATAL_ERROR "quatcheck_add_accuracy_test(${name}): quatcheck::quatcheck is not defined (find_package(quatcheck CONFIG REQUIRED) first)")
  endif()
  if(NOT DEFINED ARG_CASES)
    set(ARG_CASES 2000)
  endif()
  if(NOT DEFINED ARG_RATIO)
    set(ARG_RATIO 2)
  endif()
  if(NOT DEFINED ARG_SEED)
    set(ARG_SEED 1)
  endif()
  if(NOT DEFINED ARG_CONFORM)
    set(ARG_CONFORM ON)
  endif()

  set(common "")
  set(depends "")
  foreach(p IN LISTS ARG_PLUGIN)
    if(TARGET ${p})
      list(APPEND common --plugin $<TARGET_FILE:${p}>)
      list(APPEND depends ${p})
    else()
      get_filename_component(abs "${p}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
      list(APPEND common --plugin "${abs}")
    endif()
  endforeach()
  foreach(c IN LISTS ARG_PLUGIN_CMD)
    list(APPEND common --plugin-cmd "${c}")
  endforeach()
  foreach(i IN LISTS ARG_IMPL)
    list(APPEND common --impl "${i}")
  endforeach()
  # OPS: the ops of run and conform (slerp, nlerp), and squad: the squad step. Without OPS, run and conform take
  # every op and the squad step runs whenever a selected implementation provides squad (--allow-none).
  set(op_args "")
  set(squad_args "")
  if(NOT ARG_OPS)
    set(squad_args --allow-none)
    set(squad ON)
  else()
    set(squad OFF)
    foreach(o IN LISTS ARG_OPS)
      if(o STREQUAL "squad")
        set(squad ON)
      else()
        list(APPEND op_args --op "${o}")
      endif()
    endforeach()
    if(NOT op_args)
      message(FATAL_ERROR "quatcheck_add_accuracy_test(${name}): OPS needs slerp or nlerp (the run step) beside squad")
    endif()
  endif()
  set(run_args --cases ${ARG_CASES} --seed ${ARG_SEED} --no-leaderboard)
  foreach(r IN LISTS ARG_REGIONS)
    list(APPEND run_args --region "${r}")
  endforeach()
  get_filename_component(baseline "${ARG_BASELINE}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  set(out "${CMAKE_CURRENT_BINARY_DIR}/quatcheck/${name}")
  set(qc $<TARGET_FILE:quatcheck::quatcheck>)
  set(step ${CMAKE_COMMAND} -DQC_NAME=${name} -DQC_OUT=${out} -DQC_BASELINE=${baseline}
           -DQC_BUILD_DIR=${CMAKE_BINARY_DIR})

  add_test(NAME ${name}.run COMMAND ${step} -DQC_STEP=run -P ${_QUATCHECK_GATE_STEP} --
           ${qc} run ${common} ${op_args} ${run_args} --out ${out})
  set_tests_properties(${name}.run PROPERTIES FIXTURES_SETUP ${name}_run WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
  set(fixtures ${name}_run)
  if(ARG_CONFORM)
    add_test(NAME ${name}.conform COMMAND ${step} -DQC_STEP=conform -P ${_QUATCHECK_GATE_STEP} --
             ${qc} conform ${common} ${op_args} --seed ${ARG_SEED} --out ${out})
    set_tests_properties(${name}.conform PROPERTIES FIXTURES_REQUIRED ${name}_run FIXTURES_SETUP ${name}_conform
                         WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND fixtures ${name}_conform)
  endif()
  if(squad)
    # After conform (one writer of the folder at a time): squad_summary.csv and squad_conformance.csv, compared
    # with the baseline's under the same rules.
    add_test(NAME ${name}.squad COMMAND ${step} -DQC_STEP=squad -P ${_QUATCHECK_GATE_STEP} --
             ${qc} squad ${common} ${squad_args} --seed ${ARG_SEED} --out ${out})
    set_tests_properties(${name}.squad PROPERTIES FIXTURES_REQUIRED "${fixtures}" FIXTURES_SETUP ${name}_squad
                         WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND fixtures ${name}_squad)
  endif()
  add_test(NAME ${name}.compare COMMAND ${step} -DQC_STEP=compare -P ${_QUATCHECK_GATE_STEP} --
           ${qc} compare ${baseline} ${out} --ratio ${ARG_RATIO})
  set_tests_properties(${name}.compare PROPERTIES FIXTURES_REQUIRED "${fixtures}" WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR})

  # Writing or refreshing the committed baseline: the same run and conform into a scratch folder of the
  # build tree, then `quatcheck publish` replaces BASELINE's report files in one step: interrupted anywhere,
  # BASELINE is the old baseline or the new one, never a mix of the two runs.
  set(scratch "${out}.baseline")
  set(baseline_cmds COMMAND ${step} -DQC_STEP=baseline-run -DQC_OUT=${scratch} -P ${_QUATCHECK_GATE_STEP} --
                    ${qc} run ${common} ${op_args} ${run_args} --out ${scratch})
  if(ARG_CONFORM)
    list(APPEND baseline_cmds COMMAND ${step} -DQC_STEP=baseline-conform -DQC_OUT=${scratch} -P ${_QUATCHECK_GATE_STEP} --
                              ${qc} conform ${common} ${op_args} --seed ${ARG_SEED} --out ${scratch})
  endif()
  if(squad)
    list(APPEND baseline_cmds COMMAND ${step} -DQC_STEP=baseline-squad -DQC_OUT=${scratch} -P ${_QUATCHECK_GATE_STEP} --
                              ${qc} squad ${common} ${squad_args} --seed ${ARG_SEED} --out ${scratch})
  endif()
  list(APPEND baseline_cmds COMMAND ${step} -DQC_STEP=baseline-publish -DQC_OUT=${baseline} -P ${_QUATCHECK_GATE_STEP} --
                            ${qc} publish ${scratch} --out ${baseline})
  add_custom_target(${name}_baseline ${baseline_cmds}
    WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
    COMMENT "quatcheck: writing the baseline of ${name} into ${baseline}"
    VERBATIM)
  if(depends)
    add_dependencies(${name}_baseline ${depends})
  endif()
endfunction()
