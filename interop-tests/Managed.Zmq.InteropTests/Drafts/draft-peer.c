/* A libzmq peer for the draft socket types (RFC 41 SERVER and CLIENT), built by the interop tests
 * with gcc against the draft-enabled libzmq (interop-tests/native/build-draft-libzmq.sh): Debian's
 * libzmq5, which pyzmq and the other native peers use, has no draft API.
 *
 *   draft-peer server <endpoint> <count>   binds a SERVER, prints "endpoint <last endpoint>", then
 *                                          answers <count> requests with "echo:<request>" sent to
 *                                          the request's routing id, printing "got <id> <request>"
 *   draft-peer client <endpoint> <count>   connects a CLIENT, sends "hello <i>" and prints each
 *                                          reply as "reply <text>"
 *
 * Every blocking call has a timeout; any failure prints "error <what> <errno>" and exits 1. */
#define ZMQ_BUILD_DRAFT_API 1
#include <zmq.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TIMEOUT_MS 20000

static int fail(const char *what)
{
    printf("error %s %d\n", what, zmq_errno());
    fflush(stdout);
    return 1;
}

static int recv_text(void *socket, char *text, size_t capacity, uint32_t *routing_id)
{
    zmq_msg_t msg;
    zmq_msg_init(&msg);
    if (zmq_msg_recv(&msg, socket, 0) < 0) {
        zmq_msg_close(&msg);
        return -1;
    }
    size_t size = zmq_msg_size(&msg);
    if (size >= capacity)
        size = capacity - 1;
    memcpy(text, zmq_msg_data(&msg), size);
    text[size] = 0;
    if (routing_id)
        *routing_id = zmq_msg_routing_id(&msg);
    zmq_msg_close(&msg);
    return 0;
}

static int send_text(void *socket, const char *text, uint32_t routing_id)
{
    zmq_msg_t msg;
    size_t size = strlen(text);
    zmq_msg_init_size(&msg, size);
    memcpy(zmq_msg_data(&msg), text, size);
    if (routing_id != 0 && zmq_msg_set_routing_id(&msg, routing_id) != 0) {
        zmq_msg_close(&msg);
        return -1;
    }
    if (zmq_msg_send(&msg, socket, 0) < 0) {
        zmq_msg_close(&msg);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: draft-peer server|client <endpoint> <count>\n");
        return 2;
    }
    int server = strcmp(argv[1], "server") == 0;
    int count = atoi(argv[3]);
    void *context = zmq_ctx_new();
    void *socket = zmq_socket(context, server ? ZMQ_SERVER : ZMQ_CLIENT);
    if (!socket)
        return fail("socket");
    int timeout = TIMEOUT_MS, linger = 0;
    zmq_setsockopt(socket, ZMQ_RCVTIMEO, &timeout, sizeof timeout);
    zmq_setsockopt(socket, ZMQ_SNDTIMEO, &timeout, sizeof timeout);
    zmq_setsockopt(socket, ZMQ_LINGER, &linger, sizeof linger);

    char text[256], reply[300];
    if (server) {
        if (zmq_bind(socket, argv[2]) != 0)
            return fail("bind");
        char endpoint[256];
        size_t length = sizeof endpoint;
        zmq_getsockopt(socket, ZMQ_LAST_ENDPOINT, endpoint, &length);
        printf("endpoint %s\n", endpoint);
        fflush(stdout);
        for (int i = 0; i < count; i++) {
            uint32_t routing_id = 0;
            if (recv_text(socket, text, sizeof text, &routing_id) != 0)
                return fail("recv");
            printf("got %u %s\n", routing_id, text);
            fflush(stdout);
            snprintf(reply, sizeof reply, "echo:%s", text);
            if (send_text(socket, reply, routing_id) != 0)
                return fail("send");
        }
    } else {
        if (zmq_connect(socket, argv[2]) != 0)
            return fail("connect");
        for (int i = 0; i < count; i++) {
            snprintf(text, sizeof text, "hello %d", i);
            if (send_text(socket, text, 0) != 0)
                return fail("send");
            if (recv_text(socket, reply, sizeof reply, NULL) != 0)
                return fail("recv");
            printf("reply %s\n", reply);
            fflush(stdout);
        }
    }
    zmq_close(socket);
    zmq_ctx_term(context);
    printf("done\n");
    fflush(stdout);
    return 0;
}
