# Live replay (`ftlsim replay`, src/replay) is the only code that needs
# liburing, libnvme and libblkid. FTLSIM_REPLAY decides whether it is built:
#   AUTO (default)  built when all three are found, else left out with a note
#   ON              built; a missing library stops the configure step
#   OFF             left out; the simulator, sweeps, timed mode, gen,
#                   convert and info build and run without these libraries
# Without it, `ftlsim replay` stays a command that refuses with one line.
# Sets FTLSIM_WITH_REPLAY, and URING/BLKID targets and NVME_* paths when on.
set(FTLSIM_REPLAY "AUTO" CACHE STRING "Live replay (liburing, libnvme, libblkid): AUTO, ON or OFF")
set_property(CACHE FTLSIM_REPLAY PROPERTY STRINGS AUTO ON OFF)

set(FTLSIM_WITH_REPLAY OFF)
if(FTLSIM_REPLAY STREQUAL "OFF")
  message(STATUS "ftlsim: live replay off (FTLSIM_REPLAY=OFF)")
  return()
elseif(NOT FTLSIM_REPLAY MATCHES "^(AUTO|ON)$")
  message(FATAL_ERROR "FTLSIM_REPLAY must be AUTO, ON or OFF, not '${FTLSIM_REPLAY}'")
endif()

set(missing "")
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(URING QUIET IMPORTED_TARGET liburing)
  # libblkid (Debian libblkid-dev): the system's own table of file-system,
  # RAID and partition-table signatures, for the target safety check.
  pkg_check_modules(BLKID QUIET IMPORTED_TARGET blkid)
endif()
if(NOT URING_FOUND)
  list(APPEND missing "liburing (liburing-dev)")
endif()
if(NOT BLKID_FOUND)
  list(APPEND missing "libblkid (libblkid-dev)")
endif()
# libnvme.pc names json-c and openssl as private requirements that Debian does
# not install with libnvme-dev, so pkg-config refuses it; the shared library
# and headers are all a dynamic link needs.
find_path(NVME_INCLUDE_DIR libnvme.h)
find_library(NVME_LIBRARY nvme)
if(NOT NVME_INCLUDE_DIR OR NOT NVME_LIBRARY)
  list(APPEND missing "libnvme (libnvme-dev)")
endif()

if(missing)
  list(JOIN missing ", " missing_text)
  if(FTLSIM_REPLAY STREQUAL "ON")
    message(FATAL_ERROR "FTLSIM_REPLAY=ON but not found: ${missing_text} (tools/install_deps.sh build installs them)")
  endif()
  message(STATUS "ftlsim: live replay off, not found: ${missing_text}; the simulator builds without it")
  return()
endif()
set(FTLSIM_WITH_REPLAY ON)
message(STATUS "ftlsim: live replay on (liburing, libnvme, libblkid found)")
