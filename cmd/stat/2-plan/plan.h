/* plan.h: papi stat's plan: the events to count (-e, -g, the default set), their codes and roles, the metric groups, the domain. */
#ifndef PAPI_CMD_STAT_PLAN_H
#define PAPI_CMD_STAT_PLAN_H

#include "base.h"

/* ---- events.c */
/* Add event name (not copied: it must outlive s) to s->ev; deflt: what the
 * default set and groups add, reported as not supported when it cannot be
 * counted. Its index, or -1 when out of memory. */
int st_event_push(struct st *s, const char *name, int deflt);
/* Add each name of the comma-separated list to s->ev; the events of a
 * {a,b,...} in it form a group counted together or not at all. 0, or -1
 * after a usage message (empty name, unbalanced or nested braces). */
int st_events_parse(struct st *s, char *list);
/* The default set when no -e was given. 0, or -1 out of memory. */
int st_events_default(struct st *s);
/* Resolve every name to a code, its component, role and unit. 0, or -1
 * after printing which event is unknown and why. Default-set events that
 * do not resolve become "not available". */
int st_events_resolve(struct st *s);

/* ---- groups.c: metric groups */
/* -g LIST: add the comma-separated group names to s->o.groups. 0, or -1
 * after a usage message. */
int st_groups_parse(struct st *s, char *list);
/* Add each -g group's events to s->ev (the alternative that counts here;
 * one already there is not added again), before st_events_resolve; with
 * --topdown (s->o.topdown), this CPU's TOPDOWN group first (and TOPDOWN_L2
 * at level 2). 0, or -1 after a message (a group that does not exist here,
 * a CPU without top-down metrics). */
int st_groups_add(struct st *s);
/* After st_events_resolve: find the DEFAULT group's events among those
 * counted (whichever alternative, :u or not). 0, or -1 out of memory. */
int st_groups_map(struct st *s);

/* ---- domain.c */
/* Choose the domain of the EventSets: --domain's, or every domain this
 * user may count (user space, with the reason kept, when it may not count
 * the kernel). 0, or -1 after a message. */
int st_domain_choose(struct st *s);
/* st_cgroups_plan: the cgroup each event counts in (e->cg), from -G: one
 * cgroup for every event, or one per event in order, an empty name the
 * whole system; -1 for all without -G or with --for-each-cgroup. 0, or -1
 * after a usage message (as many cgroups as events, or one). */
int st_cgroups_plan(struct st *s);
/* --cputype: keep the presets to that core type of a hybrid CPU; call
 * before anything names a preset. --per-cputype: check the CPU is a hybrid.
 * 0 (also without either), or -1 after a message (no hybrid, no such core
 * type). */
int st_cputype_choose(const struct st *s);

/* What the plan holds: the events, their reasons, the groups. */
void st_plan_free(struct st *s);

#endif
