/* The routed pair the *_routed_* tools run, chosen when they are compiled:
 * -DROUTED_SERVER_CLIENT=1 gives SERVER (local, binds) and CLIENT (remote, connects), the
 * draft thread-safe types (needs -DZMQ_BUILD_DRAFT_API and a draft build of libzmq);
 * otherwise ROUTER (local) and DEALER (remote), the classic pair they are measured against.
 * compare.sh builds both from the same sources against the same library. */
#ifndef MANAGED_ZMQ_ROUTED_COMMON_H
#define MANAGED_ZMQ_ROUTED_COMMON_H

#include "perf_common.h"

#if ROUTED_SERVER_CLIENT
#define ROUTED_LOCAL_TYPE ZMQ_SERVER
#define ROUTED_REMOTE_TYPE ZMQ_CLIENT
#else
#define ROUTED_LOCAL_TYPE ZMQ_ROUTER
#define ROUTED_REMOTE_TYPE ZMQ_DEALER
#endif

/* Receives one request on the local side into msg (its payload) and, for ROUTER, id (the
 * routing id frame); SERVER keeps the routing id on msg itself. Exits on a wrong size. */
static inline void routed_recv(void *local, zmq_msg_t *id, zmq_msg_t *msg, int message_size)
{
#if ROUTED_SERVER_CLIENT
    (void) id;
#else
    if (zmq_msg_recv(id, local, 0) < 0)
        perf_die("zmq_msg_recv");
    if (!zmq_msg_more(id)) {
        fprintf(stderr, "routing id frame without payload\n");
        exit(1);
    }
#endif
    if (zmq_msg_recv(msg, local, 0) < 0)
        perf_die("zmq_msg_recv");
    if ((int) zmq_msg_size(msg) != message_size) {
        fprintf(stderr, "message of incorrect size received\n");
        exit(1);
    }
}

/* Sends msg back to the peer routed_recv got it from (ROUTER: the id frame first). */
static inline void routed_reply(void *local, zmq_msg_t *id, zmq_msg_t *msg)
{
#if ROUTED_SERVER_CLIENT
    (void) id;
#else
    if (zmq_msg_send(id, local, ZMQ_SNDMORE) < 0)
        perf_die("zmq_msg_send");
#endif
    if (zmq_msg_send(msg, local, 0) < 0)
        perf_die("zmq_msg_send");
}

#endif
