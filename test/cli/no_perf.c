/* no_perf.c: test helper: run a command whose perf_event_open calls all fail with one errno (a seccomp filter, as a container's profile or a kernel closed to unprivileged users answers). */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#endif

int main(int argc, char **argv)
{
	int err = argc > 1 && !strcmp(argv[1], "EPERM") ? EPERM : argc > 1 && !strcmp(argv[1], "ENOSYS") ? ENOSYS : EACCES;
	if (argc < 3 || (strcmp(argv[1], "EACCES") && strcmp(argv[1], "EPERM") && strcmp(argv[1], "ENOSYS"))) {
		fprintf(stderr, "usage: no_perf EACCES|EPERM|ENOSYS COMMAND [ARG...]\n");
		return 2;
	}
#ifdef ARCH
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_perf_event_open, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (unsigned)err),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof f / sizeof *f, f };
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
		perror("no_perf: seccomp");
		return 1;
	}
#else
	fprintf(stderr, "no_perf: no seccomp filter for this architecture\n");
	return 1;
#endif
	execvp(argv[2], argv + 2);
	perror("no_perf: exec");
	return 127;
}
