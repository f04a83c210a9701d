/* sim_priv.h: the simulated PMU's state, shared by sim_pmu.c (the seam) and sim_clock.c (time, samples, user page). */
#ifndef PAPI_TEST_SIM_PRIV_H
#define PAPI_TEST_SIM_PRIV_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

#include "sim/sim_pmu.h"


#define MAXEV 1024
#define MAXDECL 256
#define MAXSIG 256
#define MAXMAP 256
#define FIXED_BASE 8

struct sev {			/* one open counter */
	int used, fd, pmu;	/* pmu: index into sim_cfg.pmu, -1 for software */
	int leader;		/* slot of the group leader (itself for a leader) */
	int seq;		/* open order, for the group read layout */
	struct perf_event_attr attr;
	int enabled, error;
	unsigned mask;
	uint64_t num, den, rem;
	uint64_t count, tenabled, trunning, id;
	int counter;		/* counter while scheduled, -1 otherwise */
	uint64_t period, left;	/* sampling */
	long long limit;	/* REFRESH overflows left; 0 = unlimited */
	uint64_t overflows, samples, lost, wake;
	int async, sig, owner, owner_is_tid;
	struct perf_event_mmap_page *page;
	size_t maplen;
	int pg_stale;		/* rescheduled since its page was last written */
};

struct decl {
	uint32_t type;
	uint64_t config;
	unsigned mask;
	uint64_t num, den;
	int err;
};

struct sigq {
	int sig, fd, code, tid, to_thread;
};

struct smap {
	void *addr;
	size_t len;
	int refs;
};

/* All state is guarded by sim_lock. */
extern pthread_mutex_t sim_lock;
extern struct sim_config sim_cfg;
extern struct sev sim_evs[MAXEV];
extern struct decl sim_decls[MAXDECL];
extern int sim_ndecls;
extern int sim_order[MAXEV], sim_norder;	/* group leaders in rotation order */
extern uint64_t sim_raw[SIM_MAX_PMUS][SIM_MAX_CNTRS];
extern uint64_t sim_now_ns, sim_ip, sim_next_id, sim_nsignals;
extern int sim_seqno, sim_nopens, sim_fail_err, sim_fail_n, sim_busy;
extern struct sigq sim_pend[MAXSIG];
extern int sim_npend;
extern struct smap sim_maps[MAXMAP];
extern uint64_t sim_nreads, sim_nrdpmcs;
extern int sim_interfere_n;


uint64_t sim_wmask(int pmu);
int64_t sim_sext(uint64_t v, int w);
struct sev *sim_ev_of(int fd);
/* Hardware members of the group led by slot l (enabled ones when live). */
int sim_group_hw(int l, int live, int *idx);
/* Place events on distinct counters not in taken; 1 when they fit. */
int sim_fit(const unsigned *masks, const int *prev, int n, unsigned taken, int *assign);
void sim_page_update(struct sev *e);
/* The seam's rdpmc and tsc ops (sim_clock.c). */
uint64_t sim_rdpmc_op(uint32_t idx);
uint64_t sim_tsc_op(void);
/* Counter number of an rdpmc index (fixed counters: bit 30), -1 if none. */
int sim_counter_of(uint32_t idx);
void *sim_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
int sim_munmap(void *addr, size_t len);

#endif
