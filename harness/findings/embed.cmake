# `quatcheck findings` writes standalone reproducers: the templates (harness/findings/templates/) and the
# adapter sources they compile (impls/*, with each folder's repro.txt) are embedded in the binary, so that an
# installed quatcheck needs no source tree. The list is read at configure time; the generated file is
# rebuilt whenever one of the files changes.
file(GLOB QC_EMBED_FILES CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR}
  harness/findings/templates/* harness/include/quatcheck/plugin.h
  impls/engines/*.cpp impls/engines/repro.txt impls/recipe/*.cpp impls/recipe/repro.txt
  impls/seed/*.cpp impls/seed/*.h impls/seed/repro.txt impls/js/*.js impls/js/repro.txt
  impls/python/*.py impls/python/repro.txt impls/*/libraries.json impls/fixes/qc_slerp.* impls/fixes/QcSlerp.java impls/recommended/qc_slerp.h)
list(SORT QC_EMBED_FILES)
set(QC_EMBED_OUT ${PROJECT_BINARY_DIR}/generated/findings_embedded.cpp)
set(QC_EMBED_DEPS "")
foreach(f ${QC_EMBED_FILES})
  list(APPEND QC_EMBED_DEPS ${PROJECT_SOURCE_DIR}/${f})
endforeach()
add_custom_command(OUTPUT ${QC_EMBED_OUT}
  COMMAND ${CMAKE_COMMAND} -DROOT=${PROJECT_SOURCE_DIR} -DOUT=${QC_EMBED_OUT} "-DFILES=${QC_EMBED_FILES}"
          -P ${PROJECT_SOURCE_DIR}/harness/findings/embed_files.cmake
  DEPENDS ${QC_EMBED_DEPS} ${PROJECT_SOURCE_DIR}/harness/findings/embed_files.cmake
  COMMENT "Embedding the reproducer templates and adapter sources (quatcheck findings)"
  VERBATIM)
target_sources(qc_output PRIVATE ${QC_EMBED_OUT})
