/* t_scale.c: es_scale, a multiplexed counter's estimate: never negative, never past what its times allow, no overflow. */
#include <stdint.h>

#include "internal.h"
#include "5-core/core.h"
#include "tap.h"

int main(void)
{
	/* want: worked out by hand (the big products with bc), not by the code */
	const struct {
		int line;
		uint64_t count, enabled, running;
		long long want;
	} rows[] = {
		{ __LINE__, 1000, 2000, 1000, 2000 },		/* half the time: twice the count */
		{ __LINE__, 1000, 3000, 1000, 3000 },
		{ __LINE__, 1000, 3000, 2000, 1500 },
		{ __LINE__, 1, 3, 2, 1 },			/* 1.5 rounds down */
		{ __LINE__, 7, 10, 3, 23 },			/* 23.33 */
		{ __LINE__, 1000, 1000, 1000, 1000 },		/* never multiplexed */
		{ __LINE__, 1000, 0, 0, 0 },			/* never enabled */
		{ __LINE__, 1000, 5000, 0, 0 },			/* never scheduled: nothing to scale */
		{ __LINE__, 0, 5000, 10, 0 },
		{ __LINE__, 1000, 1000, 1001, 1000 },		/* running > enabled: not scaled down */
		{ __LINE__, 1000, 0, 7, 1000 },
		/* 2^40 * 2^40 / 2^20 = 2^60: the product needs 80 bits */
		{ __LINE__, 1ULL << 40, 1ULL << 40, 1ULL << 20, 1LL << 60 },
		/* 2^62 * 3 / 1 is past INT64_MAX: saturates */
		{ __LINE__, 1ULL << 62, 3, 1, INT64_MAX },
		{ __LINE__, UINT64_MAX, UINT64_MAX, 1, INT64_MAX },
		/* a count past 2^63, unscaled: saturates, never negative */
		{ __LINE__, (1ULL << 63) + 5, 10, 10, INT64_MAX },
		{ __LINE__, UINT64_MAX, 1, 1, INT64_MAX },
		/* 2^63 - 1 exactly, scaled by 1 */
		{ __LINE__, (uint64_t)INT64_MAX, 9, 9, INT64_MAX },
		/* 123456789 * 1000000007 / 999999937 = 123456797.64 */
		{ __LINE__, 123456789, 1000000007, 999999937, 123456797 },
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		long long got = es_scale(rows[i].count, rows[i].enabled, rows[i].running);
		is_int(got, rows[i].want, "line %d: es_scale(%llu, %llu, %llu)", rows[i].line,
		       (unsigned long long)rows[i].count, (unsigned long long)rows[i].enabled,
		       (unsigned long long)rows[i].running);
		ok(got >= 0, "line %d: never negative", rows[i].line);
		/* never past count * enabled / running */
		ok(rows[i].running == 0 || (unsigned __int128)got * rows[i].running <=
		   (unsigned __int128)rows[i].count * (rows[i].enabled > rows[i].running ? rows[i].enabled : rows[i].running),
		   "line %d: within what the times allow", rows[i].line);
	}
	return tap_done();
}
