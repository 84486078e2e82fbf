# One step of a quatcheck accuracy test (QuatcheckGate.cmake), run by CTest or the <name>_baseline target:
#   cmake -DQC_STEP=<step> -DQC_NAME=<name> -DQC_OUT=<dir> -DQC_BASELINE=<dir> -DQC_BUILD_DIR=<dir>
#         -P QuatcheckGateStep.cmake -- <quatcheck> <subcommand> <args>...
# run / baseline-run: the report folder (in the build tree; for the baseline, its scratch folder) is emptied
#   first, so no table of an earlier run survives into it.
# baseline-publish: `quatcheck publish` replaces the baseline's report files by the scratch folder's, in one step.
# conform / baseline-conform: exit 1 (a property failed) is a result, judged by compare against the
#   baseline; 2 or more is an error.
# compare: exit 1 is a regression; the hint to refresh the baseline follows compare's own report.
set(cmd "")
set(after FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE 0 ${last})
  if(after)
    list(APPEND cmd "${CMAKE_ARGV${i}}")
  elseif("${CMAKE_ARGV${i}}" STREQUAL "--")
    set(after TRUE)
  endif()
endforeach()
if(NOT cmd)
  message(FATAL_ERROR "QuatcheckGateStep.cmake: no command after --")
endif()

if(QC_STEP STREQUAL "run" OR QC_STEP STREQUAL "baseline-run")
  if(IS_DIRECTORY "${QC_OUT}")
    file(REMOVE_RECURSE "${QC_OUT}")
  endif()
endif()
string(REPLACE ";" " " shown "${cmd}")
message("quatcheck gate ${QC_NAME} (${QC_STEP}): ${shown}")
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc)
if(rc STREQUAL "0")
  return()
endif()
if(rc STREQUAL "1" AND QC_STEP MATCHES "(conform|squad)$")
  message("quatcheck gate ${QC_NAME}: some properties fail (conformance.csv); the compare step decides whether "
          "the baseline had them too")
  return()
endif()
if(rc STREQUAL "1" AND QC_STEP STREQUAL "compare")
  message(FATAL_ERROR "quatcheck gate ${QC_NAME}: accuracy regression against the baseline ${QC_BASELINE} (above). "
          "Current report: ${QC_OUT}. If the change is intended, refresh the baseline with "
          "`cmake --build ${QC_BUILD_DIR} --target ${QC_NAME}_baseline` and commit it.")
endif()
message(FATAL_ERROR "quatcheck gate ${QC_NAME} (${QC_STEP}): exit status ${rc}")
