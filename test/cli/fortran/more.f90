! more.f90: PAPI 7.0's remaining Fortran calls: the component domain and
! granularity, inherit, the device queries and the misspelt unregister.
program more
  implicit none
  include 'f90papi.h'
  integer :: check, handle, value
  character(len=64) :: name

  check = PAPI_VER_CURRENT
  call PAPIF_library_init(check)
  if (check /= PAPI_VER_CURRENT) stop 1
  call PAPIF_set_cmp_domain(PAPI_DOM_ALL, 0, check)
  if (check /= PAPI_OK) stop 2
  call PAPIF_set_cmp_domain(PAPI_DOM_USER, 99, check)
  if (check /= PAPI_ENOCMP) stop 3
  call PAPIF_set_cmp_granularity(PAPI_GRN_THR, 0, check)
  if (check /= PAPI_OK) stop 4
  ! PAPI 7.0's names no EventSet: the error for a missing one
  call PAPIF_set_inherit(1, check)
  if (check /= PAPI_ENOEVST) stop 5
  ! the device queries answer, or say they are not implemented
  handle = -1
  call PAPIF_enum_dev_type(PAPI_DEV_TYPE_ENUM__CPU, handle, check)
  if (check /= PAPI_OK .and. check /= PAPI_ENOIMPL .and. check /= PAPI_EINVAL) stop 6
  if (handle /= 0) stop 7
  value = -1
  name = 'untouched'
  call PAPIF_get_dev_type_attr(handle, PAPI_DEV_TYPE_ATTR__INT_COUNT, value, name, check)
  if (check == PAPI_OK .and. value < 0) stop 8
  if (check /= PAPI_OK .and. name /= 'untouched') stop 9
  call PAPIF_get_dev_attr(handle, 0, PAPI_DEV_ATTR__CPU_CHAR_NAME, value, name, check)
  if (check /= PAPI_OK .and. name /= 'untouched') stop 10
  call PAPIF_register_thread(check)
  if (check /= PAPI_OK) stop 11
  call PAPIF_unregster_thread(check)
  if (check /= PAPI_OK) stop 12
  print '(A)', 'more: PASSED'
end program more
