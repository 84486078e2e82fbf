# CPack: `cpack -G DEB` in the build folder writes quatcheck_<version>_<arch>.deb (docs/install.md).
# One package holds the tool, the report script, the plugin header, quatcheck::testing (library and headers), the
# CMake package and the pkg-config file:
# plugin.h includes only <stddef.h>, so a plugin author needs nothing more than a C compiler, and a separate
# -dev package would hold one header. Depends come from the binary's real shared libraries (dpkg-shlibdeps),
# plus python3 for `quatcheck report`, which Suggests python3-matplotlib (report says so when it is missing): as a
# Recommends, apt's default install pulled it in, about 170 more packages and 900 MB on a minimal Debian 12
# (scripts/readme/package_sizes.py --deb; issue 37), for a user who may only want the CLI or the testing library.
set(CPACK_PACKAGE_NAME quatcheck)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "accuracy and conformance harness for quaternion slerp, nlerp and squad")
set(CPACK_PACKAGE_DESCRIPTION "quatcheck measures slerp, nlerp and squad implementations (built-ins, plugins, process
 plugins) against a certified arbitrary-precision reference, checks their properties, and writes CSV, JSON
 and HTML reports. Includes the plugin header, a CMake package with a CTest accuracy gate, a pkg-config file, and
 quatcheck::testing, a library of GoogleTest matchers, RapidCheck generators and conformance properties.")
set(CPACK_PACKAGE_CONTACT "quatcheck maintainers <quatcheck@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "python3")
# quatcheck::testing's headers include GoogleTest's and RapidCheck's: a project that uses them has those.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS
  "python3-matplotlib, cmake, pkg-config, gcc | c-compiler, libgtest-dev, libgmock-dev, librapidcheck-dev")
set(CPACK_STRIP_FILES ON)
include(CPack)
