/* rusage_run <out-file> <command> [args...]
 * Runs the command as a child, waits for it and writes one line to <out-file>:
 *   user_us sys_us voluntary_switches involuntary_switches
 * taken from wait4's rusage of the child. Linux adds each thread's times and context
 * switches to its process when the thread exits, and a reaped child's figures include
 * those of its own reaped children, so the line covers every thread of the command (and
 * of a `timeout`/`env` in front of it). SIGTERM and SIGINT are passed on to the child.
 * Exits with the child's status (128 + signal when it was killed). Written for this project. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile pid_t child;

static void forward(int sig)
{
    if (child > 0)
        kill(child, sig);
}

int main(int argc, char *argv[])
{
    if (argc < 3) {
        fprintf(stderr, "usage: rusage_run <out-file> <command> [args...]\n");
        return 2;
    }
    struct sigaction sa = { .sa_handler = forward };
    sigemptyset(&sa.sa_mask);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);

    child = fork();
    if (child < 0) {
        perror("fork");
        return 2;
    }
    if (child == 0) {
        execvp(argv[2], argv + 2);
        perror("execvp");
        _exit(127);
    }

    int status = 0;
    struct rusage ru;
    pid_t done;
    do
        done = wait4(child, &status, 0, &ru);
    while (done < 0);

    FILE *out = fopen(argv[1], "w");
    if (!out) {
        perror("fopen");
        return 2;
    }
    fprintf(out, "%ld %ld %ld %ld\n",
            ru.ru_utime.tv_sec * 1000000L + ru.ru_utime.tv_usec,
            ru.ru_stime.tv_sec * 1000000L + ru.ru_stime.tv_usec,
            ru.ru_nvcsw, ru.ru_nivcsw);
    fclose(out);
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
