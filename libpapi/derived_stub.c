/* derived_stub.c: stand-in for the presets module until preset tables load: no preset resolves here. */
#include "internal.h"

/* presets_resolve: no preset or user event is defined yet: PAPI_ENOEVNT. */
int presets_resolve(int code, struct derived_def *out)
{
	(void)code;
	(void)out;
	return PAPI_ENOEVNT;
}

/* derived_eval: sum and difference, the only types a definition without a
 * formula can have. */
long long derived_eval(const struct derived_def *d, const long long *vals)
{
	long long v = vals[0];
	for (int i = 1; i < d->nterms; i++)
		v = d->derived == DERIVED_SUB ? v - vals[i] : v + vals[i];
	return v;
}
