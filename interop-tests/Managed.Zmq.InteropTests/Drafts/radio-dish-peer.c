/* A libzmq RADIO or DISH peer (RFC 48), built by the interop tests with gcc against the draft-enabled libzmq
 * (interop-tests/native/build-draft-libzmq.sh): Debian's libzmq5 has no draft API.
 *
 *   radio-dish-peer dish  bind|connect <endpoint> <group> <count>
 *       joins <group>, prints "endpoint <last endpoint>" (bind) and "ready", then prints every message it
 *       receives as "got <group>|<text>" until <count> of them started with "msg "
 *   radio-dish-peer radio bind|connect <endpoint> <group> <count>
 *       prints "endpoint <last endpoint>" (bind) and "ready", sends "probe" to <group> every 20 ms until a line
 *       arrives on stdin, then sends, for i in 0..count-1, "skip <i>" to the group "other" and "msg <i>" to
 *       <group>, and prints "sent"
 *
 * Every blocking call has a timeout; any failure prints "error <what> <errno>" and exits 1. */
#define ZMQ_BUILD_DRAFT_API 1
#include <zmq.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define TIMEOUT_MS 20000
#define PROBE_MS 20

static int fail(const char *what)
{
    printf("error %s %d\n", what, zmq_errno());
    fflush(stdout);
    return 1;
}

static int send_to(void *socket, const char *group, const char *text)
{
    zmq_msg_t msg;
    size_t size = strlen(text);
    zmq_msg_init_size(&msg, size);
    memcpy(zmq_msg_data(&msg), text, size);
    if (zmq_msg_set_group(&msg, group) != 0 || zmq_msg_send(&msg, socket, 0) < 0) {
        zmq_msg_close(&msg);
        return -1;
    }
    return 0;
}

static int run_dish(void *socket, const char *group, int count)
{
    if (zmq_join(socket, group) != 0)
        return fail("join");
    printf("ready\n");
    fflush(stdout);
    int wanted = 0;
    char text[9000];
    while (wanted < count) {
        zmq_msg_t msg;
        zmq_msg_init(&msg);
        if (zmq_msg_recv(&msg, socket, 0) < 0)
            return fail("recv");
        size_t size = zmq_msg_size(&msg);
        if (size >= sizeof text)
            size = sizeof text - 1;
        memcpy(text, zmq_msg_data(&msg), size);
        text[size] = 0;
        printf("got %s|%s\n", zmq_msg_group(&msg), text);
        fflush(stdout);
        if (strncmp(text, "msg ", 4) == 0)
            wanted++;
        zmq_msg_close(&msg);
    }
    return 0;
}

static int run_radio(void *socket, const char *group, int count)
{
    printf("ready\n");
    fflush(stdout);
    struct pollfd input = { .fd = 0, .events = POLLIN };
    int waited = 0;
    while (poll(&input, 1, PROBE_MS) == 0) {
        if (send_to(socket, group, "probe") != 0)
            return fail("send probe");
        waited += PROBE_MS;
        if (waited > TIMEOUT_MS)
            return fail("no go on stdin");
    }
    char text[64];
    for (int i = 0; i < count; i++) {
        snprintf(text, sizeof text, "skip %d", i);
        if (send_to(socket, "other", text) != 0)
            return fail("send skip");
        snprintf(text, sizeof text, "msg %d", i);
        if (send_to(socket, group, text) != 0)
            return fail("send msg");
    }
    printf("sent\n");
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: radio-dish-peer radio|dish bind|connect <endpoint> <group> <count>\n");
        return 2;
    }
    int dish = strcmp(argv[1], "dish") == 0;
    int bind = strcmp(argv[2], "bind") == 0;
    int count = atoi(argv[5]);
    void *context = zmq_ctx_new();
    void *socket = zmq_socket(context, dish ? ZMQ_DISH : ZMQ_RADIO);
    if (!socket)
        return fail("socket");
    /* A RADIO lingers so that the messages it queued last still leave before zmq_close (udp included). */
    int timeout = TIMEOUT_MS, linger = dish ? 0 : TIMEOUT_MS;
    zmq_setsockopt(socket, ZMQ_RCVTIMEO, &timeout, sizeof timeout);
    zmq_setsockopt(socket, ZMQ_SNDTIMEO, &timeout, sizeof timeout);
    zmq_setsockopt(socket, ZMQ_LINGER, &linger, sizeof linger);
    if (bind) {
        if (zmq_bind(socket, argv[3]) != 0)
            return fail("bind");
        char endpoint[256];
        size_t length = sizeof endpoint;
        zmq_getsockopt(socket, ZMQ_LAST_ENDPOINT, endpoint, &length);
        printf("endpoint %s\n", endpoint);
        fflush(stdout);
    } else if (zmq_connect(socket, argv[3]) != 0)
        return fail("connect");

    int rc = dish ? run_dish(socket, argv[4], count) : run_radio(socket, argv[4], count);
    if (rc != 0)
        return rc;
    zmq_close(socket);
    zmq_ctx_term(context);
    printf("done\n");
    fflush(stdout);
    return 0;
}
