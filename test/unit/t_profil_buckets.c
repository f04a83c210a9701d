/* t_profil_buckets.c: profil_record: bucket index per scale, bucket sizes, saturation, flags, region choice. */
#include <stdint.h>
#include <string.h>

#include "internal.h"
#include "tap.h"

int main(void)
{
	uint16_t b16[16];
	uint32_t b32[16];
	uint64_t b64[16];
	const uintptr_t off = 0x1000;
	const struct {
		int line;
		unsigned scale;
		uintptr_t pc;
		int want_idx;	/* -1: no bucket */
	} rows[] = {
		{ __LINE__, 0x20000, 0x1000, 0 },	/* one address per bucket */
		{ __LINE__, 0x20000, 0x1005, 5 },
		{ __LINE__, 0x10000, 0x1005, 2 },	/* two addresses per bucket */
		{ __LINE__, 0x10000, 0x1006, 3 },
		{ __LINE__, 0xFFFF, 0x1006, 2 },	/* about two: rounds down */
		{ __LINE__, 0x8000, 0x1007, 1 },	/* four */
		{ __LINE__, 0x4000, 0x100F, 1 },	/* eight */
		{ __LINE__, 0x20000, 0x0FFF, -1 },	/* below the region */
		{ __LINE__, 0x20000, 0x1010, -1 },	/* past the 16 buckets */
		{ __LINE__, 2, 0x1000, 0 },		/* scale 2: one bucket for all */
		{ __LINE__, 2, 0x7fffffff, 0 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		memset(b16, 0, sizeof b16);
		PAPI_sprofil_t r = { b16, sizeof b16, (vptr_t)off, rows[i].scale };
		int got = profil_record(&r, 1, PAPI_PROFIL_BUCKET_16, rows[i].pc, 1);
		int idx = -1;
		for (int k = 0; k < 16; k++)
			if (b16[k])
				idx = idx == -1 ? k : -2;
		ok(got == (rows[i].want_idx >= 0) && idx == rows[i].want_idx,
		   "row at line %d: pc %#lx scale %#x -> bucket %d (got %d)", rows[i].line,
		   (unsigned long)rows[i].pc, rows[i].scale, rows[i].want_idx, idx);
	}

	/* bucket sizes: bufsiz / bucket bytes buckets, the same index */
	memset(b32, 0, sizeof b32);
	PAPI_sprofil_t r32 = { b32, sizeof b32, (vptr_t)off, 0x20000 };
	profil_record(&r32, 1, PAPI_PROFIL_BUCKET_32, 0x100F, 1);
	is_int(b32[15], 1, "32-bit buckets: pc 0x100f in bucket 15");
	ok(!profil_record(&r32, 1, PAPI_PROFIL_BUCKET_32, 0x1010, 1), "32-bit: 16 buckets only");
	memset(b64, 0, sizeof b64);
	PAPI_sprofil_t r64 = { b64, sizeof b64, (vptr_t)off, 0x20000 };
	profil_record(&r64, 1, PAPI_PROFIL_BUCKET_64, 0x1003, 7);
	is_int(b64[3], 1, "64-bit buckets: unweighted adds 1");
	profil_record(&r64, 1, PAPI_PROFIL_BUCKET_64 | PAPI_PROFIL_WEIGHTED, 0x1003, 7);
	is_int(b64[3], 8, "WEIGHTED adds the weight");
	PAPI_sprofil_t r16 = { b16, 8, (vptr_t)off, 0x20000 };	/* bufsiz 8: 4 buckets */
	memset(b16, 0, sizeof b16);
	ok(!profil_record(&r16, 1, 0, 0x1004, 1) && b16[4] == 0, "bufsiz bounds the buckets");

	/* saturation and COMPRESS */
	b16[0] = 0xFFFE;
	profil_record(&r16, 1, 0, 0x1000, 5);
	profil_record(&r16, 1, 0, 0x1000, 1);
	is_int(b16[0], 0xFFFF, "16-bit bucket saturates instead of wrapping");
	b32[0] = 0xFFFFFFFFu;
	profil_record(&r32, 1, PAPI_PROFIL_BUCKET_32, 0x1000, 1);
	is_int(b32[0], 0xFFFFFFFFu, "32-bit bucket saturates");
	b16[1] = 0x7FFF;
	ok(!profil_record(&r16, 1, PAPI_PROFIL_COMPRESS, 0x1001, 1) && b16[1] == 0x7FFF,
	   "COMPRESS ignores a bucket at half its range");
	b16[2] = 0x7FFE;
	ok(profil_record(&r16, 1, PAPI_PROFIL_COMPRESS, 0x1002, 1) && b16[2] == 0x7FFF,
	   "COMPRESS still counts below half");

	/* several regions: first covering region wins, scale 2 catches the rest */
	uint16_t ra[4] = { 0 }, rb[4] = { 0 }, rest = 0;
	PAPI_sprofil_t reg[3] = {
		{ &rest, sizeof rest, (vptr_t)0, 2 },
		{ ra, sizeof ra, (vptr_t)0x1000, 0x20000 },
		{ rb, sizeof rb, (vptr_t)0x2000, 0x10000 },
	};
	profil_record(reg, 3, 0, 0x1002, 1);
	profil_record(reg, 3, 0, 0x2007, 1);
	profil_record(reg, 3, 0, 0x3000, 1);
	profil_record(reg, 3, 0, 0x1004, 1);
	ok(ra[2] == 1 && rb[3] == 1 && rest == 2,
	   "regions: a[2]=%d b[3]=%d catch-all=%d (want 1 1 2)", ra[2], rb[3], rest);
	ok(!profil_record(reg + 1, 2, 0, 0x5000, 1), "no catch-all: a pc outside is dropped");
	return tap_done();
}
