/* sig_dfl.c: test helper: run a command with every signal below SIGRTMIN that glibc keeps for itself (32, 33) at its default action, as a process started by a shell has them. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: sig_dfl COMMAND [ARG...]\n");
		return 2;
	}
	/* glibc's sigaction refuses these signals: the kernel call does it */
	unsigned long k[8];
	memset(k, 0, sizeof k);	/* handler SIG_DFL, no flags, empty mask */
	for (int sig = 32; sig < SIGRTMIN; sig++)
		if (syscall(SYS_rt_sigaction, sig, k, NULL, _NSIG / 8) != 0) {
			perror("sig_dfl: rt_sigaction");
			return 1;
		}
	execvp(argv[1], argv + 1);
	perror("sig_dfl: exec");
	return 127;
}
