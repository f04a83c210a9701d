/* preset_catalog.h: the fixed catalogue of PAPI 7's 108 preset names (declarations). */
#ifndef PAPI_PRESET_CATALOG_H
#define PAPI_PRESET_CATALOG_H

#include "papi.h"

/* These declarations are meant to move into internal.h once the library's
 * shared header exists; until then modules include this file directly. */

/* Category bits of a preset, used by `papi avail --br ...` and by
 * PAPI_enum_event(PAPI_PRESET_ENUM_*). Each value equals PAPI 7's
 * PAPI_PRESET_BIT_* (1 << PAPI_PRESET_ENUM_*), so a PAPI_PRESET_ENUM_x
 * modifier m selects the presets whose cat has bit (1u << m). */
enum {
	PRESET_CAT_MSC   = 1u << PAPI_PRESET_ENUM_MSC,	/* miscellaneous (cycles, interrupts) */
	PRESET_CAT_INS   = 1u << PAPI_PRESET_ENUM_INS,	/* instruction related */
	PRESET_CAT_IDL   = 1u << PAPI_PRESET_ENUM_IDL,	/* stalled or idle */
	PRESET_CAT_BR    = 1u << PAPI_PRESET_ENUM_BR,	/* branch related */
	PRESET_CAT_CND   = 1u << PAPI_PRESET_ENUM_CND,	/* conditional */
	PRESET_CAT_MEM   = 1u << PAPI_PRESET_ENUM_MEM,	/* memory related */
	PRESET_CAT_CACHE = 1u << PAPI_PRESET_ENUM_CACH,	/* cache related */
	PRESET_CAT_L1    = 1u << PAPI_PRESET_ENUM_L1,	/* level 1 cache */
	PRESET_CAT_L2    = 1u << PAPI_PRESET_ENUM_L2,	/* level 2 cache */
	PRESET_CAT_L3    = 1u << PAPI_PRESET_ENUM_L3,	/* level 3 cache */
	PRESET_CAT_TLB   = 1u << PAPI_PRESET_ENUM_TLB,	/* translation lookaside buffer */
	PRESET_CAT_FP    = 1u << PAPI_PRESET_ENUM_FP,	/* floating point */
};

/* One preset name: its symbol, short and long description, category bits. */
struct preset_def {
	const char *name;	/* "PAPI_L1_DCM" */
	const char *sdesc;	/* short description, at most 20 characters */
	const char *ldesc;	/* long description */
	unsigned cat;		/* PRESET_CAT_* bits */
};

/* The preset count of PAPI 7; preset code = 0x80000000 | index. */
#define PRESET_COUNT 108

/* preset_catalog[i] describes preset index i, in PAPI 7's order
 * (0 = PAPI_L1_DCM ... 107 = PAPI_REF_CYC). */
extern const struct preset_def preset_catalog[PRESET_COUNT];

/* preset_catalog_find: index of the preset called name (case-sensitive,
 * "PAPI_" prefix included), or -1 when name is NULL or not a preset. */
int preset_catalog_find(const char *name);

#endif
