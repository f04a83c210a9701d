/* hl_parse.c: the region API's list of events, PAPI_EVENTS (or PAPI_hl_set_events), split into checked items. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "6-api/hl.h"

/* hl_is_space: see hl.h. */
int hl_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* hl_add_problem: see hl.h. */
void hl_add_problem(char *err, size_t errlen, const char *fmt, ...)
{
	if (!err || !errlen)
		return;
	size_t n = strlen(err);
	if (n && n + 2 < errlen) {
		memcpy(err + n, "; ", 3);
		n += 2;
	}
	if (n + 1 >= errlen)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - n, fmt, ap);
	va_end(ap);
}

/* hl_events_parse: see hl.h. */
int hl_events_parse(const char *spec, struct hl_spec *out, int max, char *err, size_t errlen)
{
	int n = 0, item = 0;

	if (err && errlen)
		err[0] = 0;
	if (!spec || !out || max < 0)
		return PAPI_EINVAL;
	const char *p = spec;
	for (;;) {
		const char *end = native_list_end(p);
		size_t len = (size_t)(end - p);
		end = *end ? end : NULL;
		const char *s = p;
		item++;
		while (len && hl_is_space(*s))
			s++, len--;
		while (len && hl_is_space(s[len - 1]))
			len--;
		int instant = 0;
		if (len >= 8 && !memcmp(s + len - 8, "=instant", 8))
			instant = 1, len -= 8;
		else if (len >= 6 && !memcmp(s + len - 6, "=delta", 6))
			len -= 6;
		size_t bad = 0;
		for (size_t i = 0; i < len; i++)
			if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f || hl_is_space(s[i]))
				bad = i + 1;
		if (len == 0)
			hl_add_problem(err, errlen, "item %d is empty", item);
		else if (bad)
			hl_add_problem(err, errlen, "item %d has a space or control character", item);
		else if (len >= sizeof out[0].name)
			hl_add_problem(err, errlen, "item %d is longer than %zu bytes", item,
				    sizeof out[0].name - 1);
		else if (n >= max)
			hl_add_problem(err, errlen, "item %d: more than %d events", item, max);
		else {
			int dup = 0;
			for (int k = 0; k < n; k++)
				if (strlen(out[k].name) == len && !memcmp(out[k].name, s, len))
					dup = 1;
			if (dup) {
				hl_add_problem(err, errlen, "%.*s is listed twice", (int)(len > 64 ? 64 : len), s);
			} else {
				memcpy(out[n].name, s, len);
				out[n].name[len] = 0;
				out[n].instant = instant;
				n++;
			}
		}
		if (!end)
			break;
		p = end + 1;
	}
	return n;
}
