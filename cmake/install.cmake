# What `cmake --install` (and `make install PREFIX=...`) puts where; the layout
# is described in docs/install.md. Included at the end of CMakeLists.txt.
#
#   bin/socmon, bin/socmon-esp-socdefs     the CLI; soc_defs.h/soc_locs.h generator
#   lib/libsocmon.a, lib/libsocmon.so*     static and shared (SONAME libsocmon.so.0)
#   include/socmon/*.h                     the public API
#   include/socmon/compat/*.h              vendor-compatible headers (esp_monitors.h, ...)
#   share/socmon/{socs,metrics}/           SoC descriptions and metric files
#   share/socmon/grafana/                  a Grafana dashboard for the agent's /metrics
#   share/man/man1/socmon.1                the manual page
#   lib/pkgconfig/socmon.pc                pkg-config
#   lib/cmake/socmon/                      find_package(socmon): socmon::socmon, ::socmon_static
#   lib/python3/dist-packages/socmon/      the Python package (SOCMON_PYTHONDIR; docs/python.md)
include(CMakePackageConfigHelpers)

set(SOCMON_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/socmon)

install(TARGETS socmon socmon_shared EXPORT socmonTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS socmon_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET esp_socdefs)
  # Installed under a name that says whose tool it is.
  install(PROGRAMS $<TARGET_FILE:esp_socdefs> DESTINATION ${CMAKE_INSTALL_BINDIR}
          RENAME socmon-esp-socdefs)
endif()

install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/socmon/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/socmon
        FILES_MATCHING PATTERN "*.h")
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/compat/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/socmon/compat FILES_MATCHING PATTERN "*.h")
install(DIRECTORY ${CMAKE_SOURCE_DIR}/socs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/socmon/socs
        FILES_MATCHING PATTERN "*.soc")
install(DIRECTORY ${CMAKE_SOURCE_DIR}/metrics/ DESTINATION ${CMAKE_INSTALL_DATADIR}/socmon/metrics
        FILES_MATCHING PATTERN "*.json")
# a component of its own too, so `cmake --install build --component grafana` puts it alone. Its
# source is dashboards/grafana/: a share/socmon/ in the source tree would be taken for the data
# directory of the binaries in build/ (core/datapath.c looks for ../share/socmon next to them).
install(DIRECTORY ${CMAKE_SOURCE_DIR}/dashboards/grafana/ DESTINATION ${CMAKE_INSTALL_DATADIR}/socmon/grafana
        COMPONENT grafana FILES_MATCHING PATTERN "*.json")
install(FILES ${CMAKE_SOURCE_DIR}/docs/socmon.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

# The Python package, and the way from it to the library: relative, so a moved prefix (or
# cmake --install --prefix) still finds its own libsocmon.so (python/socmon/_lib.py).
set(SOCMON_PYTHONDIR "lib/python3/dist-packages" CACHE STRING
    "where cmake --install puts the socmon Python package, under the prefix")
install(DIRECTORY ${CMAKE_SOURCE_DIR}/python/socmon ${CMAKE_SOURCE_DIR}/python/socmon_tensix
        DESTINATION ${SOCMON_PYTHONDIR} FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(SOCMON_PY_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  file(RELATIVE_PATH SOCMON_PY_LIBDIR /prefix/${SOCMON_PYTHONDIR}/socmon /prefix/${CMAKE_INSTALL_LIBDIR})
endif()
configure_file(${CMAKE_SOURCE_DIR}/cmake/socmon_install.py.in ${CMAKE_BINARY_DIR}/python/_install.py @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/python/_install.py DESTINATION ${SOCMON_PYTHONDIR}/socmon)
# the package's version is the library's (include/socmon/version.h, read into PROJECT_VERSION)
configure_file(${CMAKE_SOURCE_DIR}/cmake/socmon_version.py.in ${CMAKE_BINARY_DIR}/python/_version.py @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/python/_version.py DESTINATION ${SOCMON_PYTHONDIR}/socmon)

# pkg-config: paths relative to the .pc file, so it stays right under
# `cmake --install --prefix` and a moved prefix. The way up from
# LIBDIR/pkgconfig to the prefix depends on LIBDIR (lib/x86_64-linux-gnu on
# Debian is three levels deep); a directory given as an absolute path stays one.
file(RELATIVE_PATH SOCMON_PC_UP ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" SOCMON_PC_UP "${SOCMON_PC_UP}")
if(SOCMON_PC_UP STREQUAL "")
  set(SOCMON_PC_UP .)
endif()
foreach(d LIBDIR INCLUDEDIR DATADIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${d}}")
    set(SOCMON_PC_${d} "${CMAKE_INSTALL_${d}}")
  else()
    set(SOCMON_PC_${d} "\${prefix}/${CMAKE_INSTALL_${d}}")
  endif()
endforeach()
configure_file(${CMAKE_SOURCE_DIR}/cmake/socmon.pc.in ${CMAKE_BINARY_DIR}/socmon.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/socmon.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The CMake package.
install(EXPORT socmonTargets NAMESPACE socmon:: DESTINATION ${SOCMON_CMAKE_DIR})
set(SOCMON_PKG_DATADIR ${CMAKE_INSTALL_DATADIR}/socmon)
set(SOCMON_PKG_BINDIR ${CMAKE_INSTALL_BINDIR})
configure_package_config_file(${CMAKE_SOURCE_DIR}/cmake/socmonConfig.cmake.in
  ${CMAKE_BINARY_DIR}/socmonConfig.cmake INSTALL_DESTINATION ${SOCMON_CMAKE_DIR}
  PATH_VARS SOCMON_PKG_DATADIR SOCMON_PKG_BINDIR)
# 0.x: a new minor version may change the ABI (SOVERSION is the major).
write_basic_package_version_file(${CMAKE_BINARY_DIR}/socmonConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/socmonConfig.cmake ${CMAKE_BINARY_DIR}/socmonConfigVersion.cmake
        DESTINATION ${SOCMON_CMAKE_DIR})
