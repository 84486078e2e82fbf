# Install rules, CMake package and pkg-config file (docs/install.md). Included by the top-level CMakeLists.txt
# after the quatcheck target exists.
#
#   cmake --install build --prefix P   installs
#     P/bin/quatcheck
#     P/share/quatcheck/scripts/         plot_report.py and the helpers it imports (found by `quatcheck report`), bench_peers.py (`quatcheck bench`),
#                                        relative to the binary: <exe>/../share/quatcheck/scripts)
#     P/include/quatcheck/plugin.h       the plugin ABI (it includes only <stddef.h>)
#     P/include/quatcheck/{case,reference,gtest,rapidcheck,properties}.h   quatcheck::testing's headers (C++17)
#     P/lib/<arch>/libquatcheck_testing.so*  quatcheck::testing (docs/testing-api.md)
#     P/include/quatcheck/slerp_cr.h     the correctly rounded slerp's C and C++ API (docs/slerp-cr.md)
#     P/lib/<arch>/libquatcheck_slerp_cr.so*  quatcheck::slerp_cr (needs only MPFR and GMP)
#     P/lib/<arch>/cmake/quatcheck/      quatcheckConfig.cmake (+ version), the exported targets
#                                        quatcheck::plugin (INTERFACE, include path), quatcheck::testing, quatcheck::slerp_cr
#                                        and quatcheck::quatcheck
#                                        (imported executable), and QuatcheckGate.cmake (the CTest gate)
#     P/share/pkgconfig/quatcheck.pc     for plugin authors without CMake
#     P/share/doc/quatcheck/             README.md, docs/, examples/, help-all.txt (`quatcheck --help-all`)
#     P/share/man/man1/quatcheck.1       the man page, generated from the same help
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(QC_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/quatcheck CACHE STRING "Where quatcheckConfig.cmake is installed")
set(QC_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/quatcheck)

# The plugin ABI as a target: include path only, nothing to link.
add_library(qc_plugin_api INTERFACE)
set_target_properties(qc_plugin_api PROPERTIES EXPORT_NAME plugin)
target_include_directories(qc_plugin_api INTERFACE
  $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/harness/include>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
add_library(quatcheck::plugin ALIAS qc_plugin_api)

install(TARGETS quatcheck qc_plugin_api EXPORT quatcheckTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES harness/include/quatcheck/plugin.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/quatcheck)
# quatcheck::testing (docs/testing-api.md): the shared library and its C++17 headers.
install(TARGETS qc_testing EXPORT quatcheckTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES harness/include/quatcheck/case.h testing/include/quatcheck/reference.h testing/include/quatcheck/gtest.h
  testing/include/quatcheck/rapidcheck.h testing/include/quatcheck/properties.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/quatcheck)
# quatcheck::slerp_cr (docs/slerp-cr.md "Shipped as quatcheck::slerp_cr"): the shared library and its C header.
install(TARGETS qc_slerp_cr EXPORT quatcheckTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES harness/include/quatcheck/slerp_cr.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/quatcheck)
install(FILES scripts/plot_report.py scripts/qc_tables.py scripts/bench_peers.py DESTINATION ${QC_INSTALL_DATADIR}/scripts)
install(FILES scripts/readme/frontier.py DESTINATION ${QC_INSTALL_DATADIR}/scripts/readme)
# The report's pages (qc_report/*.py) and the style sheet and scripts they carry inline (qc_report/static/).
install(DIRECTORY scripts/qc_report DESTINATION ${QC_INSTALL_DATADIR}/scripts
  FILES_MATCHING PATTERN "*.py" PATTERN "*.css" PATTERN "*.js" PATTERN "__pycache__" EXCLUDE)

install(EXPORT quatcheckTargets NAMESPACE quatcheck:: DESTINATION ${QC_INSTALL_CMAKEDIR})
configure_package_config_file(cmake/quatcheckConfig.cmake.in ${PROJECT_BINARY_DIR}/quatcheckConfig.cmake
  INSTALL_DESTINATION ${QC_INSTALL_CMAKEDIR})
# 0.x: a new minor version may change the report tables, so only the same minor version satisfies a request.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/quatcheckConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/quatcheckConfig.cmake ${PROJECT_BINARY_DIR}/quatcheckConfigVersion.cmake
  cmake/QuatcheckGate.cmake cmake/QuatcheckGateStep.cmake DESTINATION ${QC_INSTALL_CMAKEDIR})

# pkg-config: prefix relative to the .pc file's own folder, so an unpacked or moved prefix still works.
file(RELATIVE_PATH QC_PC_TO_PREFIX /${CMAKE_INSTALL_DATADIR}/pkgconfig /)
configure_file(cmake/quatcheck.pc.in ${PROJECT_BINARY_DIR}/quatcheck.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/quatcheck.pc DESTINATION ${CMAKE_INSTALL_DATADIR}/pkgconfig)

# Documentation, the full help as text and as a man page (both generated from `quatcheck --help-all`).
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs)
# The README's "Five minutes" paths for a user of the package: examples/downstream (a plugin and its CTest gate)
# and examples/unit-tests (quatcheck::testing in a project's own tests).
install(DIRECTORY examples/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples PATTERN "build*" EXCLUDE)
# ... and the complete plugin step 1 names (impls/examples/example_plugin.c in a checkout).
install(FILES impls/examples/example_plugin.c DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples/plugin)
add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/help-all.txt ${PROJECT_BINARY_DIR}/quatcheck.1
  COMMAND ${QC_PYTHON} ${PROJECT_SOURCE_DIR}/scripts/make_manpage.py $<TARGET_FILE:quatcheck> ${PROJECT_VERSION}
          ${PROJECT_BINARY_DIR}/help-all.txt ${PROJECT_BINARY_DIR}/quatcheck.1
  DEPENDS quatcheck ${PROJECT_SOURCE_DIR}/scripts/make_manpage.py
  COMMENT "Writing help-all.txt and the man page quatcheck.1 from quatcheck --help-all"
  VERBATIM)
add_custom_target(qc_manpage ALL DEPENDS ${PROJECT_BINARY_DIR}/help-all.txt ${PROJECT_BINARY_DIR}/quatcheck.1)
install(FILES ${PROJECT_BINARY_DIR}/help-all.txt DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${PROJECT_BINARY_DIR}/quatcheck.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
