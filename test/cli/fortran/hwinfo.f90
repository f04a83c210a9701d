! hwinfo.f90: hardware, executable and memory information through the
! PAPIF calls (free form, f90papi.h); stops nonzero on a wrong value.
program hwinfo
  implicit none
  include 'f90papi.h'
  integer :: retval, ncpu, nnodes, totalcpus, vendor, model, rate, dom, grn, es
  integer*8 :: dmem(PAPIF_DMEM_MAXVAL), ts, te, ds, de, bs, be, c0, c1
  real :: revision, mhz
  character(len=PAPI_MAX_STR_LEN) :: vstring, mstring, preload
  character(len=PAPI_HUGE_STR_LEN) :: fullname, name
  character(len=4) :: short

  retval = PAPI_VER_CURRENT
  call PAPIF_library_init(retval)
  if (retval /= PAPI_VER_CURRENT) stop 1

  totalcpus = -1
  call PAPIF_get_hardware_info(ncpu, nnodes, totalcpus, vendor, vstring, &
       model, mstring, revision, mhz)
  if (totalcpus < 1 .or. ncpu < 1 .or. nnodes < 1) stop 2
  if (len_trim(vstring) == 0 .or. len_trim(mstring) == 0) stop 3
  print '(A,I0,3A)', 'cpus ', totalcpus, ' vendor "', trim(vstring), '"'

  call PAPIF_get_exe_info(fullname, name, ts, te, ds, de, bs, be, retval)
  if (retval /= PAPI_OK) stop 4
  if (trim(name) /= 'hwinfo') stop 5
  if (index(fullname, '/hwinfo') == 0) stop 6
  if (te <= ts) stop 7

  call PAPIF_get_dmem_info(dmem, retval)
  if (retval /= PAPI_OK) stop 8
  if (dmem(PAPIF_DMEM_PAGESIZE) < 1024) stop 9
  if (dmem(PAPIF_DMEM_RESIDENT) <= 0) stop 10
  if (dmem(PAPIF_DMEM_VMSIZE) < dmem(PAPIF_DMEM_RESIDENT)) stop 11

  call PAPIF_get_clockrate(rate)
  if (rate <= 0) stop 12
  call PAPIF_get_preload(preload, retval)
  if (retval /= PAPI_OK .or. trim(preload) /= 'LD_PRELOAD') stop 13
  ! a short Fortran string gets a truncated copy
  call PAPIF_get_preload(short, retval)
  if (retval /= PAPI_OK .or. short /= 'LD_P') stop 14

  call PAPIF_get_domain(0, dom, PAPI_DEFDOM, retval)
  if (retval /= PAPI_OK .or. dom /= PAPI_DOM_USER) stop 15
  call PAPIF_get_granularity(0, grn, PAPI_DEFGRN, retval)
  if (retval /= PAPI_OK .or. grn /= PAPI_GRN_THR) stop 16
  es = PAPI_NULL
  call PAPIF_create_eventset(es, retval)
  if (retval /= PAPI_OK) stop 17
  ! the domain is a component's: the set needs an event first
  call PAPIF_set_event_domain(es, PAPI_DOM_ALL, retval)
  if (retval /= PAPI_ENOCMP) stop 22
  call PAPIF_add_named_event(es, 'perf::TASK-CLOCK', retval)
  if (retval /= PAPI_OK) stop 23
  call PAPIF_set_event_domain(es, PAPI_DOM_ALL, retval)
  if (retval /= PAPI_OK) stop 18
  call PAPIF_get_domain(es, dom, PAPI_DOMAIN, retval)
  ! DOM_ALL keeps the domains perf_event has that this user may count: user
  ! and hypervisor, and the kernel with the privilege (t_options checks which)
  if (retval /= PAPI_OK .or. iand(dom, PAPI_DOM_USER) == 0 .or. &
      iand(dom, PAPI_DOM_SUPERVISOR) == 0) stop 19
  call PAPIF_get_domain(es, dom, 12345, retval)
  if (retval /= PAPI_EINVAL) stop 20

  call PAPIF_get_real_cyc(c0)
  call PAPIF_get_virt_usec(ts)
  call PAPIF_get_real_cyc(c1)
  if (c1 < c0 .or. ts < 0) stop 21
  print '(A)', 'PASSED'
end program hwinfo
