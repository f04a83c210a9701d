/* t_cost_hist.c: unit tests of papi cost's histogram bins and its -s counts, on made-up samples. */
#include "tap.h"

/* The command is part of the papi binary, not of libpapi.a: compile it in. */
#include "../../cmd/cli.c"
#include "../../cmd/cli_count.c"
#include "../../cmd/cli_suggest.c"
#include "../../cmd/cost.c"
#include "../../cmd/event_files.c"

enum { N = 2000, NOUT = 4 };

/* Check what every histogram must be: bins in order, touching, from the
 * minimum to the maximum, their counts summing to n. */
static void check_shape(const long long *x, long n, const struct bin *h, long nb, long bins,
			const char *what)
{
	long sum = 0, bad = 0;
	for (long i = 0; i < nb; i++) {
		sum += h[i].n;
		bad += h[i].hi < h[i].lo || (i && h[i].lo != h[i - 1].hi + 1);
		for (long k = 0; k < n; k++)	/* each count is what lies in the bin */
			if (x[k] >= h[i].lo && x[k] <= h[i].hi && !h[i].n)
				bad++;
	}
	ok(nb >= 1 && nb <= bins, "%s: %ld bins, at most %ld", what, nb, bins);
	ok(nb >= 1 && h[0].lo == x[0] && h[nb - 1].hi == x[n - 1], "%s: from the minimum to the maximum", what);
	ok(!bad, "%s: bins in order, touching, none missing its samples", what);
	is_int(sum, n, "%s: the counts add up to the samples", what);
}

int main(void)
{
	static long long x[N];
	static struct bin h[1000];

	/* 1996 samples between 1000 and 1010 cycles and 4 outliers at a million:
	 * equal-width bins over [min, max] put all 1996 in the first bin. */
	for (long i = 0; i < N - NOUT; i++)
		x[i] = 1000 + i % 11;
	for (long i = N - NOUT; i < N; i++)
		x[i] = 1000000 + i;
	qsort(x, N, sizeof *x, cmp_ll);
	long nb = cost_hist(x, N, 100, h), top = 0, used = 0;
	check_shape(x, N, h, nb, 100, "outliers");
	for (long i = 0; i < nb; i++) {
		if (h[i].n > top)
			top = h[i].n;
		used += h[i].n > 0;
	}
	ok(top <= (N - NOUT) / 5, "outliers: the bulk spreads over bins (largest holds %ld of %d)", top, N);
	ok(used >= 11, "outliers: the bulk (11 values) and the outliers fill %ld bins, at least 11", used);
	ok(h[nb - 1].n == NOUT || h[nb - 1].lo > 1010, "outliers: the last bin holds outliers only");

	/* One bin: everything. A single value: one bin of it. */
	nb = cost_hist(x, N, 1, h);
	check_shape(x, N, h, nb, 1, "one bin");
	for (long i = 0; i < N; i++)
		x[i] = 42;
	nb = cost_hist(x, N, 100, h);
	check_shape(x, N, h, nb, 100, "one value");
	is_int(nb, 1, "one value: one bin");

	/* Evenly spread samples: bins grow, and the first ones are narrow. */
	for (long i = 0; i < N; i++)
		x[i] = i;
	nb = cost_hist(x, N, 10, h);
	check_shape(x, N, h, nb, 10, "spread");
	ok(h[0].hi - h[0].lo < h[nb - 1].hi - h[nb - 1].lo, "spread: the last bin is wider than the first");

	/* -s counts as PAPI's papi_cost: samples above mean + k std. */
	struct stats s = { .mean = 10, .std = 1 };
	long long y[] = { 10, 11, 11, 12, 13, 25 };
	long above[NSDEV];
	cost_sdev(y, 6, &s, above);
	is_int(above[0], 3, "-s: 3 samples above mean + 1 std (12, 13, 25)");
	is_int(above[1], 2, "-s: 2 above mean + 2 std");
	is_int(above[9], 1, "-s: 1 above mean + 10 std");
	return tap_done();
}
