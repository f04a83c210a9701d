/* t_cmp_os.c: the net and stealtime components on this machine's own /proc: loopback traffic this test sends is counted, steal time never runs backwards. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "papi.h"
#include "tap.h"

/* Send n datagrams of len bytes to ourselves over loopback; how many came back. */
static int loopback(int n, int len)
{
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t al = sizeof a;
	if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof a) < 0 ||
	    getsockname(s, (struct sockaddr *)&a, &al) < 0)
		return -1;
	char buf[2048];
	memset(buf, 'n', sizeof buf);
	int got = 0;
	for (int i = 0; i < n; i++)
		if (sendto(s, buf, (size_t)len, 0, (struct sockaddr *)&a, sizeof a) == len &&
		    recv(s, buf, sizeof buf, 0) == len)
			got++;
	close(s);
	return got;
}

static void test_net(void)
{
	int net = PAPI_get_component_index("net"), code;
	const PAPI_component_info_t *ci = PAPI_get_component_info(net);
	if (!ci || ci->disabled) {
		skip(ci ? ci->disabled_reason : "no net component", "net on this machine");
		return;
	}
	ok(ci->num_native_events > 0 && ci->num_native_events % 16 == 0,
	   "%d events: sixteen per interface", ci->num_native_events);
	if (PAPI_event_name_to_code("net:::lo:rx:packets", &code) != PAPI_OK) {
		skip("no loopback interface in this network namespace", "loopback traffic");
		return;
	}
	static const char *const evs[] = { "net:::lo:rx:packets", "net:::lo:tx:packets",
					   "net:::lo:rx:bytes", "net:::lo:tx:bytes" };
	int es = PAPI_NULL, codes[4];
	PAPI_create_eventset(&es);
	for (int i = 0; i < 4; i++)
		PAPI_event_name_to_code(evs[i], &codes[i]);
	is_int(PAPI_add_events(es, codes, 4), PAPI_OK, "add lo's packets and bytes");
	long long v[4];
	int e1 = PAPI_start(es);
	int got = loopback(20, 1000);
	int e2 = PAPI_stop(es, v);
	is_int(e1 + e2, 0, "start and stop");
	is_int(got, 20, "twenty datagrams of 1000 bytes over loopback");
	/* other programs may use loopback meanwhile: at least ours */
	ok(v[0] >= 20 && v[1] >= 20, "lo counted at least 20 packets each way (%lld, %lld)", v[0], v[1]);
	ok(v[2] >= 20000 && v[3] >= 20000, "and at least 20000 bytes (%lld, %lld)", v[2], v[3]);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

static void test_stealtime(void)
{
	int st = PAPI_get_component_index("stealtime");
	const PAPI_component_info_t *ci = PAPI_get_component_info(st);
	if (!ci || ci->disabled) {
		skip(ci ? ci->disabled_reason : "no stealtime component", "stealtime on this machine");
		return;
	}
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	is_int(ci->num_native_events, ncpu + 1, "TOTAL and one event per online CPU");
	int es = PAPI_NULL, code;
	PAPI_create_eventset(&es);
	is_int(PAPI_event_name_to_code("stealtime:::TOTAL", &code), PAPI_OK, "stealtime:::TOTAL");
	PAPI_add_event(es, code);
	is_int(PAPI_event_name_to_code("stealtime:::CPU1", &code), PAPI_OK, "stealtime:::CPU1");
	PAPI_add_event(es, code);
	long long v[2];
	is_int(PAPI_start(es), PAPI_OK, "start");
	usleep(20000);
	is_int(PAPI_stop(es, v), PAPI_OK, "stop");
	ok(v[0] >= 0 && v[1] >= 0, "steal time never runs backwards (%lld, %lld us)", v[0], v[1]);
	ok(v[0] % 10 == 0 && v[1] % 10 == 0, "whole clock ticks in microseconds");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
}

int main(void)
{
	is_int(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT, "library_init");
	test_net();
	test_stealtime();
	PAPI_shutdown();
	return tap_done();
}
