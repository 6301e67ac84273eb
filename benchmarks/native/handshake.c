/* handshake <message-size> <connection-count>
 * One process, tcp loopback: a PULL binds to tcp://127.0.0.1:* (the CURVE server when
 * PERF_CURVE=1), then <connection-count> times in a row a fresh PUSH (the CURVE client)
 * connects, sends one <message-size> message and is closed with linger 0. Each time is
 * zmq_connect -> that message received by the PULL, so it covers the TCP connect, the ZMTP
 * greeting, the security handshake (NULL or CURVE) and one message. Prints the median,
 * minimum and maximum in milliseconds. Socket creation and options are outside the clock. */
#include "perf_common.h"

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

int main(int argc, char *argv[])
{
    if (argc != 3) {
        printf("usage: handshake <message-size> <connection-count>\n");
        return 1;
    }
    int message_size = perf_parse_count(argv[1], "message-size");
    int connection_count = perf_parse_count(argv[2], "connection-count");
    if (connection_count < 1) {
        fprintf(stderr, "connection-count must be at least 1\n");
        return 1;
    }

    void *ctx = zmq_ctx_new();
    if (!ctx)
        perf_die("zmq_ctx_new");
    void *pull = zmq_socket(ctx, ZMQ_PULL);
    if (!pull)
        perf_die("zmq_socket");
    perf_curve_server(pull);
    if (zmq_bind(pull, "tcp://127.0.0.1:*") != 0)
        perf_die("zmq_bind");
    char endpoint[256];
    size_t endpoint_size = sizeof endpoint;
    if (zmq_getsockopt(pull, ZMQ_LAST_ENDPOINT, endpoint, &endpoint_size) != 0)
        perf_die("zmq_getsockopt");

    double *ms = malloc(sizeof(double) * (size_t) connection_count);
    if (!ms)
        return 1;
    zmq_msg_t msg;
    if (zmq_msg_init(&msg) != 0)
        perf_die("zmq_msg_init");

    for (int i = 0; i != connection_count; i++) {
        void *push = zmq_socket(ctx, ZMQ_PUSH);
        if (!push)
            perf_die("zmq_socket");
        int zero = 0;
        if (zmq_setsockopt(push, ZMQ_LINGER, &zero, sizeof zero) != 0)
            perf_die("zmq_setsockopt");
        perf_curve_client(push);
        zmq_msg_t out;
        if (zmq_msg_init_size(&out, (size_t) message_size) != 0)
            perf_die("zmq_msg_init_size");
        memset(zmq_msg_data(&out), 0, (size_t) message_size);

        void *watch = zmq_stopwatch_start();
        if (zmq_connect(push, endpoint) != 0)
            perf_die("zmq_connect");
        if (zmq_msg_send(&out, push, 0) < 0)
            perf_die("zmq_msg_send");
        if (zmq_msg_recv(&msg, pull, 0) < 0)
            perf_die("zmq_msg_recv");
        unsigned long elapsed = zmq_stopwatch_stop(watch);
        if ((int) zmq_msg_size(&msg) != message_size) {
            fprintf(stderr, "message of incorrect size received\n");
            return 1;
        }
        ms[i] = (double) elapsed / 1000.0;
        zmq_close(push);
    }

    qsort(ms, (size_t) connection_count, sizeof(double), compare_doubles);
    double median = (connection_count % 2)
                      ? ms[connection_count / 2]
                      : (ms[connection_count / 2 - 1] + ms[connection_count / 2]) / 2;
    printf("mechanism: %s\n", perf_curve_enabled() ? "CURVE" : "NULL");
    printf("message size: %d [B]\n", message_size);
    printf("connection count: %d\n", connection_count);
    printf("min handshake: %.3f [ms]\n", ms[0]);
    printf("median handshake: %.3f [ms]\n", median);
    printf("max handshake: %.3f [ms]\n", ms[connection_count - 1]);

    zmq_msg_close(&msg);
    free(ms);
    zmq_close(pull);
    zmq_ctx_term(ctx);
    return 0;
}
