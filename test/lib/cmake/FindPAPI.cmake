# FindPAPI.cmake: finds PAPI as the FindPAPI modules of PAPI's users do.
#   PAPI_PREFIX (hint)  ->  PAPI_FOUND, PAPI_VERSION, PAPI_INCLUDE_DIRS, PAPI_LIBRARIES
find_path(PAPI_INCLUDE_DIR papi.h HINTS ${PAPI_PREFIX}/include NO_DEFAULT_PATH)
find_path(PAPI_INCLUDE_DIR papi.h)
find_library(PAPI_LIBRARY papi HINTS ${PAPI_PREFIX}/lib NO_DEFAULT_PATH)
find_library(PAPI_LIBRARY papi)
if(PAPI_INCLUDE_DIR)
  file(STRINGS ${PAPI_INCLUDE_DIR}/papi.h _papi_version_line
       REGEX "^#define[ \t]+PAPI_VERSION[ \t]+PAPI_VERSION_NUMBER")
  string(REGEX REPLACE ".*PAPI_VERSION_NUMBER\\(([0-9]+),([0-9]+),([0-9]+),([0-9]+)\\).*"
         "\\1.\\2.\\3.\\4" PAPI_VERSION "${_papi_version_line}")
endif()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(PAPI REQUIRED_VARS PAPI_LIBRARY PAPI_INCLUDE_DIR VERSION_VAR PAPI_VERSION)
set(PAPI_INCLUDE_DIRS ${PAPI_INCLUDE_DIR})
set(PAPI_LIBRARIES ${PAPI_LIBRARY})
