/* What one wake-up after a quiet spell costs a C thread that does nothing else: the counterpart of ColdWake.cs (see
 * there; run.sh runs both), waiting in poll on one quiet loopback tcp socket or in nanosleep.
 *
 *   cold_wake poll|sleep COUNT PAUSE_MS
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <time.h>

static double thread_cpu_us(void)
{
    struct timespec now;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return now.tv_sec * 1e6 + now.tv_nsec / 1e3;
}

static void wait_many(int sleep_mode, int fd, int times, int pause_ms)
{
    struct pollfd quiet = { fd, POLLIN, 0 };
    struct timespec pause = { pause_ms / 1000, (pause_ms % 1000) * 1000000L };
    for (int i = 0; i < times; i++) {
        if (sleep_mode)
            nanosleep(&pause, NULL);
        else
            poll(&quiet, 1, pause_ms);
    }
}

int main(int argc, char **argv)
{
    int sleep_mode = argc == 4 && strcmp(argv[1], "sleep") == 0;
    if (argc != 4 || (!sleep_mode && strcmp(argv[1], "poll") != 0) || atoi(argv[2]) < 1 || atoi(argv[3]) < 0) {
        fprintf(stderr, "usage: cold_wake poll|sleep COUNT PAUSE_MS\n");
        return 1;
    }
    int count = atoi(argv[2]), pause_ms = atoi(argv[3]);
    /* A quiet loopback tcp connection, as ColdWake.cs waits on. */
    struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = 0, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t length = sizeof address;
    int listener = socket(AF_INET, SOCK_STREAM, 0), client = socket(AF_INET, SOCK_STREAM, 0), quiet;
    if (listener < 0 || client < 0 || bind(listener, (struct sockaddr *)&address, sizeof address) != 0
        || listen(listener, 1) != 0 || getsockname(listener, (struct sockaddr *)&address, &length) != 0
        || connect(client, (struct sockaddr *)&address, sizeof address) != 0 || (quiet = accept(listener, NULL, NULL)) < 0) {
        perror("cold_wake");
        return 1;
    }
    thread_cpu_us();
    wait_many(sleep_mode, quiet, count, pause_ms);
    double before = thread_cpu_us();
    wait_many(sleep_mode, quiet, count, pause_ms);
    printf("C    %-6s pause %4d ms: %7.1f us of the thread's CPU per wake-up\n", argv[1], pause_ms,
        (thread_cpu_us() - before) / count);
    return 0;
}
