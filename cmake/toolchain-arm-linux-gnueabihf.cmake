# Cross build for 32-bit Arm Linux (the Zynq-7000's Cortex-A9 cores), with Debian's
# gcc-arm-linux-gnueabihf, and tests run under qemu-user (docs/install.md, `make test-arm`):
#   cmake -S . -B build-arm -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-arm-linux-gnueabihf.cmake
# libc comes with the cross compiler (/usr/arm-linux-gnueabihf); the other libraries from the
# armhf sysroot scripts/armhf-sysroot.sh unpacks (default .deps/armhf-sysroot; another one, such
# as a board's root file system, with -DSOCMON_ARMHF_SYSROOT=DIR).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(SOCMON_ARMHF_TRIPLE arm-linux-gnueabihf)
set(CMAKE_C_COMPILER ${SOCMON_ARMHF_TRIPLE}-gcc)
set(CMAKE_CXX_COMPILER ${SOCMON_ARMHF_TRIPLE}-g++)

if(NOT SOCMON_ARMHF_SYSROOT)
  set(SOCMON_ARMHF_SYSROOT "${CMAKE_CURRENT_LIST_DIR}/../.deps/armhf-sysroot")
endif()
get_filename_component(SOCMON_ARMHF_SYSROOT "${SOCMON_ARMHF_SYSROOT}" ABSOLUTE)
# try_compile projects re-read this file without the cache: pass the sysroot on
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES SOCMON_ARMHF_SYSROOT)
if(NOT EXISTS "${SOCMON_ARMHF_SYSROOT}/usr/lib/${SOCMON_ARMHF_TRIPLE}/pkgconfig")
  message(FATAL_ERROR "armhf sysroot ${SOCMON_ARMHF_SYSROOT} has no usr/lib/${SOCMON_ARMHF_TRIPLE}/pkgconfig: "
                      "run 'sh scripts/armhf-sysroot.sh' (make test-arm does)")
endif()
set(SOCMON_ARMHF_LIBDIR "${SOCMON_ARMHF_SYSROOT}/usr/lib/${SOCMON_ARMHF_TRIPLE}")

# Libraries and headers from the sysroot and the cross libc only; programs (pkg-config,
# python3, the RISC-V tools) from the host.
set(CMAKE_FIND_ROOT_PATH "${SOCMON_ARMHF_SYSROOT}" /usr/${SOCMON_ARMHF_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config answers for the armhf .pc files only, with the sysroot prefixed to -I and -L.
set(ENV{PKG_CONFIG_LIBDIR} "${SOCMON_ARMHF_LIBDIR}/pkgconfig:${SOCMON_ARMHF_SYSROOT}/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "${SOCMON_ARMHF_SYSROOT}")

# The .pc files name /usr/include, which pkg-config drops as a system directory: give the
# compiler the sysroot's include directories itself. -rpath-link lets the linker resolve the
# libraries' own dependencies (libmicrohttpd -> libgnutls -> ...) inside the sysroot.
set(CMAKE_C_FLAGS_INIT "-isystem ${SOCMON_ARMHF_SYSROOT}/usr/include/${SOCMON_ARMHF_TRIPLE} -isystem ${SOCMON_ARMHF_SYSROOT}/usr/include")
set(CMAKE_CXX_FLAGS_INIT "${CMAKE_C_FLAGS_INIT}")
foreach(kind EXE SHARED MODULE)
  set(CMAKE_${kind}_LINKER_FLAGS_INIT "-L${SOCMON_ARMHF_LIBDIR} -Wl,-rpath-link,${SOCMON_ARMHF_LIBDIR}")
endforeach()

# ctest (and CMake itself where it must run a target program) goes through qemu-arm: -L gives
# it the cross libc's dynamic loader, -E the sysroot's libraries.
find_program(SOCMON_QEMU_ARM qemu-arm)
if(NOT SOCMON_QEMU_ARM)
  message(FATAL_ERROR "qemu-arm not found: install Debian's qemu-user (scripts/install-deps.sh does)")
endif()
set(CMAKE_CROSSCOMPILING_EMULATOR "${SOCMON_QEMU_ARM};-L;/usr/${SOCMON_ARMHF_TRIPLE};-E;LD_LIBRARY_PATH=${SOCMON_ARMHF_LIBDIR}")
