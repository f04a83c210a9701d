/* fz_deffile.c: libFuzzer target for the definition-file parser (deffile_parse), both syntaxes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Every event the parser hands out must hold sane fields. */
static int take(void *ctx, const struct def_event *ev, char *why, size_t len)
{
	(void)ctx;
	(void)why;
	(void)len;
	if (!ev->name || ev->nbase < 0 || ev->nbase > PAPI_EVENTS_IN_DERIVED_EVENT)
		abort();
	size_t n = strlen(ev->name);
	for (int i = 0; i < ev->nbase; i++)
		n += ev->base[i] ? strlen(ev->base[i]) : 0;
	if (ev->formula)
		n += strlen(ev->formula);
	return n % 3 ? PAPI_OK : PAPI_EINVAL;	/* exercise the reject path too */
}

static int match(void *ctx, const char *name)
{
	(void)ctx;
	return name[0] != 'x';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the parser is given len; a copy without NUL proves it never reads past it */
	char *text = malloc(size ? size : 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	struct deffile_sink sink = { match, take, NULL };
	struct msgs errs = { 0 };
	int r = deffile_parse("fuzz", text, size, &sink, &errs);
	if (r != PAPI_ENOMEM && (r < 0 || r != errs.total))
		abort();
	msgs_free(&errs);
	free(text);
	return 0;
}
