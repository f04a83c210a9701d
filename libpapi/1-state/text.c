/* text.c: text the library and the CLI write alike: UTF-8 checked, strings quoted for JSON. */
#include <stdio.h>

#include "1-state/state.h"

int text_utf8_len(const unsigned char *s)
{
	unsigned char c = s[0];
	int n;
	unsigned char lo = 0x80, hi = 0xBF;

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		n = 2;
	else if (c >= 0xE0 && c <= 0xEF)
		n = 3;
	else if (c >= 0xF0 && c <= 0xF4)
		n = 4;
	else
		return 0;	/* continuation byte, overlong lead C0/C1, or F5..FF */
	/* The second byte's range rules out overlongs, surrogates and > U+10FFFF. */
	if (c == 0xE0)
		lo = 0xA0;
	else if (c == 0xED)
		hi = 0x9F;
	else if (c == 0xF0)
		lo = 0x90;
	else if (c == 0xF4)
		hi = 0x8F;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (int i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xBF)
			return 0;
	return n;
}

void text_json_quoted(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', f);
	while (*s) {
		int n = text_utf8_len(s);
		if (n == 0) {
			fputs("\xEF\xBF\xBD", f);	/* U+FFFD for one bad byte */
			s++;
			continue;
		}
		if (n > 1) {
			fwrite(s, 1, (size_t)n, f);
			s += n;
			continue;
		}
		switch (*s) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (*s < 0x20 || *s == 0x7F)
				fprintf(f, "\\u%04x", *s);
			else
				fputc(*s, f);
		}
		s++;
	}
	fputc('"', f);
}
