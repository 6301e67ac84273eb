/* local_routed_lat <bind-to> <message-size> <roundtrip-count>
 * local_lat for a routed pair (routed_common.h): SERVER or ROUTER binds and sends every
 * request back to the peer it came from (SERVER by the routing id on the message, ROUTER
 * by the id frame), for <roundtrip-count> requests plus PERF_WARMUP. */
#include "routed_common.h"

int main(int argc, char *argv[])
{
    if (argc != 4) {
        printf("usage: local_routed_lat <bind-to> <message-size> <roundtrip-count>\n");
        return 1;
    }
    const char *bind_to = argv[1];
    int message_size = perf_parse_count(argv[2], "message-size");
    int roundtrip_count = perf_parse_count(argv[3], "roundtrip-count");

    void *ctx = zmq_ctx_new();
    if (!ctx)
        perf_die("zmq_ctx_new");
    void *local = zmq_socket(ctx, ROUTED_LOCAL_TYPE);
    if (!local)
        perf_die("zmq_socket");
    if (zmq_bind(local, bind_to) != 0)
        perf_die("zmq_bind");

    zmq_msg_t id, msg;
    if (zmq_msg_init(&id) != 0 || zmq_msg_init(&msg) != 0)
        perf_die("zmq_msg_init");
    int total = perf_warmup_count() + roundtrip_count;
    for (int i = 0; i != total; i++) {
        routed_recv(local, &id, &msg, message_size);
        routed_reply(local, &id, &msg);
    }

    zmq_msg_close(&id);
    zmq_msg_close(&msg);
    zmq_close(local);
    zmq_ctx_term(ctx);
    return 0;
}
