/* A libzmq peer in its own process, for fault tests that kill it with SIGKILL mid-stream.
 * Built by NativePeerProcess at test time: gcc -O1 zmq-peer.c -lzmq
 *
 *   zmq-peer pull-bind <endpoint>     binds a PULL, prints "bound <last endpoint>", then for every
 *                                     message prints "count <n>" each 100 messages and
 *                                     "got <text>" for single-frame messages starting with 'M'.
 *   zmq-peer push-connect <endpoint>  connects a PUSH, prints "connected", then sends three-frame
 *                                     messages ["a", 1024 x 'x', "<sequence>"] as fast as it can.
 */
#include <stdio.h>
#include <string.h>
#include <zmq.h>

static int pull_bind(void *context, const char *endpoint)
{
    void *socket = zmq_socket(context, ZMQ_PULL);
    if (zmq_bind(socket, endpoint) != 0) {
        printf("error %d\n", zmq_errno());
        return 1;
    }

    char bound[256];
    size_t size = sizeof bound;
    zmq_getsockopt(socket, ZMQ_LAST_ENDPOINT, bound, &size);
    printf("bound %s\n", bound);

    static char message[70000];
    long count = 0;
    for (;;) {
        int length = zmq_recv(socket, message, sizeof message - 1, 0);
        if (length < 0) {
            return 0;
        }

        int more = 0;
        size_t more_size = sizeof more;
        zmq_getsockopt(socket, ZMQ_RCVMORE, &more, &more_size);
        if (!more && length > 0 && length < 200 && message[0] == 'M') {
            message[length] = 0;
            printf("got %s\n", message);
        }

        if (++count % 100 == 0) {
            printf("count %ld\n", count);
        }
    }
}

static int push_connect(void *context, const char *endpoint)
{
    void *socket = zmq_socket(context, ZMQ_PUSH);
    if (zmq_connect(socket, endpoint) != 0) {
        printf("error %d\n", zmq_errno());
        return 1;
    }

    printf("connected\n");
    char body[1024];
    memset(body, 'x', sizeof body);
    for (long sequence = 0;; sequence++) {
        char text[32];
        int length = snprintf(text, sizeof text, "%ld", sequence);
        if (zmq_send(socket, "a", 1, ZMQ_SNDMORE) < 0 || zmq_send(socket, body, sizeof body, ZMQ_SNDMORE) < 0
            || zmq_send(socket, text, (size_t)length, 0) < 0) {
            return 0;
        }
    }
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc != 3) {
        fprintf(stderr, "usage: zmq-peer pull-bind|push-connect <endpoint>\n");
        return 64;
    }

    void *context = zmq_ctx_new();
    if (strcmp(argv[1], "pull-bind") == 0) {
        return pull_bind(context, argv[2]);
    }

    if (strcmp(argv[1], "push-connect") == 0) {
        return push_connect(context, argv[2]);
    }

    return 64;
}
