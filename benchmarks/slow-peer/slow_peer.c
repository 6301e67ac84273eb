/* A REQ/REP pair over tcp in one process whose REP answers each request after PAUSE ms, with libzmq: the
 * counterpart of SlowPeer.cs (see there; run.sh runs both).
 *
 *   slow_peer ROUNDS PAUSE_MS
 */
#include <zmq.h>
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static int rounds, pause_ms;
static void *rep;

static double cpu_us(void)
{
    struct rusage r;
    getrusage(RUSAGE_SELF, &r);
    return (r.ru_utime.tv_sec + r.ru_stime.tv_sec) * 1e6 + r.ru_utime.tv_usec + r.ru_stime.tv_usec;
}

/* Voluntary and involuntary context switches of every thread of the process, from /proc. */
static long long switches(void)
{
    DIR *tasks = opendir("/proc/self/task");
    struct dirent *task;
    char path[300], line[256];
    long long sum = 0;
    while ((task = readdir(tasks)) != NULL) {
        if (task->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "/proc/self/task/%s/status", task->d_name);
        FILE *status = fopen(path, "r");
        if (status == NULL)
            continue;
        while (fgets(line, sizeof line, status) != NULL)
            if (strstr(line, "ctxt_switches") != NULL)
                sum += atoll(strchr(line, ':') + 1);
        fclose(status);
    }
    closedir(tasks);
    return sum;
}

/* One round trip more than the client makes in the two phases, as in SlowPeer.cs. */
static void *serve(void *unused)
{
    (void)unused;
    char buffer[16];
    for (int i = 0; i < 2 * rounds + 1; i++) {
        int size = zmq_recv(rep, buffer, sizeof buffer, 0);
        if (pause_ms > 0) {
            struct timespec pause = { pause_ms / 1000, (pause_ms % 1000) * 1000000L };
            nanosleep(&pause, NULL);
        }
        zmq_send(rep, buffer, (size_t)size, 0);
    }
    return NULL;
}

static void round_trips(void *req, int count)
{
    char buffer[16];
    for (int i = 0; i < count; i++) {
        zmq_send(req, "q", 1, 0);
        zmq_recv(req, buffer, sizeof buffer, 0);
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: slow_peer ROUNDS PAUSE_MS\n");
        return 1;
    }
    rounds = atoi(argv[1]);
    pause_ms = atoi(argv[2]);
    void *context = zmq_ctx_new();
    rep = zmq_socket(context, ZMQ_REP);
    void *req = zmq_socket(context, ZMQ_REQ);
    char endpoint[256];
    size_t length = sizeof endpoint;
    if (zmq_bind(rep, "tcp://127.0.0.1:*") != 0 || zmq_getsockopt(rep, ZMQ_LAST_ENDPOINT, endpoint, &length) != 0
        || zmq_connect(req, endpoint) != 0) {
        fprintf(stderr, "slow_peer: %s\n", zmq_strerror(zmq_errno()));
        return 1;
    }
    pthread_t server;
    pthread_create(&server, NULL, serve, NULL);
    round_trips(req, rounds);
    long long switches_before = switches();
    double cpu_before = cpu_us();
    round_trips(req, rounds);
    double cpu_after = cpu_us();
    long long switches_after = switches();
    round_trips(req, 1);
    pthread_join(server, NULL);
    printf("libzmq   pause %4d ms: CPU %8.1f us per round trip, %5.2f context switches per round trip\n", pause_ms,
        (cpu_after - cpu_before) / rounds, (double)(switches_after - switches_before) / rounds);
    zmq_close(req);
    zmq_close(rep);
    zmq_ctx_term(context);
    return 0;
}
