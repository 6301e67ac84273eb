/* A REQ/REP pair over tcp whose REP answers each request after PAUSE ms, with libzmq: the counterpart of
 * SlowPeer.cs (see there; run.sh runs both).
 *
 *   slow_peer ROUNDS PAUSE_MS                  both sockets in this process
 *   slow_peer ROUNDS PAUSE_MS server ENDPOINT  the REP alone: binds ENDPOINT, prints the endpoint it bound, serves
 *   slow_peer ROUNDS PAUSE_MS client ENDPOINT  the REQ alone: connects to ENDPOINT
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

static void report(const char *role, double cpu, long long switched)
{
    printf("libzmq   %s %4d ms: CPU %8.1f us per round trip, %5.2f context switches per round trip\n", role, pause_ms,
        cpu / rounds, (double)switched / rounds);
}

/* One round trip more than the client makes in the two phases, as in SlowPeer.cs. On its own (measure set), the
 * server measures as many round trips: from the first request of the client's measured phase to the first request
 * after that phase (the client's extra round trip). */
static void serve(int measure)
{
    char buffer[16];
    long long switches_before = 0;
    double cpu_before = 0;
    for (int i = 0; i < 2 * rounds + 1; i++) {
        int size = zmq_recv(rep, buffer, sizeof buffer, 0);
        if (measure && i == rounds) {
            switches_before = switches();
            cpu_before = cpu_us();
        } else if (measure && i == 2 * rounds) {
            double cpu_after = cpu_us();
            long long switches_after = switches();
            report("server", cpu_after - cpu_before, switches_after - switches_before);
        }
        if (pause_ms > 0) {
            struct timespec pause = { pause_ms / 1000, (pause_ms % 1000) * 1000000L };
            nanosleep(&pause, NULL);
        }
        zmq_send(rep, buffer, (size_t)size, 0);
    }
}

static void *serve_thread(void *unused)
{
    (void)unused;
    serve(0);
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

static int fail(void)
{
    fprintf(stderr, "slow_peer: %s\n", zmq_strerror(zmq_errno()));
    return 1;
}

int main(int argc, char **argv)
{
    int server_only = argc == 5 && strcmp(argv[3], "server") == 0;
    int client_only = argc == 5 && strcmp(argv[3], "client") == 0;
    if (argc != 3 && !server_only && !client_only) {
        fprintf(stderr, "usage: slow_peer ROUNDS PAUSE_MS [server|client ENDPOINT]\n");
        return 1;
    }
    rounds = atoi(argv[1]);
    pause_ms = atoi(argv[2]);
    if (rounds < 1 || pause_ms < 0) {
        fprintf(stderr, "slow_peer: ROUNDS must be at least 1 and PAUSE_MS not negative\n");
        return 1;
    }
    void *context = zmq_ctx_new();
    char endpoint[256];
    size_t length = sizeof endpoint;
    if (!client_only) {
        rep = zmq_socket(context, ZMQ_REP);
        if (zmq_bind(rep, server_only ? argv[4] : "tcp://127.0.0.1:*") != 0
            || zmq_getsockopt(rep, ZMQ_LAST_ENDPOINT, endpoint, &length) != 0)
            return fail();
    }
    if (server_only) {
        printf("%s\n", endpoint);
        fflush(stdout);
        serve(1);
        zmq_close(rep);
        zmq_ctx_term(context);
        return 0;
    }
    void *req = zmq_socket(context, ZMQ_REQ);
    if (zmq_connect(req, client_only ? argv[4] : endpoint) != 0)
        return fail();
    pthread_t server;
    if (!client_only)
        pthread_create(&server, NULL, serve_thread, NULL);
    round_trips(req, rounds);
    long long switches_before = switches();
    double cpu_before = cpu_us();
    round_trips(req, rounds);
    double cpu_after = cpu_us();
    long long switches_after = switches();
    round_trips(req, 1);
    if (!client_only)
        pthread_join(server, NULL);
    report(client_only ? "client" : "pause", cpu_after - cpu_before, switches_after - switches_before);
    zmq_close(req);
    if (!client_only)
        zmq_close(rep);
    zmq_ctx_term(context);
    return 0;
}
