# CPack: `cpack -G DEB` in the build folder writes one package per install component (docs/install.md):
#   quatcheck_<version>_<arch>.deb          the component `core`: the tool, the report script, the plugin header,
#                                           quatcheck::testing (library and headers), quatcheck::slerp_cr
#                                           (libquatcheck_slerp_cr.so and slerp_cr.h), the CMake package, the
#                                           pkg-config file and the docs;
#   quatcheck-engines_<version>_<arch>.deb  the component `engines` (only from a build with engine adapters): the
#                                           engine modules under /usr/lib/quatcheck/engines/, which the tool loads at
#                                           start-up (harness/plugins/engines.h).
# plugin.h includes only <stddef.h>, so a plugin author needs nothing more than a C compiler, and a separate
# -dev package would hold one header. Depends come from each package's real shared libraries (dpkg-shlibdeps): the
# core package's from the binary and libquatcheck_testing.so, so it names no engine library; the engines package's
# from the modules (the engine libraries), plus quatcheck of the same version.
# The core package adds python3 for `quatcheck report`, which Suggests python3-matplotlib (report says so when it is
# missing): as a Recommends, apt's default install pulled it in, about 170 more packages and 900 MB on a minimal
# Debian 12 (scripts/readme/package_sizes.py --deb; issue 37), for a user who may only want the CLI or the testing
# library.
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
set(CPACK_DEB_COMPONENT_INSTALL ON)
get_property(QC_ENGINE_MODULES GLOBAL PROPERTY QC_ENGINE_MODULES)
if(QC_ENGINE_MODULES)
  set(CPACK_COMPONENTS_ALL core engines)
else()
  set(CPACK_COMPONENTS_ALL core)
endif()
set(CPACK_DEBIAN_CORE_PACKAGE_NAME quatcheck)
# (CPack puts CPACK_PACKAGE_DESCRIPTION_SUMMARY as the first line of each package's description.)
set(CPACK_DEBIAN_CORE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
set(CPACK_DEBIAN_CORE_PACKAGE_DEPENDS "python3")
# quatcheck::testing's headers include GoogleTest's and RapidCheck's: a project that uses them has those.
set(CPACK_DEBIAN_CORE_PACKAGE_SUGGESTS
  "python3-matplotlib, cmake, pkg-config, gcc | c-compiler, libgtest-dev, libgmock-dev, librapidcheck-dev")
set(CPACK_DEBIAN_ENGINES_PACKAGE_NAME quatcheck-engines)
set(CPACK_DEBIAN_ENGINES_DESCRIPTION "The engine library adapters of quatcheck as modules the tool loads at start-up from
/usr/lib/quatcheck/engines: each measures a quaternion routine of one library (glm, Eigen, Bullet, OGRE, Assimp,
Irrlicht, OpenSceneGraph, Qt, cglm, tf2, OpenCV, VTK, MRPT: the ones found when it was built). Depends on those
libraries and on quatcheck of the same version.")
set(CPACK_DEBIAN_ENGINES_PACKAGE_DEPENDS "quatcheck (= ${PROJECT_VERSION})")
set(CPACK_STRIP_FILES ON)
include(CPack)
