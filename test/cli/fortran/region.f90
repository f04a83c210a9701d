! region.f90: the region API from Fortran; the run script checks the JSON
! report. Stops nonzero when a call fails.
program region
  implicit none
  include 'f90papi.h'
  integer :: retval, i
  real*8 :: s

  s = 0
  do i = 1, 3
     call PAPIF_hl_region_begin('compute   ', retval)
     if (retval /= PAPI_OK) stop 1
     call work(s)
     call PAPIF_hl_read('compute', retval)
     if (retval /= PAPI_OK) stop 2
     call PAPIF_hl_region_end('compute', retval)
     if (retval /= PAPI_OK) stop 3
  end do
  call PAPIF_hl_region_end('never-begun', retval)
  if (retval == PAPI_OK) stop 4
  call PAPIF_hl_stop(retval)
  if (retval /= PAPI_OK) stop 5
  if (s <= 0) stop 6
  print '(A)', 'PASSED'
contains
  subroutine work(acc)
    real*8, intent(inout) :: acc
    integer :: j
    do j = 1, 2000000
       acc = acc + sqrt(real(j, 8))
    end do
  end subroutine work
end program region
