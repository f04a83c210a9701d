! calls.f90: the rest of the PAPIF calls on software events: read_ts, accum,
! reset, write, enum_event, get_event_info, multiplexing, threads and locks,
! legacy counters, rates; stops nonzero on a wrong result.
program calls
  implicit none
  include 'f90papi.h'
  integer :: retval, es, code, n, status, id, mpx, ncodes
  integer :: codes(1), count, flags
  integer*8 :: v(1), acc(1), cyc, t0, t1
  real :: rt, pt, ipc
  integer*8 :: ins
  character(len=PAPI_MAX_STR_LEN) :: sym, sdescr, note
  character(len=PAPI_HUGE_STR_LEN) :: ldescr
  character(len=8) :: short

  retval = PAPI_VER_CURRENT
  call PAPIF_library_init(retval)
  if (retval /= PAPI_VER_CURRENT) stop 1
  call PAPIF_set_debug(PAPI_QUIET, retval)
  if (retval /= PAPI_OK) stop 2
  call PAPIF_set_debug(12345, retval)
  if (retval /= PAPI_EINVAL) stop 3

  call PAPIF_event_name_to_code('perf::TASK-CLOCK', code, retval)
  if (retval /= PAPI_OK) stop 4
  call PAPIF_get_event_info(code, sym, ldescr, sdescr, count, note, flags, retval)
  if (retval /= PAPI_OK) stop 5
  if (trim(sym) /= 'perf::TASK-CLOCK' .or. len_trim(ldescr) == 0) stop 6
  if (flags /= 0) stop 7
  ! a name longer than the variable comes back cut to its length
  call PAPIF_event_code_to_name(code, short, retval)
  if (retval /= PAPI_OK .or. short /= 'perf::TA') stop 8
  call PAPIF_event_name_to_code('no::SUCH-EVENT', n, retval)
  if (retval /= PAPI_ENOEVNT) stop 9
  call PAPIF_query_named_event('perf::PAGE-FAULTS', retval)
  if (retval /= PAPI_OK) stop 10

  ! every preset code that PAPIF_enum_event walks names a preset
  n = PAPI_PRESET_MASK
  call PAPIF_enum_event(n, PAPI_ENUM_FIRST, retval)
  if (retval /= PAPI_OK .or. n /= PAPI_L1_DCM) stop 11
  ncodes = 1
  do
     call PAPIF_enum_event(n, PAPI_ENUM_EVENTS, retval)
     if (retval /= PAPI_OK) exit
     ncodes = ncodes + 1
     call PAPIF_event_code_to_name(n, sym, retval)
     if (retval /= PAPI_OK .or. sym(1:5) /= 'PAPI_') stop 12
  end do
  if (ncodes < 50) stop 13

  es = PAPI_NULL
  call PAPIF_create_eventset(es, retval)
  call PAPIF_add_event(es, code, retval)
  if (retval /= PAPI_OK) stop 14
  call PAPIF_start(es, retval)
  if (retval /= PAPI_OK) stop 15
  call spin()
  call PAPIF_read_ts(es, v, cyc, retval)
  if (retval /= PAPI_OK .or. v(1) <= 0 .or. cyc <= 0) stop 16
  acc(1) = 0
  call PAPIF_accum(es, acc, retval)
  if (retval /= PAPI_OK .or. acc(1) < v(1)) stop 17
  call PAPIF_reset(es, retval)
  if (retval /= PAPI_OK) stop 18
  call PAPIF_read(es, v, retval)
  if (retval /= PAPI_OK .or. v(1) >= acc(1)) stop 19
  call PAPIF_state(es, status, retval)
  if (retval /= PAPI_OK .or. status /= PAPI_RUNNING) stop 20
  call PAPIF_stop(es, v, retval)
  if (retval /= PAPI_OK) stop 21
  call PAPIF_stop(es, v, retval)
  if (retval /= PAPI_ENOTRUN) stop 22

  call PAPIF_multiplex_init(retval)
  if (retval /= PAPI_OK) stop 23
  call PAPIF_get_multiplex(es, mpx)
  if (mpx /= 0) stop 24
  call PAPIF_set_multiplex(es, retval)
  if (retval /= PAPI_OK) stop 25
  call PAPIF_get_multiplex(es, mpx)
  if (mpx /= 1) stop 26
  call PAPIF_remove_event(es, code, retval)
  if (retval /= PAPI_OK) stop 27
  call PAPIF_num_events(es, n)
  if (n /= 0) stop 28
  call PAPIF_destroy_eventset(es, retval)
  if (retval /= PAPI_OK) stop 29

  call PAPIF_register_thread(retval)
  if (retval /= PAPI_OK) stop 30
  call PAPIF_thread_id(id)
  if (id == -1) stop 31
  call PAPIF_lock(PAPI_USR1_LOCK)
  call PAPIF_unlock(PAPI_USR1_LOCK)
  call PAPIF_unregister_thread(retval)
  if (retval /= PAPI_OK) stop 32

  ! the legacy counters on a software event
  codes(1) = code
  call PAPIF_start_counters(codes, 1, retval)
  if (retval /= PAPI_OK) stop 33
  call spin()
  call PAPIF_read_counters(v, 1, retval)
  if (retval /= PAPI_OK .or. v(1) <= 0) stop 34
  call PAPIF_accum_counters(acc, 1, retval)
  if (retval /= PAPI_OK) stop 35
  call PAPIF_stop_counters(v, 1, retval)
  if (retval /= PAPI_OK) stop 36
  call PAPIF_stop_counters(v, 1, retval)
  if (retval /= PAPI_ENOTRUN) stop 37
  call PAPIF_num_counters(n)
  if (n < 0) stop 38
  call PAPIF_num_hwctrs(n)
  if (n < 0) stop 39

  ! PAPI_ipc needs hardware events: an error code here, never a crash
  call PAPIF_ipc(rt, pt, ins, ipc, retval)
  if (retval /= PAPI_OK .and. retval >= 0) stop 40

  call PAPIF_get_real_nsec(t0)
  call spin()
  call PAPIF_get_real_nsec(t1)
  if (t1 <= t0) stop 41
  call PAPIF_perror('calls')
  print '(A,I0,A)', 'enumerated ', ncodes, ' presets'
  print '(A)', 'PASSED'
contains
  subroutine spin()
    real*8 :: s
    integer :: j
    s = 0
    do j = 1, 3000000
       s = s + sqrt(real(j, 8))
    end do
    if (s < 0) print *, s
  end subroutine spin
end program calls
